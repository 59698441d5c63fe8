"""`SingleAgentEnv`: a Gymnasium env for one learner seat over a `GameAECEnv`, opponent inside.

The learner sees the AEC observation's "observation" entry (a Box); `action_masks()` gives
its legal actions (the method name SB3-contrib's MaskablePPO looks for). After the
learner's action the opponent plays until the learner must act again or the game ends, so
every returned observation is one where the learner is to move. A game subclass only
builds its AEC env (`GameOptionsEnv`: from keyword game options; see `hive_envs.hoyito.gym_env`). The opponent is any `opponent` argument
`hive_envs.core.opponents` accepts (a player spec, a player, or a callable on observations).

Rewards are the learner's +1 / -1 / 0 at the end. An in-range but illegal action ends the
episode as a loss (-1, `info["illegal_action"] = True`), as PettingZoo's
TerminateIllegalWrapper does; a value outside the action space, or one that is not an integer
(None, a bool, a float; numpy integers are integers), raises ValueError, state unchanged.

An opponent that fails (a callable returning an illegal or non-integer action, a player raising)
raises ValueError naming it from `step` or `reset`; the learner's move of that step stays played,
and the episode is over: `step` then raises until `reset()`. `reset(options=...)` takes the AEC
env's reset options (Hive: "gamestring"; `hive_envs.core.env_input`).

``rule_features=True`` (games that offer it: Hive, `hive_envs.hive.feature_observation`) makes the
observation a Dict of the planes and per-action rule features of the learner's legal actions.

With the AEC env's opt-in reward shaping (`reward_shaping=...`, `hive_envs.core.shaping`), each
step's reward is the learner's transition from this decision to its next one (or to the end):
raw + c * (gamma * Phi(s') - Phi(s)), Phi = 0 at the end; `info["raw_reward"]` is the raw part.
"""

from __future__ import annotations

from typing import ClassVar

import gymnasium as gym
import numpy as np

from hive_envs.core.definition import GameDefinition
from hive_envs.core.env_input import check_learner_seat
from hive_envs.core.game import as_integer
from hive_envs.core.game_env import GameAECEnv
from hive_envs.core.opponents import Opponent
from hive_envs.core.shaping import SHAPING_OPTIONS


def check_rule_features(rule_features) -> None:
    if not isinstance(rule_features, (bool, np.bool_)):
        raise ValueError(f"rule_features must be True or False, got {rule_features!r}")


class SingleAgentEnv(gym.Env):
    """Learner seat (`learner_seat` 0, 1 or "random" per episode) against `opponent`."""

    # class data, which Gymnasium annotates as an instance attribute
    metadata: ClassVar[dict] = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 2}  # type: ignore[misc]

    def __init__(
        self, aec: GameAECEnv, opponent="random", learner_seat=0, render_mode=None, rule_features=False
    ):
        learner_seat = check_learner_seat(learner_seat)
        check_rule_features(rule_features)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}"
            )
        self.aec = aec
        self.render_mode = render_mode
        self.opponent = opponent
        self._opponent = Opponent(opponent, aec.game)
        self.learner_seat_option = learner_seat
        agent = aec.possible_agents[0]
        planes: gym.spaces.Box = aec.observation_space(agent)["observation"]
        self.observation_space = planes
        self._planes_shape, self._planes_dtype = planes.shape, planes.dtype
        self._features = None
        if rule_features:
            self._features = self._feature_observation(aec, planes)
            self.observation_space = self._features.space
        self.action_space = gym.spaces.Discrete(aec.num_actions)
        self.learner_seat = 0 if learner_seat == "random" else learner_seat
        self._done = True

    @property
    def _learner(self) -> str:
        return self.aec.possible_agents[self.learner_seat]

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        seat = int(self.np_random.integers(2)) if self.learner_seat_option == "random" else self.learner_seat
        self.aec.reset(
            seed=int(self.np_random.integers(2**31)), options=options
        )  # bad options: nothing reset
        self._done = True  # until the opponent has moved: a failure on the way leaves reset() to call
        self.learner_seat = seat
        self._opponent.seed(int(self.np_random.integers(2**31)))
        self._play_opponent()
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action):
        if self._done:
            raise ValueError(
                "step() called on a finished episode (or one an error ended); call reset() first"
            )
        a = as_integer(action)
        if a is None:
            raise ValueError(f"action must be an integer in [0, {self.action_space.n}), got {action!r}")
        if not 0 <= a < self.action_space.n:
            raise ValueError(f"action {a} is out of range [0, {self.action_space.n})")
        if not self.aec._mask[a]:
            self._done = True
            info = {**self._info(), "illegal_action": True}
            if self.aec.shaping is None:
                return self._observation(), -1.0, True, False, info
            extra = float(self.aec.close_shaping()[self.learner_seat])
            return self._observation(), -1.0 + extra, True, False, {**info, "raw_reward": -1.0}
        self.aec._play(a)  # checked above: once per step
        self._done = True  # until the opponent has moved (an opponent that fails ends the episode)
        self._play_opponent()
        self._done = self.aec._is_over()
        raw = float(self.aec._outcome()[self.learner_seat]) if self._done else 0.0
        if self.render_mode == "human":
            self.render()
        info = self._info()
        if self.aec.shaping is None:
            return self._observation(), raw, self._done, False, info
        # the AEC env paid the learner's shaping since its action into its cumulative reward
        reward = float(self.aec._cumulative_rewards[self._learner])
        return self._observation(), reward, self._done, False, {**info, "raw_reward": raw}

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (bool); all True once the episode is over (an illegal
        action's loss too) and before the first reset."""
        if self._done:
            return np.ones(self.aec.num_actions, dtype=bool)
        return self.aec._mask.astype(bool)

    def render(self):
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode= to gym.make")
            return None
        if self.render_mode == "rgb_array":
            return self.aec._render_rgb()
        text = self.aec._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ------------------------------------------------------------------ helpers
    def _play_opponent(self) -> None:
        aec = self.aec
        while not aec._is_over() and aec._seat_to_move() != self.learner_seat:
            aec._play(self._opponent.action(aec))  # `Opponent.action` returns only legal actions

    def observation_of(self, game) -> np.ndarray | dict:
        """The observation this env would give a learner to move in ``game`` (a protocol game of this
        env's game and options), e.g. to play a policy trained here as a player of `hive_envs.players`."""
        return self._observe(game, game.to_move)

    def _observation(self) -> np.ndarray | dict:
        return self._observe(self.aec.game, self.learner_seat)

    def _observe(self, game, seat: int) -> np.ndarray | dict:
        obs = np.empty(self._planes_shape, dtype=self._planes_dtype)
        self.aec.encoder.observe(game, seat, obs)
        return obs if self._features is None else self._features.observe(obs, game)

    def _feature_observation(self, aec: GameAECEnv, planes: gym.spaces.Box):
        """The ``rule_features=True`` observation of this game (an object with ``space`` and
        ``observe(planes, game)``); a game that offers one overrides this."""
        raise ValueError(f"rule_features=True: {type(self).__name__} has no rule-feature observation")

    def _info(self) -> dict:
        info = {"learner_seat": self.learner_seat}
        if self.aec._is_over():
            info.update(self.aec._final_info())
        return info


class GameOptionsEnv(SingleAgentEnv):
    """`SingleAgentEnv` over the AEC env of a registered game, built from keyword game options.

    A subclass names the game's ``definition`` (which refuses unknown option names; the reward
    shaping options are allowed beside) and its ``aec_env`` class, built as ``aec_env(**options)``.
    """

    definition: ClassVar[GameDefinition]
    aec_env: ClassVar[type[GameAECEnv]]

    def __init__(self, opponent="random", learner_seat=0, render_mode=None, rule_features=False, **options):
        self.definition.check_option_names(options, extra=SHAPING_OPTIONS)
        super().__init__(
            self.aec_env(**options),
            opponent=opponent,
            learner_seat=learner_seat,
            render_mode=render_mode,
            rule_features=rule_features,
        )
