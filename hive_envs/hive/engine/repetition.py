"""Position keys: the optional repetition draw, and the searches' repetitions and table keys.

A key is a 64-bit hash of (piece, stack level, cell relative to the lowest-numbered piece in
play) over all pieces in play, plus the player to move: the XOR of a splitmix64 mix of each
piece's code. Cells are taken relative to an anchor piece so that the same hive translated across
the (torus) plane gives the same key: in unbounded Hive a translated position is the same position.

The mix multiplies uint64 values, which wraps silently when compiled; run un-jitted
(``NUMBA_DISABLE_JIT=1``) NumPy reports the wrap-around as an overflow warning, so callers wrap
the call in ``np.errstate(over="ignore")``.
"""

import numpy as np
from numba import njit

from hive_envs.core.hashing import mix64
from hive_envs.hive.engine.grid import GRID_SIZE
from hive_envs.hive.engine.jit import kernel
from hive_envs.hive.engine.pieces import NUM_PIECES
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move
from hive_envs.hive.engine.state import I_LAST_MOVED, I_PASSES, I_PLY, I_TO_MOVE, PCELL, PUNDER


@njit(cache=True)
def splitmix_finaliser(x):
    """splitmix64 finaliser of a uint64 (the position hashes' mix)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def position_key(s):
    """Translation-invariant hash (uint64) of the board and the player to move."""
    anchor = -1
    for p in range(NUM_PIECES):
        if s[PCELL + p] >= 0:
            anchor = s[PCELL + p]
            break
    key = splitmix_finaliser(np.uint64(s[I_TO_MOVE] + 1))
    if anchor < 0:
        return key
    aq, ar = anchor // GRID_SIZE, anchor % GRID_SIZE
    for p in range(NUM_PIECES):
        c = s[PCELL + p]
        if c < 0:
            continue
        level = 0
        u = s[PUNDER + p]
        while u >= 0:
            level += 1
            u = s[PUNDER + u]
        dq = (c // GRID_SIZE - aq) % GRID_SIZE
        dr = (c % GRID_SIZE - ar) % GRID_SIZE
        code = ((p * 8 + level) * GRID_SIZE + dq) * GRID_SIZE + dr + 3
        key ^= splitmix_finaliser(np.uint64(code) * np.uint64(0x9E3779B97F4A7C15))
    return key


@njit(cache=True)
def table_key(s, board_key, with_ply):
    """A search table's key of ``s`` from its `position_key`: mixes in what else changes the legal
    moves or the result, the last-moved piece and the passes in a row (and the ply if asked, where the
    turn cap is within reach)."""
    key = board_key ^ mix64(np.uint64((s[I_LAST_MOVED] + 1) * 4 + s[I_PASSES]))
    if with_ply:
        key ^= mix64(np.uint64(1 << 20) + np.uint64(s[I_PLY]))
    return key


@kernel
def repeats(key, seen, path_keys, ply):
    """Did the position ``key`` occur before: in the game (the sorted keys ``seen``) or on a search's
    line (``path_keys[:ply]``)? The searches score a repetition as a draw."""
    i = np.searchsorted(seen, key)
    if i < seen.shape[0] and seen[i] == key:
        return True
    for p in range(ply):
        if path_keys[p] == key:
            return True
    return False


@njit(cache=True)
def game_position_keys(start, moves):
    """`position_key` of every position of a game: ``start`` and after each of ``moves``."""
    s = start.copy()
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    keys = np.empty(moves.shape[0] + 1, dtype=np.uint64)
    keys[0] = position_key(s)
    for i in range(moves.shape[0]):
        apply_move(s, moves[i], rec)
        keys[i + 1] = position_key(s)
    return keys
