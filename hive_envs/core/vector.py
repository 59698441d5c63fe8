"""`BatchVectorEnv`: a Gymnasium vector env over any batched game (the batched contract).

Each sub-env is one learner seat against an opponent inside; all sub-envs advance together
through the batch's single compiled `step`. After the learners' actions, opponents play
(in batch: one `step(..., active=rows)` per opponent ply) until every learner is to move
again, so observations are always the learner's view at its turn.

Autoreset is Gymnasium's SAME_STEP mode: a finished game is reset within the step that ends
it. `infos["final_obs"]` is an (N, *observation_shape) array whose rows flagged by
`infos["_final_obs"]` hold the last position of the finished game from the LEARNER's view;
`infos["episode_length"]` the finished game's plies (both sides); `infos["learner_seat"]`
the learner's seat in the game now running (redrawn per episode with learner_seat="random").
With a batch that shapes rewards (`reward_shaping=...`), each reward is the learner's shaped
transition from its decision to its next one (the batch's terms of the plies in between, summed)
and `infos["raw_reward"]` the unshaped part.

``rule_features=True`` (games that offer it) makes each observation a Dict, as in the single env
(`hive_envs.hive.feature_observation`); ``infos["final_obs"]`` is then the same Dict with the final
planes and the finished game's empty features.

Edge case: if an opponent's opening moves end a freshly reset game before its learner moved
(possible only on tiny custom boards), that game is not reported and another starts.

Errors: `step` before the first `reset`, bad actions (the batch's checks: shape, dtype, range,
legality; nothing moves) and reset options (none are supported) raise ValueError. An opponent that
fails raises ValueError naming it; the batch is then mid-way, so `step` raises until `reset()`.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from hive_envs.core.env_input import check_learner_seat, check_reset_options
from hive_envs.core.opponents import Opponent
from hive_envs.core.single_agent import check_rule_features


class BatchVectorEnv(VectorEnv):
    # class data, which Gymnasium annotates as an instance attribute
    metadata: ClassVar[dict] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # type: ignore[misc]

    def __init__(self, batch, obs_low, obs_high, opponent="random", learner_seat=0, rule_features=False):
        learner_seat = check_learner_seat(learner_seat)
        check_rule_features(rule_features)
        self.batch = batch
        self.num_envs = batch.num_games
        self.single_observation_space = spaces.Box(
            np.asarray(obs_low), np.asarray(obs_high), dtype=batch.observation_dtype
        )
        self._features = None
        if rule_features:
            self._features = self._feature_observation(batch, self.single_observation_space)
            self.single_observation_space = self._features.space
        self.single_action_space = spaces.Discrete(batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.opponent = opponent
        self._opponent = Opponent(opponent, batch.game(0))
        self.learner_seat_option = learner_seat
        self.learner_seat = np.full(self.num_envs, 0 if learner_seat == "random" else learner_seat, np.int8)
        self._rows = np.arange(self.num_envs)
        self._needs_reset = True  # before the first reset, and after an opponent failed mid-step

    def reset(self, *, seed=None, options=None):
        check_reset_options(options, (), type(self).__name__)
        super().reset(seed=seed)
        self._needs_reset = True
        self.batch.reset(seed=int(self.np_random.integers(2**31)))
        self._opponent.seed(int(self.np_random.integers(2**31)))
        self._draw_seats(np.ones(self.num_envs, dtype=bool))
        self._play_opponents(
            np.zeros(self.num_envs, np.float32),
            np.zeros(self.num_envs, bool),
            np.zeros_like(self.batch.observation),
            np.zeros(self.num_envs, np.int32),
        )
        self._needs_reset = False
        return self._observation(), {"learner_seat": self.learner_seat.copy()}

    def step(self, actions):
        if self._needs_reset:
            raise ValueError("step() before reset() (or after an opponent failed); call reset() first")
        b = self.batch
        b.step(np.asarray(actions), final_view=self.learner_seat)
        rewards = b.rewards[self._rows, self.learner_seat].copy()
        raw = b.raw_rewards[self._rows, self.learner_seat].copy()
        terminated = b.terminated.copy()
        final_obs = np.zeros_like(b.observation)  # any observation shape (flat or planes)
        final_obs[terminated] = b.final_observation[terminated]
        lengths = np.where(terminated, b.episode_length, 0).astype(np.int32)
        self._draw_seats(terminated)
        self._needs_reset = True  # until the opponents have moved
        self._play_opponents(rewards, terminated, final_obs, lengths, raw)
        self._needs_reset = False
        if self._features is not None:
            final_obs = self._features.final(final_obs)
        infos = {
            "final_obs": final_obs,
            "_final_obs": terminated.copy(),
            "episode_length": lengths,
            "_episode_length": terminated.copy(),
            "learner_seat": self.learner_seat.copy(),
        }
        if b.shaping is not None:
            infos["raw_reward"] = raw
        return self._observation(), rewards, terminated, np.zeros(self.num_envs, bool), infos

    def action_masks(self) -> np.ndarray:
        """Legal actions of every sub-env's learner now, (num_envs, A) bool."""
        return self.batch.action_mask.astype(bool)

    def close_extras(self, **kwargs):
        if hasattr(self, "_opponent"):  # not when __init__ refused its arguments
            self._opponent.close()

    # ------------------------------------------------------------------ helpers
    def _observation(self) -> np.ndarray | dict:
        planes = self.batch.observation.copy()
        return planes if self._features is None else self._features.observe_states(planes, self.batch.states)

    def _feature_observation(self, batch, planes: spaces.Box):
        """The ``rule_features=True`` observation of this game (an object with ``space``,
        ``observe_states(planes, states)`` and ``final(planes)``); a game that offers one overrides this."""
        raise ValueError(f"rule_features=True: {type(self).__name__} has no rule-feature observation")

    def _draw_seats(self, rows: np.ndarray) -> None:
        if self.learner_seat_option == "random" and rows.any():
            self.learner_seat[rows] = self.np_random.integers(0, 2, size=int(rows.sum()))

    def _play_opponents(self, rewards, terminated, final_obs, lengths, raw=None) -> None:
        """Step opponents (in batch) until every sub-env's learner is to move; the learner's rewards
        of those plies (the end, and with reward shaping its transition's term) are added to
        ``rewards`` (and the unshaped ones to ``raw``) while its episode runs."""
        b = self.batch
        actions = np.zeros(self.num_envs, np.int64)
        while True:
            opp = b.to_move != self.learner_seat
            if not opp.any():
                return
            rows = np.flatnonzero(opp)
            actions[rows] = self._opponent.actions(b, rows)
            try:
                b.step(actions, active=opp, final_view=self.learner_seat)
            except ValueError as error:  # a player's batched form chose an illegal action
                raise ValueError(f"opponent {self.opponent!r}: {error}") from None
            running = np.flatnonzero(opp & ~terminated)
            seats = self.learner_seat[running]
            rewards[running] += b.rewards[running, seats]
            if raw is not None:
                raw[running] += b.raw_rewards[running, seats]
            ended = b.terminated
            if ended.any():
                first = ended & ~terminated
                final_obs[first] = b.final_observation[first]
                lengths[first] = b.episode_length[first]
                terminated |= ended
                self._draw_seats(ended)
