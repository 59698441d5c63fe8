"""`HoyitoBatch`: thousands of Hoyito II games stepped by one compiled call (the batched contract).

The per-game work is the same `kernels.play` / `kernels.encode` / `kernels.legal_mask` the
single-game engine and the AEC env use; this module only loops over games and does the
bookkeeping (rewards, automatic reset, final observations, episode lengths). Buffers, input
checks, seeding and the reset/step plumbing are `hive_envs.core.batch.BatchGame`'s.

Contract (shared with HiveBatch; the training code is written against it)::

    batch = HoyitoBatch(num_games, **options)     # options and validation as HoyitoGame, plus the
                                                  # opt-in reward_shaping="captured_margin" (core/shaping.py)
    batch.reset(seed=None); batch.step(actions)   # actions: (N,) integers
    batch.observation (N, 2n+4) float32, batch.action_mask (N, n) int8, batch.to_move (N,) int8,
    batch.rewards (N, 2) float32, batch.terminated (N,) bool, batch.final_observation,
    batch.episode_length (N,) int32           # all overwritten in place by reset/step

Two optional keyword arguments of `step`, used by the Gymnasium vector env:
`active` (N,) bool steps only those games (the others keep every buffer, with rewards 0 and
terminated False), and `final_view` (N,) int8 chooses whose view `final_observation` is written
from (default: the seat that made the last move).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from hive_envs.core.batch import BatchGame, check_num_games, check_parallel, check_rows
from hive_envs.core.game import check_integer
from hive_envs.core.shaping import parse_shaping
from hive_envs.hoyito.encoding import OBS_DTYPE, observation_size
from hive_envs.hoyito.engine import kernels as K
from hive_envs.hoyito.engine.game import POTENTIAL_NAME, HoyitoGame
from hive_envs.hoyito.engine.options import HoyitoOptions

# The compiled loop's arguments, grouped (each kernel takes at most a dozen):
# ``params`` int64[5]: holes per row n, max_laps, no_capture_limit, seeds per hole, total counters;
# ``out``: the contract's buffers in `BatchGame._buffers` order: observation, action_mask, to_move,
# rewards, terminated, final_observation, episode_length.


@njit(cache=True)
def _publish(s, n, limit, total, obs, mask, to_move):
    seat = s[2 * n + K.TURN]
    K.encode(s, seat, n, limit, total, obs)
    K.legal_mask(s, n, mask)
    to_move[0] = seat


@njit(cache=True)
def _step_one(s, action, view, params, obs, mask, to_move, rewards, final_obs):
    """Step one game; on its end write the final view and restart it. Return the finished length or 0."""
    n, max_laps, limit, seeds, total = params[0], params[1], params[2], params[3], params[4]
    m = 2 * n
    mover = s[m + K.TURN]
    K.play(s, mover * n + action, n, max_laps, limit)
    length = 0
    rewards[0] = 0.0
    rewards[1] = 0.0
    if s[m + K.OVER] != 0:
        K.encode(s, mover if view < 0 else view, n, limit, total, final_obs)
        w = K.winner(s, n)
        if w == 0:
            rewards[0] = 1.0
            rewards[1] = -1.0
        elif w == 1:
            rewards[0] = -1.0
            rewards[1] = 1.0
        length = s[m + K.PLY]
        K.init_state(s, n, seeds)
    _publish(s, n, limit, total, obs, mask, to_move)
    return length


@njit(cache=True)
def _first_bad_action(actions, active, mask):
    """Index of the first active game whose action is out of range or illegal, else -1."""
    num_actions = mask.shape[1]
    for g in range(actions.shape[0]):
        if active[g]:
            a = actions[g]
            if a < 0 or a >= num_actions or mask[g, a] == 0:
                return g
    return -1


@njit(cache=True)
def _step_game(g, actions, active, final_view, states, params, out):
    obs, mask, to_move, rewards, terminated, final_obs, episode_length = out
    terminated[g] = False
    if not active[g]:
        rewards[g, 0] = 0.0
        rewards[g, 1] = 0.0
        return
    length = _step_one(
        states[g],
        actions[g],
        final_view[g],
        params,
        obs[g],
        mask[g],
        to_move[g : g + 1],
        rewards[g],
        final_obs[g],
    )
    if length > 0:
        terminated[g] = True
        episode_length[g] = length


@njit(cache=True)
def _step_serial(actions, active, final_view, states, params, out):
    """Validate every game's action, then step them all; return the first bad game (nothing stepped) or -1."""
    bad = _first_bad_action(actions, active, out[1])
    if bad >= 0:
        return bad
    for g in range(actions.shape[0]):
        _step_game(g, actions, active, final_view, states, params, out)
    return -1


@njit(cache=True, parallel=True)
def _step_parallel(actions, active, final_view, states, params, out):
    """`_step_serial` with the games spread over all cores."""
    bad = _first_bad_action(actions, active, out[1])
    if bad >= 0:
        return bad
    for g in prange(actions.shape[0]):
        _step_game(g, actions, active, final_view, states, params, out)
    return -1


@njit(cache=True)
def _reset_games(states, n, seeds, limit, total, obs, mask, to_move):
    for g in range(states.shape[0]):
        K.init_state(states[g], n, seeds)
        _publish(states[g], n, limit, total, obs[g], mask[g], to_move[g : g + 1])


@njit(cache=True)
def _capture_values(states, rows, n, max_laps, limit, out):
    scratch = np.empty(states.shape[1], states.dtype)
    for i in range(rows.shape[0]):
        K.capture_values(states[rows[i]], n, max_laps, limit, scratch, out[i])


@njit(cache=True)
def _potentials(states, n, total, out):
    for g in range(states.shape[0]):
        for seat in range(2):
            out[g, seat] = K.captured_margin(states[g], n, seat) / total


class HoyitoBatch(BatchGame):
    """`num_games` independent Hoyito II games with preallocated, in-place buffers.

    `parallel=True` spreads the games over all cores (numba `prange`). It is off by default:
    on the 2-core development machine, shared with other processes, the threaded loop was
    measured 3-10x SLOWER than the serial one at N = 64..1024 (see docs/hoyito.md).
    """

    game_name = "hoyito"

    def __init__(
        self,
        num_games: int,
        holes_per_row=6,
        seeds_per_hole=4,
        max_laps=1000,
        no_capture_limit=None,
        parallel=False,
        reward_shaping=None,
        shaping_coef=1.0,
        shaping_gamma=1.0,
    ):
        N = check_num_games(num_games)
        self.parallel = check_parallel(parallel)
        self.options = o = HoyitoOptions(holes_per_row, seeds_per_hole, max_laps, no_capture_limit)
        shaping = parse_shaping(POTENTIAL_NAME, reward_shaping, shaping_coef, shaping_gamma)
        self.num_actions = o.holes_per_row
        self.observation_shape = (observation_size(o.holes_per_row),)
        self.observation_dtype = np.dtype(OBS_DTYPE)
        self.states = np.zeros((N, K.state_size(o.holes_per_row)), dtype=np.int32)
        self._allocate(N)
        self._init_shaping(shaping)
        self._params = np.array(
            [o.holes_per_row, o.max_laps, o.no_capture_limit, o.seeds_per_hole, o.total_counters],
            dtype=np.int64,
        )
        self.reset()

    def potentials(self) -> np.ndarray:
        """(N, 2) float32: each seat's `HoyitoGame.potential` (captured margin / all counters) now."""
        out = np.empty((self.num_games, 2), dtype=np.float32)
        _potentials(self.states, self.options.holes_per_row, self.options.total_counters, out)
        return out

    def greedy_actions(self, rows, rng: np.random.Generator) -> np.ndarray:
        """For each game in `rows`: the move capturing the most counters now, ties broken at random.

        ValueError for ``rows`` that are not game indices (`hive_envs.core.batch.check_rows`)."""
        rows = check_rows(rows, self.num_games)
        o = self.options
        values = np.empty((rows.size, self.num_actions), dtype=np.int32)
        _capture_values(self.states, rows, o.holes_per_row, o.max_laps, o.no_capture_limit, values)
        return (values + 0.5 * rng.random(values.shape)).argmax(axis=1)

    def game(self, row: int) -> HoyitoGame:
        """A `HoyitoGame` in game ``row``'s current position (a copy: playing on it leaves the batch
        alone), for players that choose moves on a game (`hive_envs.players`)."""
        return HoyitoGame.from_state(self.states[self._row(row)], self.options)

    def move_to_action(self, row: int, move_id: int) -> int:
        """The action (the mover's hole from their left) of absolute hole ``move_id`` in game ``row``."""
        g = self._row(row)
        move = check_integer(move_id, "move id")
        return self._legal_action(g, move - int(self.to_move[g]) * self.num_actions, move_id)

    # ------------------------------------------------------------------ BatchGame hooks
    def _reset_games(self) -> None:
        o = self.options
        _reset_games(
            self.states,
            o.holes_per_row,
            o.seeds_per_hole,
            o.no_capture_limit,
            o.total_counters,
            self.observation,
            self.action_mask,
            self.to_move,
        )

    def _prepare_actions(self, a, active) -> np.ndarray:
        """A cast only: ranges and legality are checked inside the compiled step."""
        if a.dtype != np.int64:
            # clip unsigned values first so that a huge one stays out of range after the cast
            a = (
                np.clip(a, -1, self.num_actions).astype(np.int64)
                if a.dtype.kind == "u"
                else a.astype(np.int64)
            )
        return np.ascontiguousarray(a)

    def _step_games(self, actions, a, active, view) -> None:
        kernel = _step_parallel if self.parallel else _step_serial
        bad = kernel(a, active, view, self.states, self._params, self._buffers())
        if bad >= 0:
            action = int(np.asarray(actions)[bad])
            if 0 <= action < self.num_actions:
                raise ValueError(
                    f"game {bad}: action {action} is illegal; legal actions are "
                    f"{np.flatnonzero(self.action_mask[bad]).tolist()}"
                )
            raise ValueError(f"game {bad}: action {action} is out of range [0, {self.num_actions})")
