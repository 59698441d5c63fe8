"""Position keys for the optional repetition draw.

A key is a Zobrist hash (XOR of random 63-bit keys) of (piece, stack level, cell relative to the
lowest-numbered piece in play) over all pieces in play, plus the player to move. Cells are taken
relative to an anchor piece so that the same hive translated across the (torus) plane gives the same key: in unbounded
Hive a translated position is the same position.
"""

import numpy as np
from numba import njit

from hive_envs.hive.engine.grid import GRID_SIZE, NUM_CELLS
from hive_envs.hive.engine.pieces import NUM_PIECES
from hive_envs.hive.engine.state import I_TO_MOVE, PCELL, PUNDER

ZOBRIST = np.random.default_rng(20261129).integers(
    0, 2**63, size=(NUM_PIECES * 8 * NUM_CELLS + 2), dtype=np.int64
)
"""One random 63-bit key per (piece, stack level, relative cell), plus one per player to move."""


@njit(cache=True)
def position_key(s, zobrist):
    """Translation-invariant hash of the board and the player to move (pass ``ZOBRIST``)."""
    anchor = -1
    for p in range(NUM_PIECES):
        if s[PCELL + p] >= 0:
            anchor = s[PCELL + p]
            break
    key = zobrist[NUM_PIECES * 8 * NUM_CELLS + s[I_TO_MOVE]]
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
        key ^= zobrist[((p * 8 + level) * GRID_SIZE + dq) * GRID_SIZE + dr]
    return key
