"""Hive rules engine (numba kernels), UHP notation and the `HiveGame` API.

Public names: `HiveGame`, `GAME_TYPES`, piece numbering (`PIECE_NAMES`, `NUM_PIECE_SLOTS`, ...),
the torus grid helpers (`GRID_SIZE`, `cell_to_qr`, `qr_to_cell`, `DIRECTIONS`) and the integer
move encoding (``move_id = pack_move(piece_id, cell) = piece_id * 1024 + cell``, `move_piece`,
`move_cell`, `PASS_MOVE`), the rule options `HiveOptions`, the alpha-beta searcher `HiveAlphaBeta`. Kernels that work on the flat
state array directly (for batched stepping) are in `hive_envs.hive.engine`.
"""

from hive_envs.hive.batch import HiveBatch
from hive_envs.hive.engine.alphabeta import HiveAlphaBeta
from hive_envs.hive.engine.game import HiveGame
from hive_envs.hive.engine.grid import (
    DIRECTION_NAMES,
    DIRECTIONS,
    GRID_SIZE,
    NUM_CELLS,
    ORIGIN,
    cell_to_qr,
    qr_to_cell,
)
from hive_envs.hive.engine.moves import NUM_MOVE_IDS, PASS_MOVE, move_cell, move_piece, pack_move
from hive_envs.hive.engine.options import EXPANSION_SETS, GAME_TYPES, HiveOptions
from hive_envs.hive.engine.pieces import (
    BLACK,
    NUM_PIECE_SLOTS,
    NUM_PIECES,
    PIECE_IDS,
    PIECE_NAMES,
    SLOT_NAMES,
    WHITE,
)

__all__ = [
    "BLACK",
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "EXPANSION_SETS",
    "GAME_TYPES",
    "GRID_SIZE",
    "NUM_CELLS",
    "NUM_MOVE_IDS",
    "NUM_PIECES",
    "NUM_PIECE_SLOTS",
    "ORIGIN",
    "PASS_MOVE",
    "PIECE_IDS",
    "PIECE_NAMES",
    "SLOT_NAMES",
    "WHITE",
    "HiveAlphaBeta",
    "HiveBatch",
    "HiveGame",
    "HiveOptions",
    "cell_to_qr",
    "move_cell",
    "move_piece",
    "pack_move",
    "qr_to_cell",
]
