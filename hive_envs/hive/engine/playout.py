"""Random playouts entirely inside compiled code (generate every legal move, play one, every ply)."""

import numpy as np
from numba import njit

from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move
from hive_envs.hive.engine.state import I_STATUS


@njit(cache=True)
def random_playout(s, w, seed, max_plies):
    """Play uniformly random legal moves on ``s`` in place until the game ends or ``max_plies``
    plies were played; return the number of plies played. No undo history is kept."""
    np.random.seed(seed)
    out = np.empty(MAX_MOVES, dtype=np.int32)
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    plies = 0
    while s[I_STATUS] == 0 and plies < max_plies:
        n = generate_moves(s, w, out)
        apply_move(s, out[np.random.randint(n)], rec)
        plies += 1
    return plies
