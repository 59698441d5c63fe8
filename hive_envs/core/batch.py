"""`BatchGame`: the Python side of the batched contract, shared by `HiveBatch` and `HoyitoBatch`.

A batch holds `num_games` independent games and steps them all with ONE compiled call::

    batch.reset(seed=None); batch.step(actions, active=None, final_view=None)
    batch.observation (N, *observation_shape), batch.action_mask (N, A) int8, batch.to_move (N,) int8,
    batch.rewards (N, 2) float32, batch.terminated (N,) bool, batch.final_observation,
    batch.episode_length (N,) int32           # all overwritten in place by reset/step

This base allocates those buffers, validates the input (`num_games`, `parallel`, the shapes and
dtypes of `actions`, `active` and `final_view`) with the contract's error messages, seeds
`np_random` and clears the per-step outputs on reset. For players that choose on a game rather
than on observations (`hive_envs.players`), a batch also offers ``game(row)`` (a protocol game in
that row's position, `hive_envs.core.game`) and ``move_to_action(row, move_id)``. Every argument
naming rows (``game(row)``, ``move_to_action(row, ...)``, ``greedy_actions(rows, ...)``, a player's
``act(batch, rows)``) is checked: an integer (array) in [0, num_games), else ValueError
(`check_rows`); a move id must be an integer (`hive_envs.core.game.check_integer`). A game fills in
small hooks:

- `_reset_games()`: write every game's start position and publish its mask, observation, to_move;
- `_prepare_actions(a, active)`: the game's range/legality checks (or a cast for a kernel that
  checks them), returning the contiguous int64 actions handed to the kernel;
- `_step_games(actions, a, active, view)`: the one compiled call (``actions`` is the caller's
  original argument, for error messages);
- `potentials()`: (N, 2) each seat's `Game.potential` in every game now.

Opt-in reward shaping (`hive_envs.core.shaping`; a subclass passes its parsed ``reward_shaping``,
``shaping_coef``, ``shaping_gamma`` to `_init_shaping`): after each step, a game that ended pays both
seats their closing term and the seat to move in every stepped game (a new game's first mover
included) gets the term of the transition its decision closes, all added to ``rewards``;
``raw_rewards`` (N, 2) float32 then holds the unshaped rewards of the step. Without shaping,
``raw_rewards`` is ``rewards`` itself.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hive_envs.core.game import check_integer
from hive_envs.core.shaping import Shaping, ShapingLedger


def check_num_games(num_games) -> int:
    if isinstance(num_games, bool) or not isinstance(num_games, (int, np.integer)) or num_games < 1:
        raise ValueError(f"num_games must be an integer >= 1, got {num_games!r}")
    return int(num_games)


def check_parallel(parallel) -> bool:
    if not isinstance(parallel, (bool, np.bool_)):
        raise ValueError(f"parallel must be True or False, got {parallel!r}")
    return bool(parallel)


@njit(cache=True)
def _first_out_of_range(rows, num_games):
    """Index of the first entry of ``rows`` outside [0, num_games), else -1 (one pass, no copies)."""
    for i in range(rows.shape[0]):
        if rows[i] < 0 or rows[i] >= num_games:
            return i
    return -1


def check_rows(rows, num_games: int) -> np.ndarray:
    """``rows`` as a contiguous int64 array of game indices in [0, num_games); ValueError otherwise.

    A compiled pass checks the range, so that kernels indexing games by these rows (which do not
    check bounds) never read past the batch."""
    r = np.asarray(rows)
    if r.ndim != 1 or (r.size and not np.issubdtype(r.dtype, np.integer)):
        raise ValueError(f"rows must be a 1-D integer array of game indices, got {rows!r}")
    if r.dtype != np.int64 or not r.flags.c_contiguous:
        if r.dtype.kind == "u" and r.size and r.max() >= num_games:  # beyond int64 after the cast
            raise ValueError(f"row {int(r.max())} is out of range [0, {num_games})")
        r = np.ascontiguousarray(r, dtype=np.int64)
    bad = _first_out_of_range(r, num_games)
    if bad >= 0:
        raise ValueError(f"row {int(r[bad])} is out of range [0, {num_games})")
    return r


class BatchGame:
    """Buffers, input checks, reset and step plumbing of a batch of games (see the module doc).

    A subclass validates its options, sets `num_actions`, `observation_shape` and
    `observation_dtype`, calls `_allocate(num_games)`, then `reset()`.
    """

    encoding_version = "v0"
    num_games: int
    num_actions: int
    observation_shape: tuple[int, ...]
    observation_dtype: np.dtype

    def _allocate(self, num_games: int) -> None:
        """The contract's in-place buffers (and the default `active` / `final_view`)."""
        self.num_games = N = num_games
        self.observation = np.zeros((N, *self.observation_shape), dtype=self.observation_dtype)
        self.action_mask = np.zeros((N, self.num_actions), dtype=np.int8)
        self.to_move = np.zeros(N, dtype=np.int8)
        self.rewards = np.zeros((N, 2), dtype=np.float32)
        self.terminated = np.zeros(N, dtype=bool)
        self.final_observation = np.zeros_like(self.observation)
        self.episode_length = np.zeros(N, dtype=np.int32)
        self._all = np.ones(N, dtype=bool)
        self._last_mover_view = np.full(N, -1, dtype=np.int8)
        self.np_random = np.random.default_rng()
        self._init_shaping(None)

    def _init_shaping(self, shaping: Shaping | None) -> None:
        """Turn the opt-in reward shaping on (a `Shaping`) or off (None); call before `reset`."""
        self.shaping = shaping
        self._ledger = None if shaping is None else ShapingLedger(shaping, self.num_games)
        self.raw_rewards = self.rewards if shaping is None else np.zeros_like(self.rewards)

    def _buffers(self) -> tuple[np.ndarray, ...]:
        """The contract's output buffers, in this order (as the Hive kernels take them)."""
        return (
            self.observation,
            self.action_mask,
            self.to_move,
            self.rewards,
            self.terminated,
            self.final_observation,
            self.episode_length,
        )

    def reset(self, seed=None) -> None:
        """Start every game afresh (the start position is fixed; ``seed`` seeds ``np_random``)."""
        self.np_random = np.random.default_rng(seed)
        self._reset_games()
        self.rewards[:] = 0
        self.raw_rewards[:] = 0
        self.terminated[:] = False
        self.episode_length[:] = 0
        if self._ledger is not None:
            self._ledger.clear()
            self._decisions_arrive(self._ledger, np.arange(self.num_games))

    def step(self, actions, active=None, final_view=None) -> None:
        """Play one action in every (active) game; all input is validated before any game moves."""
        a, active = self._check_actions(actions, active)
        view = self._last_mover_view if final_view is None else self._check_view(final_view)
        self._step_games(actions, a, active, view)
        if self._ledger is not None:
            self._pay_shaping(self._ledger, active)

    def potentials(self) -> np.ndarray:
        """(N, 2) float32: each seat's `Game.potential` in every game's current position."""
        raise NotImplementedError(f"{type(self).__name__} reports no potentials")

    # ------------------------------------------------------------------ hooks
    def _reset_games(self) -> None:
        raise NotImplementedError

    def _prepare_actions(self, a: np.ndarray, active: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _step_games(self, actions, a: np.ndarray, active: np.ndarray, view: np.ndarray) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ helpers
    def _pay_shaping(self, ledger: ShapingLedger, active: np.ndarray) -> None:
        """Add the shaping terms of the stepped games to ``rewards`` (the module docstring)."""
        self.raw_rewards[:] = self.rewards
        rows = np.flatnonzero(active)
        ended = rows[self.terminated[rows]]
        if ended.size:
            self.rewards[ended] += ledger.close(ended)
        self._decisions_arrive(ledger, rows)

    def _decisions_arrive(self, ledger: ShapingLedger, rows: np.ndarray) -> None:
        seats = self.to_move[rows].astype(np.int64)
        potentials = self.potentials()[rows, seats]
        self.rewards[rows, seats] += ledger.decide(rows, seats, potentials)

    def _check_actions(self, actions, active) -> tuple[np.ndarray, np.ndarray]:
        """Shapes and dtypes here; ranges and legality in the game's `_prepare_actions`."""
        N = self.num_games
        a = np.asarray(actions)
        if a.shape != (N,) or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(
                f"actions must be an integer array of shape ({N},), got dtype {a.dtype} shape {a.shape}"
            )
        if active is None:
            active = self._all
        else:
            active = np.ascontiguousarray(active)
            if active.shape != (N,) or active.dtype != np.bool_:
                raise ValueError(f"active must be a bool array of shape ({N},)")
        return self._prepare_actions(a, active), active

    def _row(self, row) -> int:
        """``row`` as a game index; ValueError naming the range otherwise."""
        row = check_integer(row, f"row (a game index in [0, {self.num_games}))")
        if not 0 <= row < self.num_games:
            raise ValueError(f"row {row} is out of range [0, {self.num_games})")
        return row

    def _legal_action(self, row: int, action: int, move_id) -> int:
        """``action`` if it is legal in game ``row`` now, else ValueError naming the engine move."""
        if not 0 <= action < self.num_actions or not self.action_mask[row, action]:
            raise ValueError(f"game {row}: move {move_id!r} is not legal now")
        return action

    def _check_view(self, final_view) -> np.ndarray:
        v = np.asarray(final_view)
        if (
            v.shape != (self.num_games,)
            or not np.issubdtype(v.dtype, np.integer)
            or ((v != 0) & (v != 1)).any()
        ):
            raise ValueError(f"final_view must be an integer array of 0/1 seats of shape ({self.num_games},)")
        return np.ascontiguousarray(v, dtype=np.int8)
