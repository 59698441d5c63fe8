"""Applying and undoing moves, and the end of the game.

Integer moves: ``move_id = pack_move(piece_id, destination_cell)`` (`hive_envs.hive.engine.moves`;
a placement if the piece is in the reserve, a movement or Pillbug throw otherwise) and
``PASS_MOVE``. A move id names a distinct (piece, destination) pair, which is exactly UHP's notion
of a distinct move.

``apply_move`` writes what ``undo_move`` needs into a small int32 record of ``UNDO_SIZE``:
(move, origin cell or -1, previous last-moved piece, previous passes-in-a-row, previous status).

End of the game (checked after every ply, in this order): a surrounded Queen loses, both
surrounded at once is a draw; two passes in a row is a draw; reaching ``max_turns`` plies is a
draw (0 = no cap).
"""

from hive_envs.hive.engine.grid import NEIGHBOURS
from hive_envs.hive.engine.jit import inline_kernel, kernel
from hive_envs.hive.engine.moves import NUM_MOVE_IDS, PASS_MOVE, move_cell, move_piece
from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS
from hive_envs.hive.engine.state import (
    HEIGHT,
    I_LAST_MOVED,
    I_MAX_TURNS,
    I_PASSES,
    I_PLY,
    I_STATUS,
    I_TO_MOVE,
    PCELL,
    STATUS_BLACK_WINS,
    STATUS_DRAW,
    STATUS_IN_PROGRESS,
    STATUS_WHITE_WINS,
    lift_piece,
    put_piece,
)

UNDO_SIZE = 5


@inline_kernel
def queen_neighbours(s, colour):
    """Occupied cells around ``colour``'s Queen (0 if the Queen is not in play)."""
    cell = s[PCELL + colour * NUM_PIECE_SLOTS]
    if cell < 0:
        return 0
    count = 0
    for d in range(6):
        if s[HEIGHT + NEIGHBOURS[cell * 6 + d]] > 0:
            count += 1
    return count


@inline_kernel
def _status_after_ply(s):
    white_lost = queen_neighbours(s, 0) == 6
    black_lost = queen_neighbours(s, 1) == 6
    if white_lost and black_lost:
        return STATUS_DRAW
    if white_lost:
        return STATUS_BLACK_WINS
    if black_lost:
        return STATUS_WHITE_WINS
    if s[I_PASSES] >= 2:
        return STATUS_DRAW
    if s[I_MAX_TURNS] > 0 and s[I_PLY] >= s[I_MAX_TURNS]:
        return STATUS_DRAW
    return STATUS_IN_PROGRESS


@kernel
def apply_move(s, move, rec):
    """Play ``move`` (assumed legal) in place; fill ``rec`` for `undo_move`."""
    rec[0] = move
    rec[2] = s[I_LAST_MOVED]
    rec[3] = s[I_PASSES]
    rec[4] = s[I_STATUS]
    if move == PASS_MOVE:
        rec[1] = -1
        s[I_PASSES] += 1
        s[I_LAST_MOVED] = -1
    else:
        piece = move_piece(move)
        origin = s[PCELL + piece]
        rec[1] = origin
        if origin >= 0:
            lift_piece(s, piece)
        put_piece(s, piece, move_cell(move))
        s[I_PASSES] = 0
        s[I_LAST_MOVED] = piece
    s[I_PLY] += 1
    s[I_TO_MOVE] ^= 1
    s[I_STATUS] = _status_after_ply(s)


@kernel
def undo_move(s, rec):
    """Take back the move recorded in ``rec`` by `apply_move`."""
    move = rec[0]
    if move != PASS_MOVE:
        piece = move_piece(move)
        lift_piece(s, piece)
        if rec[1] >= 0:
            put_piece(s, piece, rec[1])
    s[I_LAST_MOVED] = rec[2]
    s[I_PASSES] = rec[3]
    s[I_STATUS] = rec[4]
    s[I_PLY] -= 1
    s[I_TO_MOVE] ^= 1


@kernel
def apply_if_listed(s, w_marks, stamp, move, history, ply):
    """Apply ``move`` if the last move generation listed it (``w_marks[move] == stamp``).

    ``history[ply]`` receives the undo record. Returns False (state untouched) when the game is
    over or the move was not listed. One compiled call for the checked integer path of `HiveGame`.
    """
    if s[I_STATUS] != STATUS_IN_PROGRESS or move < 0 or move >= NUM_MOVE_IDS or w_marks[move] != stamp:
        return False
    apply_move(s, move, history[ply])
    return True
