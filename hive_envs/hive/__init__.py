"""Hive rules engine (numba kernels), UHP notation and the `HiveGame` API.

Public names: `HiveGame`, `GAME_TYPES`, piece numbering (`PIECE_NAMES`, `NUM_PIECE_SLOTS`, ...),
the torus grid helpers (`GRID_SIZE`, `cell_to_qr`, `qr_to_cell`, `DIRECTIONS`) and the integer
move encoding (``move_id = pack_move(piece_id, cell) = piece_id * 1024 + cell``, `move_piece`,
`move_cell`, `PASS_MOVE`), the rule options `HiveOptions`, the alpha-beta searcher `HiveAlphaBeta`. Kernels that work on the flat
state array directly (for batched stepping) are in `hive_envs.hive.engine`.

The names are imported on first use (PEP 562), so that importing a module of this package (such
as `hive_envs.hive.definition`, which `import hive_envs` reads) loads no engine or numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hive_envs.core.lazy import lazy_names

if TYPE_CHECKING:
    from hive_envs.hive.batch import HiveBatch as HiveBatch
    from hive_envs.hive.engine.game import HiveGame as HiveGame
    from hive_envs.hive.engine.grid import DIRECTION_NAMES as DIRECTION_NAMES
    from hive_envs.hive.engine.grid import DIRECTIONS as DIRECTIONS
    from hive_envs.hive.engine.grid import GRID_SIZE as GRID_SIZE
    from hive_envs.hive.engine.grid import NUM_CELLS as NUM_CELLS
    from hive_envs.hive.engine.grid import ORIGIN as ORIGIN
    from hive_envs.hive.engine.grid import cell_to_qr as cell_to_qr
    from hive_envs.hive.engine.grid import qr_to_cell as qr_to_cell
    from hive_envs.hive.engine.moves import NUM_MOVE_IDS as NUM_MOVE_IDS
    from hive_envs.hive.engine.moves import PASS_MOVE as PASS_MOVE
    from hive_envs.hive.engine.moves import move_cell as move_cell
    from hive_envs.hive.engine.moves import move_piece as move_piece
    from hive_envs.hive.engine.moves import pack_move as pack_move
    from hive_envs.hive.engine.options import EXPANSION_SETS as EXPANSION_SETS
    from hive_envs.hive.engine.options import GAME_TYPES as GAME_TYPES
    from hive_envs.hive.engine.options import HiveOptions as HiveOptions
    from hive_envs.hive.engine.pieces import BLACK as BLACK
    from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS as NUM_PIECE_SLOTS
    from hive_envs.hive.engine.pieces import NUM_PIECES as NUM_PIECES
    from hive_envs.hive.engine.pieces import PIECE_IDS as PIECE_IDS
    from hive_envs.hive.engine.pieces import PIECE_NAMES as PIECE_NAMES
    from hive_envs.hive.engine.pieces import SLOT_NAMES as SLOT_NAMES
    from hive_envs.hive.engine.pieces import WHITE as WHITE
    from hive_envs.hive.search.alphabeta import HiveAlphaBeta as HiveAlphaBeta


__getattr__, __dir__, __all__ = lazy_names(__name__, __file__)
