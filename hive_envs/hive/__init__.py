"""Hive rules engine (numba kernels), UHP notation and the `HiveGame` API.

Public names: `HiveGame`, `GAME_TYPES`, piece numbering (`PIECE_NAMES`, `NUM_PIECE_SLOTS`, ...),
the torus grid helpers (`GRID_SIZE`, `cell_to_qr`, `qr_to_cell`, `DIRECTIONS`) and the integer
move encoding (``move_id = piece_id * 1024 + cell``, `PASS_MOVE`). Kernels that work on the flat
state array directly (for batched stepping) are in `hive_envs.hive.engine`.
"""

from hive_envs.hive.batch import HiveBatch
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
from hive_envs.hive.engine.rules import NUM_MOVE_IDS, PASS_MOVE

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
    "HiveBatch",
    "HiveGame",
    "HiveOptions",
    "cell_to_qr",
    "qr_to_cell",
]
