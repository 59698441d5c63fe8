"""Where a batched Hive ply goes: the per-position cost of each kernel `HiveBatch.step` runs.

Positions are taken from seeded random games (every ply of each game, up to ``count``); each
kernel then runs over all of them in one compiled loop, best of ``repeats``: move generation
(`engine.movegen.generate_moves`), the mask (`encoding.encode_mask`), the observation
(`encoding.encode_observation`) and the benchmark loop's random action draw
(`core.choice.random_legal_actions` over the positions' masks). The batch's own bookkeeping
(action -> move id, `apply_move`, rewards, restarts) is the rest of a row's time per ply.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from hive_envs.core.choice import random_legal_actions
from hive_envs.hive import HiveGame
from hive_envs.hive import encoding as E
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.options import HiveOptions
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move
from hive_envs.hive.engine.state import I_STATUS, I_TO_MOVE
from hive_envs.hive.engine.workspace import new_workspace


@njit(cache=True)
def _random_game_positions(start, w, picks, out_states):
    """Fill ``out_states`` with the positions before each ply of random games from ``start``."""
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    s = start.copy()
    for i in range(out_states.shape[0]):
        if s[I_STATUS] != 0:
            s[:] = start
        out_states[i] = s
        n = generate_moves(s, w, moves)
        apply_move(s, moves[picks[i] % n], rec)


@njit(cache=True)
def _generate_all(states, w, moves, counts):
    for i in range(states.shape[0]):
        counts[i] = generate_moves(states[i], w, moves[i])


@njit(cache=True)
def _masks_all(states, moves, counts, frames, grid, n_tiles, slot_of, masks):
    for i in range(states.shape[0]):
        E.encode_mask(states[i], moves[i], counts[i], frames[i], grid, n_tiles, slot_of, masks[i])


@njit(cache=True)
def _observations_all(states, grid, n_tiles, slot_of, kinds, obs):
    for i in range(states.shape[0]):
        E.encode_observation(states[i], states[i][I_TO_MOVE], grid, n_tiles, slot_of, kinds, obs)


def _best_seconds(fn, repeats: int) -> float:
    fn()  # warm-up (numba cache load)
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def kernel_costs(game_type: str, count: int = 2000, repeats: int = 5, seed: int = 0) -> dict:
    """Microseconds of CPU time per position of each kernel over ``count`` random-game positions."""
    enc = E.make_encoding(HiveOptions.from_game_type(game_type).expansions)
    start = HiveGame(game_type).state.copy()
    w = new_workspace()
    rng = np.random.default_rng(seed)
    states = np.empty((count, start.size), dtype=np.int32)
    _random_game_positions(start, w, rng.integers(0, 2**30, count), states)
    moves = np.empty((count, MAX_MOVES), dtype=np.int32)
    counts = np.empty(count, dtype=np.int64)
    frames = np.empty((count, E.FRAME_SIZE), dtype=np.int32)
    masks = np.empty((count, enc.num_actions), dtype=np.int8)
    obs = np.empty(enc.observation_shape, dtype=np.uint8)
    rows, u, actions = np.arange(count), rng.random(count), np.empty(count, dtype=np.int64)
    kernels = {
        "generate_moves": lambda: _generate_all(states, w, moves, counts),
        "encode_mask": lambda: _masks_all(
            states, moves, counts, frames, enc.grid, enc.tiles_per_colour, enc.slot_of, masks
        ),
        "encode_observation": lambda: _observations_all(
            states, enc.grid, enc.tiles_per_colour, enc.slot_of, enc.kinds, obs
        ),
        "random_legal_actions": lambda: random_legal_actions(masks, rows, u, actions),
    }
    micros = {name: _best_seconds(fn, repeats) / count * 1e6 for name, fn in kernels.items()}
    return {
        "game_type": game_type,
        "positions": count,
        "mean_legal_moves": float(counts.mean()),
        "us_per_position": micros,
    }
