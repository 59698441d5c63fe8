"""Perft: the number of legal move sequences of a given length, counted in place.

The last ply is bulk-counted (the number of generated moves), a forced pass counts as a move and
a finished game has no moves. Buffers are allocated once per call, one row per depth.
"""

import numpy as np
from numba import njit

from hive_envs.hive.engine.jit import kernel
from hive_envs.hive.engine.movegen import MAX_MOVES, count_moves, generate_moves
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move, undo_move


@njit(cache=True)
def perft_kernel(s, w, depth):
    """Perft count of ``depth`` plies from state ``s`` (restored on return).

    Iterative (an explicit stack of move lists) because numba's cache cannot reload recursive
    functions reliably.
    """
    if depth <= 0:
        return 1
    moves = np.empty((depth, MAX_MOVES), dtype=np.int32)
    if depth == 1:
        return count_moves(s, w, moves[0])
    counts = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    recs = np.empty((depth, UNDO_SIZE), dtype=np.int32)
    return _perft(s, w, depth, moves, counts, index, recs)


@kernel
def _perft(s, w, depth, moves, counts, index, recs):
    """The walk of `perft_kernel` (``depth >= 2``) in its buffers, compiled without the reference
    counting of the per-level rows it hands to the move generator (see `hive_envs.hive.engine.jit`)."""
    total = 0
    counts[0] = generate_moves(s, w, moves[0])
    level = 0
    while level >= 0:
        if index[level] == counts[level]:
            level -= 1
            if level >= 0:
                undo_move(s, recs[level])
            continue
        apply_move(s, moves[level, index[level]], recs[level])
        index[level] += 1
        if level + 2 == depth:
            total += count_moves(s, w, moves[level + 1])
            undo_move(s, recs[level])
        else:
            level += 1
            counts[level] = generate_moves(s, w, moves[level])
            index[level] = 0
    return total
