"""Integer move ids of the Hive engine: one id per distinct (piece, destination cell) pair.

``move_id = pack_move(piece, cell)`` puts the piece id above the cell index, which takes the low
``CELL_BITS`` bits (the torus has ``NUM_CELLS = 2 ** CELL_BITS`` cells); `move_piece` and `move_cell`
take an id apart. ``PASS_MOVE`` (the first id past every real move) is the pass. The id is a
placement when the piece is in the reserve, else a movement or a Pillbug throw. All three helpers
are numba kernels, so compiled code and Python share them.
"""

from hive_envs.hive.engine.grid import NUM_CELLS
from hive_envs.hive.engine.jit import inline_kernel
from hive_envs.hive.engine.pieces import NUM_PIECES

CELL_BITS = NUM_CELLS.bit_length() - 1
assert 1 << CELL_BITS == NUM_CELLS, "the move packing needs a power-of-two number of cells"
CELL_MASK = NUM_CELLS - 1
PASS_MOVE = NUM_PIECES << CELL_BITS
NUM_MOVE_IDS = PASS_MOVE + 1


@inline_kernel
def pack_move(piece, cell):
    """The move id of ``piece`` going to (or being placed on) ``cell``."""
    return (piece << CELL_BITS) + cell


@inline_kernel
def move_piece(move):
    """The piece a (non-pass) move id moves."""
    return move >> CELL_BITS


@inline_kernel
def move_cell(move):
    """The destination cell of a (non-pass) move id."""
    return move & CELL_MASK
