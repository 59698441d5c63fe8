"""Static evaluation of a Hive position for the alpha-beta search (`engine.alphabeta`).

``evaluate(s, w)`` returns an int score for the side to move: ``E(mover) - E(opponent)``, where
each side's ``E`` adds up the terms below (weights in the arrays/constants of this module; a
surrounded Queen is not scored here: the search scores finished games itself).

1. **Queen pressure** (the game is won by surrounding the Queen). Each occupied neighbour of a
   side's own Queen costs it, by who fills it:
   an opponent's piece `QUEEN_ENEMY_NEIGHBOUR`; one of its own pieces that cannot move away
   (pinned, covered, or a crawler with no room) `QUEEN_STUCK_NEIGHBOUR`; one of its own pieces
   that can leave `QUEEN_FREE_NEIGHBOUR` (it can make room later, so it costs less).
   `QUEEN_RING_EXTRA[k]` is added on top for k occupied neighbours: the last liberties are worth
   more than the first. An opponent's Beetle (or Mosquito) on top of the Queen costs
   `QUEEN_COVERED`: the Queen cannot move and the stack counts as the opponent's for placements.
2. **Queen freedom**: `QUEEN_CAN_MOVE` when the side's Queen is on the ground, uncovered, not
   pinned and has a slide (it can step out of a closing ring).
3. **Mobility of the other pieces**: each piece in play that can move earns `MOBILE_VALUE[kind]`
   (Ants, Beetles and Mosquitoes most, as both Mzinga's and nokamute's weights agree). A piece
   cannot move when its Queen is not placed yet, when it is covered, when its cell is an
   articulation point of the hive (pinned: `pins.mark_articulation_cells`, the generator's own
   pass) unless it sits on a stack, or when it is a crawler (Queen, Spider, Ant, Pillbug) on the
   ground without a single legal slide. A ground Mosquito is worth the best kind it can copy from
   its neighbours (nothing next to Mosquitoes only). Pieces next to the opponent's Queen earn no
   mobility (nokamute's rule): there they are already doing their job and moving them away
   would only release the Queen.
4. **Pieces in hand**: `HAND_VALUE[kind]` per piece of the game type still in reserve (options
   for later; smaller than a mobile piece in play, so developing a piece pays).
5. **Beetles at the opponent's Queen**: a side's movable Beetle (or Mosquito on a stack) next to
   the opponent's Queen earns `BEETLE_NEXT_TO_QUEEN`, one on top of it `BEETLE_ON_QUEEN` (the best
   one counts once): such a Beetle can climb on the Queen, pinning it, or fill a gated liberty.

The weights are our own, tuned by matches against the 1-ply greedy player and between depths
(see `benchmarks/search_matches.py`); their scale: one mobile Ant = 14, one Queen liberty taken by
the opponent = 48.
"""

import numpy as np
from numba import njit

from hive_envs.hive.engine.grid import NEIGHBOURS
from hive_envs.hive.engine.movegen import _mosquito_kinds, _slide_dirs
from hive_envs.hive.engine.pieces import (
    BEETLE,
    KIND_COUNT,
    KIND_FIRST_SLOT,
    MOSQUITO,
    NUM_PIECE_SLOTS,
    NUM_PIECES,
    PIECE_KIND,
)
from hive_envs.hive.engine.pins import mark_articulation_cells
from hive_envs.hive.engine.state import HEIGHT, I_KINDS, I_TO_MOVE, PCELL, PUNDER, TOP
from hive_envs.hive.engine.workspace import ART, W_COUNT, W_STAMP, refresh

# Weights by kind:             Q   S   B   G   A   M   L   P
MOBILE_VALUE = np.array([0, 6, 12, 8, 14, 14, 10, 8], dtype=np.int32)
HAND_VALUE = np.array([0, 2, 3, 2, 4, 4, 3, 2], dtype=np.int32)
CRAWLERS = (1 << 0) | (1 << 1) | (1 << 4) | (1 << 7)  # kinds that only slide: Q, S, A, P

QUEEN_ENEMY_NEIGHBOUR = 48
QUEEN_STUCK_NEIGHBOUR = 40
QUEEN_FREE_NEIGHBOUR = 20
QUEEN_RING_EXTRA = np.array([0, 0, 0, 8, 24, 60, 0], dtype=np.int32)
QUEEN_COVERED = 60
QUEEN_CAN_MOVE = 20
BEETLE_NEXT_TO_QUEEN = 15
BEETLE_ON_QUEEN = 30


@njit(cache=True)
def _mobile_value(s, w, stamp, piece, cell):
    """Mobility worth of ``piece`` (the top of ``cell``, its Queen in play); 0 if it cannot move."""
    on_stack = s[PUNDER + piece] >= 0
    if on_stack:
        return MOBILE_VALUE[BEETLE]
    if w[ART + cell] == stamp:
        return 0
    kind = PIECE_KIND[piece]
    if kind == MOSQUITO:
        copied = _mosquito_kinds(s, cell)
        best = 0
        can_slide = _slide_dirs(s, cell) != 0
        for k in range(8):
            if (copied >> k) & 1 and (can_slide or not (CRAWLERS >> k) & 1):
                best = max(best, MOBILE_VALUE[k])
        return best
    if (CRAWLERS >> kind) & 1 and _slide_dirs(s, cell) == 0:
        return 0
    return MOBILE_VALUE[kind]


@njit(cache=True)
def _side_score(s, w, stamp, colour, mobile):
    """``E(colour)`` of the module docstring, given the mobility worth of every piece."""
    lo = colour * NUM_PIECE_SLOTS
    queen = lo
    enemy_queen = (1 - colour) * NUM_PIECE_SLOTS
    enemy_cell = s[PCELL + enemy_queen]
    score = 0

    # Pieces in hand (only kinds of this game type).
    kinds = s[I_KINDS]
    for kind in range(8):
        if (kinds >> kind) & 1:
            first = lo + KIND_FIRST_SLOT[kind]
            for p in range(first, first + KIND_COUNT[kind]):
                if s[PCELL + p] < 0:
                    score += HAND_VALUE[kind]

    # Mobility, and Beetles at the opponent's Queen.
    beetle = 0
    for p in range(lo + 1, lo + NUM_PIECE_SLOTS):
        cell = s[PCELL + p]
        if cell < 0 or mobile[p] == 0:
            continue
        near_enemy_queen = False
        if enemy_cell >= 0:
            for d in range(6):
                if NEIGHBOURS[enemy_cell * 6 + d] == cell:
                    near_enemy_queen = True
        if not near_enemy_queen:
            score += mobile[p]
        kind = PIECE_KIND[p]
        if enemy_cell >= 0 and (kind == BEETLE or (kind == MOSQUITO and s[PUNDER + p] >= 0)):
            if cell == enemy_cell:
                beetle = max(beetle, BEETLE_ON_QUEEN)
            elif near_enemy_queen:
                beetle = max(beetle, BEETLE_NEXT_TO_QUEEN)
    score += beetle

    # Own Queen: pressure and freedom.
    qcell = s[PCELL + queen]
    if qcell >= 0:
        occupied = 0
        for d in range(6):
            nb = NEIGHBOURS[qcell * 6 + d]
            if s[HEIGHT + nb] == 0:
                continue
            occupied += 1
            top = s[TOP + nb]
            if top // NUM_PIECE_SLOTS != colour:
                score -= QUEEN_ENEMY_NEIGHBOUR
            elif mobile[top] > 0:
                score -= QUEEN_FREE_NEIGHBOUR
            else:
                score -= QUEEN_STUCK_NEIGHBOUR
        score -= QUEEN_RING_EXTRA[occupied]
        top = s[TOP + qcell]
        if top != queen and top // NUM_PIECE_SLOTS != colour:
            score -= QUEEN_COVERED
        if mobile[queen] > 0:
            score += QUEEN_CAN_MOVE
    return score


@njit(cache=True)
def evaluate(s, w):
    """Score of the (unfinished) position ``s`` for the side to move; ``w`` is scratch."""
    refresh(w)
    stamp = w[W_STAMP] + 1
    w[W_STAMP] = stamp
    w[W_COUNT] = -1  # the generator's marks no longer describe a move list
    mark_articulation_cells(s, w, stamp)
    mobile = np.zeros(NUM_PIECES, dtype=np.int32)
    for colour in range(2):
        lo = colour * NUM_PIECE_SLOTS
        if s[PCELL + lo] < 0:  # no piece moves before its Queen is placed
            continue
        for p in range(lo, lo + NUM_PIECE_SLOTS):
            cell = s[PCELL + p]
            if cell >= 0 and s[TOP + cell] == p:
                if p == lo:
                    mobile[p] = (
                        1 if s[PUNDER + p] < 0 and w[ART + cell] != stamp and _slide_dirs(s, cell) != 0 else 0
                    )
                else:
                    mobile[p] = _mobile_value(s, w, stamp, p, cell)
    me = s[I_TO_MOVE]
    return _side_score(s, w, stamp, me, mobile) - _side_score(s, w, stamp, 1 - me, mobile)
