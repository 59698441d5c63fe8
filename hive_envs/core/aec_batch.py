"""`AecBatch`: the batched contract (`hive_envs.core.batch`) over N copies of any PettingZoo AEC env.

    batch = AecBatch(64, env="pettingzoo.classic.connect_four_v3")     # names: hive_envs.core.aec_source
    batch = AecBatch(64, env="pettingzoo:hive_envs/hoyito-v0", env_options={"holes_per_row": 12})
    batch.reset(seed=1); batch.step(actions)      # the same buffers and semantics as HiveBatch

The trainer's fast path is a compiled batch (`HiveBatch`, `HoyitoBatch`); this adapter is the path for
every other AEC env: one of ours with options the batch lacks, a wrapped variant, a PettingZoo
classic game. Each game is its own env, stepped in a Python loop, read through the AEC API
(`hive_envs.core.aec_game`: turn order from ``agent_selection``, so a side that moves twice works;
the mask checked against the env's own legality at every step). Per step, in every (active) game:

- ``observation`` / ``action_mask`` / ``to_move``: ``observe(agent_selection)`` of the env and the
  seat of ``agent_selection``;
- ``rewards`` (N, 2): ``env.rewards`` of both seats after the step (for the envs of this package and
  the classic games: +1 / -1 / 0 on the step that ends the game; the trainer reads the rewards of
  that final step only);
- at a game's end (`aec_game.is_over`): ``terminated``, ``final_observation`` from the view of
  ``final_view`` (default: the seat that moved), ``episode_length`` (the plies of the game); then
  the env is reset (auto-reset) and the new game's first position is published.

``reset(seed)`` resets env ``g`` with ``seed + g`` (None: unseeded). An action the mask does not
allow is refused with ValueError before any game moves (as the compiled batches do). Refusals at
construction (ValueError naming the env): observations without ``action_mask``, a mask that does
not match the action space, more or fewer than two agents, a probe of the first positions in
which some masked-legal action is refused or penalised by the env (`PROBE_PLIES`), and an env whose
calls raise while it is made, reset, played or copied (`aec_game.driving`: Hanabi's env, for one,
cannot be copied position by position).

``game(row)`` is a protocol game of row ``row`` (an independent copy) and ``move_to_action`` the
identity on legal actions, so players of `hive_envs.players` that choose on games play here too.
``greedy_actions(rows, rng)``: the greedy player's actions (`aec_game.AecGame.greedy_move_scores`:
over an env of this package its game's heuristic, over any other a move that wins at once), so the
tools offer the greedy player on every env.
``options`` and ``aec_options``: the env's name and options (`AecOptions`).
"""

from __future__ import annotations

import numpy as np

from hive_envs.core.aec_game import (
    AecGame,
    EnvSpaces,
    copy_env,
    driving,
    is_over,
    mover,
    read_mask,
    step_checked,
    step_rewards,
)
from hive_envs.core.aec_make import make_env
from hive_envs.core.aec_source import AecOptions
from hive_envs.core.batch import BatchGame, check_num_games, check_rows
from hive_envs.core.choice import best_index

PROBE_PLIES = 8
"""Plies of one random game whose every masked-legal action is stepped, each in a copy, at construction."""


class AecBatch(BatchGame):
    """N AEC envs under the batched contract (see the module docstring)."""

    game_name = "aec"

    def __init__(self, num_games: int, env: str, env_options: dict | None = None):
        num_games = check_num_games(num_games)
        self.options = self.aec_options = AecOptions(env, dict(env_options or {}))
        self.label = self.aec_options.label
        self.envs = [make_env(self.aec_options) for _ in range(num_games)]
        self.spaces = EnvSpaces.of(self.envs[0], self.label)
        self.num_actions = self.spaces.num_actions
        self.observation_shape = self.spaces.observation_shape
        self.observation_dtype = self.spaces.observation_dtype
        self._allocate(num_games)
        self._seeds: list[int | None] = [None] * num_games
        self._moves: list[list[int]] = [[] for _ in range(num_games)]
        self._totals = np.zeros((num_games, 2))
        with driving(self.label, "resetting, observing and playing it"):
            self._probe()
            self.reset()

    def greedy_actions(self, rows, rng: np.random.Generator) -> np.ndarray:
        """The greedy action in each row (`aec_game.AecGame.greedy_move_scores`, ties at random), as
        the compiled batches give theirs."""
        rows = check_rows(rows, self.num_games)
        out = np.empty(rows.size, dtype=np.int64)
        for i, g in enumerate(rows.tolist()):
            actions, scores = AecGame(self.aec_options, env=self.envs[g]).greedy_move_scores()
            out[i] = actions[best_index(np.asarray(scores), rng)]
        return out

    # ------------------------------------------------------------------ hooks
    def _reset_games(self) -> None:
        seed = self._reset_seed
        for g in range(self.num_games):
            self._restart(g, None if seed is None else seed + g)

    def reset(self, seed=None) -> None:
        self._reset_seed = seed
        super().reset(seed)

    def _prepare_actions(self, a: np.ndarray, active: np.ndarray) -> np.ndarray:
        rows = np.flatnonzero(active)
        taken = a[rows]
        bad = (taken < 0) | (taken >= self.num_actions)
        if not bad.any():
            bad = self.action_mask[rows, taken] == 0
        if bad.any():
            g = int(rows[np.argmax(bad)])
            raise ValueError(
                f"action {int(a[g])} is not legal in game {g} of {self.label}: its mask allows "
                f"{np.flatnonzero(self.action_mask[g]).tolist()}"
            )
        return a.astype(np.int64)

    def _step_games(self, actions, a: np.ndarray, active: np.ndarray, view: np.ndarray) -> None:
        self.rewards[:] = 0
        self.terminated[:] = False
        for g in np.flatnonzero(active).tolist():
            env = self.envs[g]
            seat = mover(env, self.spaces)
            step_checked(env, int(a[g]), self.label)
            self._moves[g].append(int(a[g]))
            self.rewards[g] = step_rewards(env, self.spaces)
            self._totals[g] += self.rewards[g]
            if is_over(env):
                self.terminated[g] = True
                viewer = seat if view[g] < 0 else int(view[g])
                self.final_observation[g] = env.observe(self.spaces.agents[viewer])["observation"]
                self.episode_length[g] = len(self._moves[g])
                self._restart(g, None)
            else:
                self._publish(g)

    # ------------------------------------------------------------------ players
    def game(self, row) -> AecGame:
        """A protocol game in row ``row``'s position (an independent copy of its env, `copy_env`)."""
        g = self._row(row)
        env = copy_env(self.envs[g])
        return AecGame(self.aec_options, self._seeds[g], env, self._moves[g], self._totals[g])

    def move_to_action(self, row, move_id) -> int:
        g = self._row(row)
        return self._legal_action(g, int(move_id), move_id)

    # ------------------------------------------------------------------ helpers
    def _restart(self, g: int, seed: int | None) -> None:
        self.envs[g].reset(seed=seed)
        self._seeds[g] = seed
        self._moves[g] = []
        self._totals[g] = 0.0
        self._publish(g)

    def _publish(self, g: int) -> None:
        env = self.envs[g]
        agent = env.agent_selection
        observation = env.observe(agent)
        self.observation[g] = observation["observation"]
        self.action_mask[g] = read_mask(env, self.spaces, self.label, observation)
        self.to_move[g] = self.spaces.agents.index(agent)

    def _probe(self) -> None:
        """Step every masked-legal action of the first `PROBE_PLIES` positions of a random game, each
        in a copy of the game (`aec_game.step_checked` raises for one the env refuses or penalises)."""
        game = AecGame(self.aec_options, 0, env=self.envs[0])
        game.env.reset(seed=0)
        rng = np.random.default_rng(0)
        for _ in range(PROBE_PLIES):
            if game.is_terminal:
                break
            legal = game.legal_move_ids()
            for action in legal:
                copied = game.copy()
                with driving(self.label, "playing a copy of it (copy_env)"):
                    copied.play_id(int(action))
            game.play_id(int(rng.choice(legal)))
