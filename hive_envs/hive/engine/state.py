"""The flat int32 state array of a Hive position, and the primitives that move pieces in it.

Layout (``S`` is a 1-D int32 array of length ``STATE_SIZE``)::

    offset            length  contents
    TOP      = 0      1024    top piece id of each cell, -1 if the cell is empty
    HEIGHT   = 1024   1024    number of pieces stacked on each cell (0 = empty)
    PCELL    = 2048   28      cell of each piece, -1 while it is in the reserve
    PUNDER   = 2076   28      piece directly beneath each piece, -1 if on the ground / in reserve
    I_PLY    = 2104   1       plies played (passes included)
    I_TO_MOVE         1       0 White, 1 Black
    I_LAST_MOVED      1       piece moved or placed on the previous ply, -1 (start, after a pass)
    I_PASSES          1       passes in a row just played
    I_STATUS          1       STATUS_IN_PROGRESS / WHITE_WINS / BLACK_WINS / DRAW
    I_KINDS           1       bit mask of the bug kinds in this game type (1 << kind)
    I_TOURNAMENT      1       1 if the tournament opening rule is on
    I_MAX_TURNS       1       ply cap (a draw when reached); 0 means no cap

A stack is a linked list: ``TOP[cell]`` is its top piece, ``PUNDER[p]`` the piece beneath ``p``.
Everything the rules need is in this array; moves are applied and undone in place (no copies).
"""

import numpy as np

from hive_envs.hive.engine.grid import NUM_CELLS
from hive_envs.hive.engine.jit import inline_kernel
from hive_envs.hive.engine.pieces import NUM_PIECES

TOP = 0
HEIGHT = TOP + NUM_CELLS
PCELL = HEIGHT + NUM_CELLS
PUNDER = PCELL + NUM_PIECES
I_PLY = PUNDER + NUM_PIECES
I_TO_MOVE = I_PLY + 1
I_LAST_MOVED = I_PLY + 2
I_PASSES = I_PLY + 3
I_STATUS = I_PLY + 4
I_KINDS = I_PLY + 5
I_TOURNAMENT = I_PLY + 6
I_MAX_TURNS = I_PLY + 7
STATE_SIZE = I_PLY + 8

STATUS_IN_PROGRESS, STATUS_WHITE_WINS, STATUS_BLACK_WINS, STATUS_DRAW = 0, 1, 2, 3
STATUS_NAMES = ("InProgress", "WhiteWins", "BlackWins", "Draw")


def new_state(kinds_mask: int, tournament_opening: bool, max_turns: int) -> np.ndarray:
    """The empty start position."""
    s = np.zeros(STATE_SIZE, dtype=np.int32)
    s[TOP : TOP + NUM_CELLS] = -1
    s[PCELL : PCELL + NUM_PIECES] = -1
    s[PUNDER : PUNDER + NUM_PIECES] = -1
    s[I_LAST_MOVED] = -1
    s[I_KINDS] = kinds_mask
    s[I_TOURNAMENT] = int(bool(tournament_opening))
    s[I_MAX_TURNS] = max_turns
    return s


@inline_kernel
def put_piece(s, piece, cell):
    """Put ``piece`` on top of ``cell`` (empty or not)."""
    s[PUNDER + piece] = s[TOP + cell]
    s[TOP + cell] = piece
    s[HEIGHT + cell] += 1
    s[PCELL + piece] = cell


@inline_kernel
def lift_piece(s, piece):
    """Take ``piece`` (the top of its stack) off the board; it keeps no cell."""
    cell = s[PCELL + piece]
    s[TOP + cell] = s[PUNDER + piece]
    s[HEIGHT + cell] -= 1
    s[PUNDER + piece] = -1
    s[PCELL + piece] = -1
