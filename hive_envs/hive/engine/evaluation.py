"""Static evaluation of a Hive position for the alpha-beta search (`engine.alphabeta`).

``evaluate(s, w, buffer) -> int``: the score of an unfinished position for the side to move,
``E(mover) - E(opponent)``. A finished game is not scored here (the search scores it as won,
lost or drawn). To know what each side can do, both sides' legal moves are generated with the
engine's own generator (the opponent's as if it were on move, its last-moved restriction lifted),
so mobility, pins (the generator's articulation pass), covered pieces and the freedom-of-movement
gates are all exact. Placements are listed only where one could fill a liberty of the opponent's
Queen (`_side_moves`); the other terms read the movements alone. Each side's ``E`` adds up:

1. **Queen pressure** (the game is won by surrounding the Queen). Each occupied neighbour of the
   side's own Queen costs, by who fills it: an opponent's piece `QUEEN_ENEMY_NEIGHBOUR`; one of
   its own pieces that has no move (pinned, covered, boxed in) `QUEEN_STUCK_NEIGHBOUR`; one of its
   own pieces that can leave `QUEEN_FREE_NEIGHBOUR` (it can make room later). On top,
   `QUEEN_RING_EXTRA[k]` for k occupied neighbours: the last liberties matter most. An opponent's
   Beetle (or Mosquito) on top of the Queen costs `QUEEN_COVERED`: the Queen cannot move and the
   stack counts as the opponent's for placements.
2. **Reachable liberties**: `REACHABLE_LIBERTY` for each empty neighbour of the opponent's Queen
   that the side can fill with one move (a placement, or a move of a piece not already touching
   that Queen): the empty-but-reachable half of Mzinga's and nokamute's Queen terms, and what a
   shallow search needs to bring pieces within range of the last liberties. If the side to move
   can fill the last liberty, it wins next move: `WIN_NEXT_MOVE`; if the other side can, that is
   a threat the side to move must answer: `WIN_THREAT` for the threatening side.
3. **Queen freedom**: `QUEEN_CAN_MOVE` when the side's Queen has a move.
4. **Mobility**: each other piece of the side in play with at least one move earns
   `MOBILE_VALUE[kind]`, plus `PER_MOVE` per destination up to `MOVES_COUNTED` (Ants, Beetles
   and Mosquitoes weigh most, as in both reference engines). A piece without a move (pinned,
   covered, no room, Queen not placed) earns nothing. Unlike nokamute, a piece next to the
   opponent's Queen keeps its mobility worth: with the reachable-liberty term, dropping it made
   stepping into a liberty score below merely threatening to (measured: more turn-cap draws).
5. **Pieces in hand**: `HAND_VALUE[kind]` per piece still in reserve (less than a mobile piece in
   play, so developing pays).
6. **Beetles closing in on the opponent's Queen**: each of the side's Beetles (and a Mosquito on
   a stack) with a move earns `BEETLE_AT_DISTANCE[d]` at hex distance d = 0 (on top of the
   Queen) to 4: a Beetle walks over the hive where gates stop the crawlers, on the Queen it pins
   it and makes its neighbours placeable, and it can drop into a gated last liberty; the gradient
   gives a shallow search a way forward when the hive is locked.

The weights are ours, tuned by matches against the 1-ply greedy player and between depths
(`benchmarks/search_matches.py`). Scale: a mobile Ant with 10+ moves = 14 + 10, an opponent's
piece next to one's Queen = -48.
"""

import numpy as np

from hive_envs.hive.engine.grid import NEIGHBOURS, NUM_CELLS, cell_distance
from hive_envs.hive.engine.jit import inline_kernel, kernel
from hive_envs.hive.engine.movegen import (
    MAX_MOVES,
    ant_step,
    begin_ant_walk,
    begin_movements,
    can_move,
    generate_with_pins,
    piece_movements,
)
from hive_envs.hive.engine.moves import PASS_MOVE, move_cell, move_piece, pack_move
from hive_envs.hive.engine.pieces import (
    ANT,
    BEETLE,
    MOSQUITO,
    NUM_PIECE_SLOTS,
    NUM_PIECES,
    PIECE_KIND,
)
from hive_envs.hive.engine.pins import mark_articulation_cells
from hive_envs.hive.engine.state import HEIGHT, I_KINDS, I_LAST_MOVED, I_PLY, I_TO_MOVE, PCELL, PUNDER, TOP
from hive_envs.hive.engine.workspace import ART, MARK, QUEUE, reserve_stamp

# Weights by kind:             Q   S   B   G   A   M   L   P
MOBILE_VALUE = np.array([0, 6, 12, 8, 14, 14, 10, 8], dtype=np.int32)
HAND_VALUE = np.array([0, 2, 3, 2, 4, 4, 3, 2], dtype=np.int32)
PER_MOVE = 1
MOVES_COUNTED = 10

QUEEN_ENEMY_NEIGHBOUR = 48
QUEEN_STUCK_NEIGHBOUR = 40
QUEEN_FREE_NEIGHBOUR = 20
QUEEN_RING_EXTRA = np.array([0, 0, 0, 8, 24, 60, 0], dtype=np.int32)
QUEEN_COVERED = 60
QUEEN_CAN_MOVE = 20
REACHABLE_LIBERTY = 6
WIN_NEXT_MOVE = 400
WIN_THREAT = 150
BEETLE_AT_DISTANCE = np.array([60, 30, 18, 10, 4], dtype=np.int32)

EVAL_BUFFER_SIZE = MAX_MOVES + NUM_PIECES + NUM_CELLS
"""Length of the int32 scratch ``buffer`` `evaluate` needs (a move list, moves per piece, the direction
map of `_mark_liberties`)."""


@kernel
def _mark_liberties(directions, queen):
    """Write into ``directions`` (one entry per cell, never cleared) the direction of each neighbour of
    ``queen``'s cell, so that `_touching` answers in one lookup instead of a loop over six cells."""
    for d in range(6):
        directions[NEIGHBOURS[queen * 6 + d]] = d


@inline_kernel
def _touching(directions, cell, queen):
    """d with NEIGHBOURS[queen * 6 + d] == cell, or -1; ``directions`` marked for ``queen``. Entries of
    other cells hold whatever was written before (any int), hence the check against NEIGHBOURS."""
    d = directions[cell]
    if 0 <= d < 6 and NEIGHBOURS[queen * 6 + d] == cell:
        return d
    return -1


@kernel
def _count_moves(s, moves, n, colour, per_piece, directions):
    """Destinations of each of ``colour``'s pieces in play into ``per_piece``; returns the bit mask of
    the opponent's Queen's empty neighbours (by direction) that one of the moves fills.
    ``directions`` is marked for that Queen (`_mark_liberties`) when it is in play."""
    enemy_queen = s[PCELL + (1 - colour) * NUM_PIECE_SLOTS]
    reach = 0
    for i in range(n):
        m = moves[i]
        if m == PASS_MOVE:
            continue
        piece = move_piece(m)
        origin = s[PCELL + piece]
        if piece // NUM_PIECE_SLOTS == colour and origin >= 0:
            per_piece[piece] += 1
        if enemy_queen >= 0 and piece // NUM_PIECE_SLOTS == colour:
            d = _touching(directions, move_cell(m), enemy_queen)
            if (
                d >= 0
                and s[HEIGHT + move_cell(m)] == 0
                and (origin < 0 or _touching(directions, origin, enemy_queen) < 0)
            ):
                reach |= 1 << d
    return reach


@kernel
def _side_score(s, colour, per_piece, reach, on_move):
    """``E(colour)`` of the module docstring."""
    lo = colour * NUM_PIECE_SLOTS
    enemy_cell = s[PCELL + (1 - colour) * NUM_PIECE_SLOTS]
    score = 0

    kinds = s[I_KINDS]
    for p in range(lo + 1, lo + NUM_PIECE_SLOTS):  # the Queen's terms are below
        cell = s[PCELL + p]
        kind = PIECE_KIND[p]
        if cell < 0:
            if (kinds >> kind) & 1:  # a slot of a kind this game plays: the piece is in hand
                score += HAND_VALUE[kind]
            continue
        if per_piece[p] == 0:
            continue
        score += MOBILE_VALUE[kind] + PER_MOVE * min(per_piece[p], MOVES_COUNTED)
        if enemy_cell >= 0 and (kind == BEETLE or (kind == MOSQUITO and s[PUNDER + p] >= 0)):
            distance = cell_distance(cell, enemy_cell)
            if distance < BEETLE_AT_DISTANCE.shape[0]:
                score += BEETLE_AT_DISTANCE[distance]

    if enemy_cell >= 0:
        liberties = 0
        for d in range(6):
            if (reach >> d) & 1:
                liberties += 1
        score += REACHABLE_LIBERTY * liberties
        if liberties > 0:
            occupied = 0
            for d in range(6):
                if s[HEIGHT + NEIGHBOURS[enemy_cell * 6 + d]] > 0:
                    occupied += 1
            if occupied == 5:
                score += WIN_NEXT_MOVE if on_move else WIN_THREAT

    qcell = s[PCELL + lo]
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
            elif per_piece[top] > 0:
                score -= QUEEN_FREE_NEIGHBOUR
            else:
                score -= QUEEN_STUCK_NEIGHBOUR
        score -= QUEEN_RING_EXTRA[occupied]
        top = s[TOP + qcell]
        if top != lo and top // NUM_PIECE_SLOTS != colour:
            score -= QUEEN_COVERED
        if per_piece[lo] > 0:
            score += QUEEN_CAN_MOVE
    return score


@inline_kernel
def _enterable(s, cell):
    """Can a ground piece slide into the empty ``cell`` from some empty neighbour (exactly one of the
    two cells beside the step occupied)? A necessary condition for an Ant to reach it."""
    for d in range(6):
        if s[HEIGHT + NEIGHBOURS[cell * 6 + d]] == 0:
            left = s[HEIGHT + NEIGHBOURS[cell * 6 + (d + 5) % 6]] > 0
            right = s[HEIGHT + NEIGHBOURS[cell * 6 + (d + 1) % 6]] > 0
            if left != right:
                return True
    return False


@kernel
def _ant_count(s, w, stamp, piece, a, directions, enemy_queen, wanted):
    """The destinations of the unpinned ground Ant ``piece`` at ``a``, counted as far as `_side_score`
    reads them: the walk (`movegen`'s Ant walk, marking the move ids as the generator does) stops once
    it has found `MOVES_COUNTED` and each liberty of ``wanted`` (bits by direction around
    ``enemy_queen``) that a slide can enter (`_enterable`: most liberties no Ant reaches are gated
    shut). Returns the count (exact below `MOVES_COUNTED`) and the bits of ``wanted`` found.
    An Ant reaches most of the hive's edge, so the exact count and every liberty an Ant can reach
    come from the first Ant's walk; the next ones stop after their first destinations."""
    s[HEIGHT + a] -= 1
    for d in range(6):  # a liberty no slide can enter is never found: do not wait for it
        if (wanted >> d) & 1 and not _enterable(s, NEIGHBOURS[enemy_queen * 6 + d]):
            wanted &= ~(1 << d)
    base = pack_move(piece, 0)
    visit = begin_ant_walk(w, a)
    head, tail, count, found = 0, 1, 0, 0
    while head < tail and (count < MOVES_COUNTED or found != wanted):
        reached = ant_step(s, w, w[QUEUE + head], visit, tail)
        head += 1
        for i in range(tail, reached):
            u = w[QUEUE + i]
            if w[MARK + base + u] != stamp:
                w[MARK + base + u] = stamp
                count += 1
            if wanted:
                d = _touching(directions, u, enemy_queen)
                if d >= 0:
                    found |= (1 << d) & wanted
        tail = reached
    s[HEIGHT + a] += 1
    return count, found


@kernel
def _side_reach(s, w, out, colour, pins, per_piece, directions):
    """Each of ``colour``'s pieces' moves (``colour`` on move in ``s``) into ``per_piece``; returns the
    bit mask of the opponent's Queen's empty neighbours one of them fills (`_count_moves`).

    Placements only count towards the liberties reached, and a placement can touch the opponent's
    Queen only when one of ``colour``'s pieces covers it (a placement touches no opponent's top
    piece) or on the first two plies (placed around the first piece): then the whole move list.
    Else movements only, piece by piece (`movegen.piece_movements`), each counted at once, and the
    unpinned ground Ants walked only as far as the score needs (`_ant_count`): the Ants' walks were
    half of the evaluation's time. ``pins``: the stamp of the board's pinned cells."""
    enemy_queen = s[PCELL + (1 - colour) * NUM_PIECE_SLOTS]
    if enemy_queen >= 0:
        _mark_liberties(directions, enemy_queen)
    if s[I_PLY] < 2 or (enemy_queen >= 0 and s[TOP + enemy_queen] // NUM_PIECE_SLOTS == colour):
        n = generate_with_pins(s, w, out, True, pins)
        return _count_moves(s, out, n, colour, per_piece, directions)
    lo = colour * NUM_PIECE_SLOTS
    if s[PCELL + lo] < 0:
        return 0  # no movement before one's Queen is in play
    empty_liberties = 0
    if enemy_queen >= 0:
        for d in range(6):
            if s[HEIGHT + NEIGHBOURS[enemy_queen * 6 + d]] == 0:
                empty_liberties |= 1 << d
    stamp = begin_movements(w)
    last_moved = s[I_LAST_MOVED]
    reach = 0
    for piece in range(lo, lo + NUM_PIECE_SLOTS):
        if not can_move(s, piece, last_moved):
            continue
        a = s[PCELL + piece]
        if PIECE_KIND[piece] == ANT and s[PUNDER + piece] < 0:
            if w[ART + a] != pins:
                touches_queen = enemy_queen >= 0 and _touching(directions, a, enemy_queen) >= 0
                wanted = 0 if touches_queen else empty_liberties & ~reach
                count, found = _ant_count(s, w, stamp, piece, a, directions, enemy_queen, wanted)
                per_piece[piece] += count
                reach |= found
        else:
            n = piece_movements(s, w, out, 0, stamp, piece, last_moved, pins)
            reach |= _count_moves(s, out, n, colour, per_piece, directions)
    return reach


@kernel
def evaluate(s, w, buffer):
    """Score of the unfinished position ``s`` for the side to move; ``w`` and ``buffer``
    (int32[EVAL_BUFFER_SIZE]) are scratch. ``s`` is restored before returning. The pinned cells are
    marked once for both sides' generations (a sixth of the evaluation's time went into marking them
    twice)."""
    me = s[I_TO_MOVE]
    moves = buffer[:MAX_MOVES]
    per_piece = buffer[MAX_MOVES : MAX_MOVES + NUM_PIECES]
    directions = buffer[MAX_MOVES + NUM_PIECES :]
    per_piece[:] = 0
    pins = reserve_stamp(w)  # one articulation pass for both sides' moves: the board is the same
    mark_articulation_cells(s, w, pins)
    reach_own = _side_reach(s, w, moves, me, pins, per_piece, directions)
    last_moved = s[I_LAST_MOVED]
    s[I_TO_MOVE] = 1 - me
    s[I_LAST_MOVED] = -1
    reach_other = _side_reach(s, w, moves, 1 - me, pins, per_piece, directions)
    s[I_TO_MOVE] = me
    s[I_LAST_MOVED] = last_moved
    return _side_score(s, me, per_piece, reach_own, True) - _side_score(
        s, 1 - me, per_piece, reach_other, False
    )
