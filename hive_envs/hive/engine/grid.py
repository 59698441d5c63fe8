"""Hex grid of the Hive engine: a 32 x 32 torus of axial cells, directions, neighbour and gate tables.

Coordinates are axial (q, r) on pointy-top hexagons: q grows to the east, r to the south-east.
The six directions, in the fixed order used everywhere (clockwise from north-east), with the UHP
marker that names a cell in that direction from a reference piece X::

                 NW (0,-1)   NE (+1,-1)
                    \\X          X/            d=5 NW  d=0 NE
        W (-1,0)  -X     [X]     X-  E (+1,0)  d=4 W   d=1 E
                    /X          X\\            d=3 SW  d=2 SE
                 SW (-1,+1)  SE (0,+1)

Consecutive directions (d, d+1 mod 6) are neighbours of each other, so the two "gate" cells of a
step from cell a in direction d are a's neighbours in directions d-1 and d+1.

Cell index: ``cell = (q mod 32) * 32 + (r mod 32)``; the first piece of every game is placed at
``ORIGIN = qr_to_cell(0, 0) = 0``.

Why a 32-torus keeps the rules unbounded: two axial points alias on the torus only when they
differ by (32a, 32b) with (a, b) != (0, 0), and the smallest hex distance of such a difference is
32 (e.g. (32, 0) or (32, -32)). Every cell the rules ever look at is a piece of the hive or a
neighbour of one. A hive is connected and holds at most 28 pieces, so any two of its cells are at
hex distance <= 27 and any two cells of hive-plus-neighbours at distance <= 29 < 32. Hence no two
cells the rules look at share a torus cell, neighbours and gates are those of the infinite plane,
and the hive may wander anywhere (the torus simply follows it). Nothing in the rules depends on a
window or board size.
"""

import numpy as np

from hive_envs.hive.engine.jit import kernel

GRID_SIZE = 32
NUM_CELLS = GRID_SIZE * GRID_SIZE
ORIGIN = 0

DIRECTIONS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
"""(dq, dr) per direction d = 0..5: NE, E, SE, SW, W, NW."""
DIRECTION_NAMES = ("NE", "E", "SE", "SW", "W", "NW")
NE, E, SE, SW, W, NW = range(6)


def qr_to_cell(q: int, r: int) -> int:
    """Cell index of axial (q, r); any integers, taken modulo the torus."""
    return (q % GRID_SIZE) * GRID_SIZE + (r % GRID_SIZE)


def cell_to_qr(cell: int) -> tuple[int, int]:
    """Axial (q, r) of a cell, each in [-16, 16): the representative nearest the origin."""
    if not 0 <= cell < NUM_CELLS:
        raise ValueError(f"cell {cell} is outside 0..{NUM_CELLS - 1}")
    q, r = divmod(int(cell), GRID_SIZE)
    half = GRID_SIZE // 2
    return (q - GRID_SIZE if q >= half else q, r - GRID_SIZE if r >= half else r)


def _neighbour_table() -> np.ndarray:
    table = np.empty(NUM_CELLS * 6, dtype=np.int32)
    for cell in range(NUM_CELLS):
        q, r = divmod(cell, GRID_SIZE)
        for d, (dq, dr) in enumerate(DIRECTIONS):
            table[cell * 6 + d] = qr_to_cell(q + dq, r + dr)
    return table


NEIGHBOURS = _neighbour_table().astype(np.uint16)
"""``NEIGHBOURS[cell * 6 + d]``: the neighbour of ``cell`` in direction d.

The tables are uint16: a cell read from them is known to be non-negative, so the compiled kernels
index arrays with it without numba's negative-index wrap-around test (about 10% of perft).
"""
GATE_LEFT = NEIGHBOURS.reshape(NUM_CELLS, 6)[:, [5, 0, 1, 2, 3, 4]].ravel().copy()
GATE_RIGHT = NEIGHBOURS.reshape(NUM_CELLS, 6)[:, [1, 2, 3, 4, 5, 0]].ravel().copy()
"""The two gate cells of the step ``cell -> NEIGHBOURS[cell * 6 + d]``: ``GATE_LEFT[cell * 6 + d]``
(direction d - 1) and ``GATE_RIGHT[cell * 6 + d]`` (direction d + 1), the cells next to both."""


def hex_distance(q: int, r: int) -> int:
    """Hex distance of the axial vector (q, r) from (0, 0) in the infinite plane."""
    return (abs(q) + abs(r) + abs(q + r)) // 2


@kernel
def cell_distance(a, b):
    """Hex distance between cells ``a`` and ``b`` of the torus (exact for any two cells of one hive,
    which is far smaller than the torus)."""
    half = GRID_SIZE // 2
    dq = (a // GRID_SIZE - b // GRID_SIZE + half) % GRID_SIZE - half
    dr = (a % GRID_SIZE - b % GRID_SIZE + half) % GRID_SIZE - half
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2
