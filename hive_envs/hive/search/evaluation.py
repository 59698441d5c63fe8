"""Static evaluation of a Hive position for the alpha-beta search (`search.alphabeta`).

``evaluate(s, w, buffer, weights) -> int``: the score of an unfinished position for the side to
move, the dot product of ``weights`` with the position's terms (`evaluation_terms`), each term the
mover's count minus the opponent's. A finished game is not scored here (the search scores it as won,
lost or drawn). Two weight vectors are in use: `SEARCH_WEIGHTS` (the search's) and `RULE_WEIGHTS`
(the hand-set ones, which the rule features read and the shipped networks were trained on).

To know what each side can do, both sides' legal moves are generated with the engine's own
generator (the opponent's as if it were on move, its last-moved restriction lifted), so mobility,
pins (the generator's articulation pass), covered pieces and the freedom-of-movement gates are all
exact. Placements are listed only where one could fill a liberty of the opponent's Queen
(`_side_reach`); the other terms read the movements alone. The terms (`TERM_NAMES`), per side:

1. **Queen pressure** (the game is won by surrounding the Queen): the occupied neighbours of the
   side's own Queen, by who fills them: an opponent's piece (``queen_enemy_neighbour``), one of its
   own pieces that has no move, pinned, covered or boxed in (``queen_stuck_neighbour``), one of its
   own that can leave and make room later (``queen_free_neighbour``); ``queen_ring_3/4/5``: 1 when
   the Queen has 3, 4 or 5 occupied neighbours (the last liberties matter most);
   ``queen_covered``: an opponent's Beetle (or Mosquito) on top of it (the Queen cannot move and
   the stack counts as the opponent's for placements).
2. **Reachable liberties** (``reachable_liberty``): the empty neighbours of the opponent's Queen
   that the side can fill with one move (a placement, or a move of a piece not already touching
   that Queen): the empty-but-reachable half of Mzinga's and nokamute's Queen terms, and what a
   shallow search needs to bring pieces within range. When one is the last liberty: the side to
   move wins next move (``win_next_move``), the other side threatens to (``win_threat``).
3. **Queen freedom** (``queen_can_move``): the side's Queen has a move.
4. **Mobility**: each other piece in play with at least one move (``mobile_S`` ... ``mobile_P``
   by kind), and its destinations up to `MOVES_COUNTED` (``destinations``). A piece without a move
   (pinned, covered, no room, Queen not placed) counts nothing. Unlike nokamute, a piece next to
   the opponent's Queen keeps its mobility: with the reachable-liberty term, dropping it made
   stepping into a liberty score below merely threatening to (measured: more turn-cap draws).
5. **Pieces in hand** (``hand_Q`` ... ``hand_P``): pieces still in reserve, of the kinds the game
   plays.
6. **Beetles closing in on the opponent's Queen** (``beetle_at_0`` ... ``beetle_at_4``): each of
   the side's Beetles (and a Mosquito on a stack) with a move, by hex distance to that Queen (0: on
   top of it). A Beetle walks over the hive where gates stop the crawlers, on the Queen it pins it
   and makes its neighbours placeable, and it can drop into a gated last liberty; the gradient
   gives a shallow search a way forward when the hive is locked.
7. ``to_move``: 1 (the side to move's advantage, a constant of every position).

**Listed or guessed moves.** `evaluate` lists every piece's moves (above); `quick_evaluate`, the
search's evaluation (`search.negamax`, feature ``guessed_mobility``), guesses them from the pins pass
alone (`_guessed_side_reach`: open slides, lines of pieces, a Beetle's climb) for half the cost, with
the same terms and weights: the Queen and Grasshopper counts are exact, an Ant counts `MOVES_COUNTED`
when it has a move, Spiders, Ladybugs and Mosquitoes a fixed number, and the reachable liberties are
those of the pieces whose reach is local plus every one an Ant could enter. At equal depth the search
plays as well with either and searches more nodes per second with the guess (docs/alphabeta.md,
"Guessed mobility"). The rule features (`hive_envs.hive.rule_features`) and the tuning tool
keep `evaluate`: the shipped networks were trained on its values.

`RULE_WEIGHTS` were set by hand, by matches against the 1-ply greedy player and between depths
(scale: an opponent's piece next to one's Queen = -48, a mobile Ant with 10+ moves = 14 + 10).
`SEARCH_WEIGHTS` are fitted to game outcomes (`tools/tune_hive_evaluation.py`) and kept only where
they won games (docs/alphabeta.md, "The Hive evaluation").
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
    grasshopper_landing,
    piece_movements,
    slide_directions,
)
from hive_envs.hive.engine.moves import PASS_MOVE, move_cell, move_piece, pack_move
from hive_envs.hive.engine.pieces import (
    ANT,
    BEETLE,
    GRASSHOPPER,
    MOSQUITO,
    NUM_PIECE_SLOTS,
    NUM_PIECES,
    PIECE_KIND,
    PILLBUG,
    QUEEN,
    SPIDER,
)
from hive_envs.hive.engine.pins import mark_articulation_cells
from hive_envs.hive.engine.state import HEIGHT, I_KINDS, I_LAST_MOVED, I_PLY, I_TO_MOVE, PCELL, PUNDER, TOP
from hive_envs.hive.engine.workspace import ART, MARK, QUEUE, reserve_stamp

# The terms, each counted as the mover's minus the opponent's (`evaluation_terms`); the score is their
# dot product with a weight vector (`evaluate`). Kinds in the order of `pieces`: Q S B G A M L P.
KIND_NAMES = ("Q", "S", "B", "G", "A", "M", "L", "P")
MOBILE_KINDS = KIND_NAMES[1:]  # the Queen's own mobility is `queen_can_move`
TERM_NAMES = (
    "queen_enemy_neighbour",
    "queen_stuck_neighbour",
    "queen_free_neighbour",
    "queen_ring_3",
    "queen_ring_4",
    "queen_ring_5",
    "queen_covered",
    "queen_can_move",
    "reachable_liberty",
    "win_next_move",
    "win_threat",
    *(f"mobile_{kind}" for kind in MOBILE_KINDS),
    "destinations",
    *(f"hand_{kind}" for kind in KIND_NAMES),
    *(f"beetle_at_{distance}" for distance in range(5)),
    "to_move",
)
NUM_TERMS = len(TERM_NAMES)
T_ENEMY, T_STUCK, T_FREE, T_RING = 0, 1, 2, 3  # T_RING + k - 3 for k = 3, 4, 5 occupied neighbours
T_COVERED, T_QUEEN_MOVES, T_REACHABLE, T_WIN_NEXT, T_WIN_THREAT = 6, 7, 8, 9, 10
T_MOBILE = 11 - 1  # T_MOBILE + kind, kind = 1 (Spider) .. 7 (Pillbug)
T_DESTINATIONS = 18
T_HAND = 19  # T_HAND + kind
T_BEETLE = 27  # T_BEETLE + distance, distance 0..4
T_TO_MOVE = 32
BEETLE_DISTANCES = 5
MOVES_COUNTED = 10


def weight_vector(values: dict[str, int]) -> np.ndarray:
    """An int32 weight vector from ``{term name: weight}`` (terms not named weigh 0)."""
    unknown = set(values) - set(TERM_NAMES)
    if unknown:
        raise ValueError(f"unknown evaluation terms: {sorted(unknown)}")
    return np.array([values.get(name, 0) for name in TERM_NAMES], dtype=np.int32)


RULE_WEIGHTS = weight_vector(
    {
        "queen_enemy_neighbour": -48,
        "queen_stuck_neighbour": -40,
        "queen_free_neighbour": -20,
        "queen_ring_3": -8,
        "queen_ring_4": -24,
        "queen_ring_5": -60,
        "queen_covered": -60,
        "queen_can_move": 20,
        "reachable_liberty": 6,
        "win_next_move": 400,
        "win_threat": 150,
        **dict(zip((f"mobile_{k}" for k in MOBILE_KINDS), (6, 12, 8, 14, 14, 10, 8))),
        "destinations": 1,
        **dict(zip((f"hand_{k}" for k in KIND_NAMES), (0, 2, 3, 2, 4, 4, 3, 2))),
        **dict(zip((f"beetle_at_{d}" for d in range(BEETLE_DISTANCES)), (60, 30, 18, 10, 4))),
    }
)
"""The weights set by hand against greedy and between depths (docs/alphabeta.md): the evaluation the
rule features read (`hive_envs.hive.rule_features`, feature set 2), frozen with the networks trained
on it."""

SEARCH_WEIGHTS = RULE_WEIGHTS.copy()
"""The weights `HiveAlphaBeta` searches with by default."""

EVAL_BUFFER_SIZE = MAX_MOVES + NUM_PIECES + NUM_CELLS + NUM_TERMS
"""Length of the int32 scratch ``buffer`` `evaluate` needs (a move list, moves per piece, the direction
map of `_mark_liberties`, the terms)."""
PER_PIECE = MAX_MOVES
"""Where `evaluation_terms` and `guessed_evaluation_terms` leave each piece's counted (or guessed)
destinations in their ``buffer`` (`NUM_PIECES` entries; 0 for a piece without a move): the learned
evaluation's features read them (`hive_envs.hive.search.eval_features`)."""


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
def _add_side_terms(s, colour, per_piece, reach, on_move, terms, sign):
    """Add ``sign`` times ``colour``'s counts of each term (the module docstring) to ``terms``."""
    lo = colour * NUM_PIECE_SLOTS
    enemy_cell = s[PCELL + (1 - colour) * NUM_PIECE_SLOTS]

    kinds = s[I_KINDS]
    for p in range(lo + 1, lo + NUM_PIECE_SLOTS):  # the Queen's terms are below
        cell = s[PCELL + p]
        kind = PIECE_KIND[p]
        if cell < 0:
            if (kinds >> kind) & 1:  # a slot of a kind this game plays: the piece is in hand
                terms[T_HAND + kind] += sign
            continue
        if per_piece[p] == 0:
            continue
        terms[T_MOBILE + kind] += sign
        terms[T_DESTINATIONS] += sign * min(per_piece[p], MOVES_COUNTED)
        if enemy_cell >= 0 and (kind == BEETLE or (kind == MOSQUITO and s[PUNDER + p] >= 0)):
            distance = cell_distance(cell, enemy_cell)
            if distance < BEETLE_DISTANCES:
                terms[T_BEETLE + distance] += sign

    if enemy_cell >= 0:
        liberties = 0
        for d in range(6):
            if (reach >> d) & 1:
                liberties += 1
        terms[T_REACHABLE] += sign * liberties
        if liberties > 0:
            occupied = 0
            for d in range(6):
                if s[HEIGHT + NEIGHBOURS[enemy_cell * 6 + d]] > 0:
                    occupied += 1
            if occupied == 5:
                terms[T_WIN_NEXT if on_move else T_WIN_THREAT] += sign

    qcell = s[PCELL + lo]
    if qcell < 0:
        terms[T_HAND] += sign
    else:
        occupied = 0
        for d in range(6):
            nb = NEIGHBOURS[qcell * 6 + d]
            if s[HEIGHT + nb] == 0:
                continue
            occupied += 1
            top = s[TOP + nb]
            if top // NUM_PIECE_SLOTS != colour:
                terms[T_ENEMY] += sign
            elif per_piece[top] > 0:
                terms[T_FREE] += sign
            else:
                terms[T_STUCK] += sign
        if 3 <= occupied <= 5:
            terms[T_RING + occupied - 3] += sign
        top = s[TOP + qcell]
        if top != lo and top // NUM_PIECE_SLOTS != colour:
            terms[T_COVERED] += sign
        if per_piece[lo] > 0:
            terms[T_QUEEN_MOVES] += sign


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
    """The destinations of the unpinned ground Ant ``piece`` at ``a``, counted as far as `_add_side_terms`
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


@inline_kernel
def _liberties_next_to(s, a, steps, directions, enemy_queen):
    """Bits (by direction around ``enemy_queen``) of its empty neighbours among the neighbours of ``a``
    in the directions of the mask ``steps``."""
    reach = 0
    for d in range(6):
        if (steps >> d) & 1:
            c = NEIGHBOURS[a * 6 + d]
            liberty = _touching(directions, c, enemy_queen)
            if liberty >= 0 and s[HEIGHT + c] == 0:
                reach |= 1 << liberty
    return reach


@inline_kernel
def _jump_liberties(s, a, directions, enemy_queen):
    """Bits of ``enemy_queen``'s empty neighbours a Grasshopper at ``a`` lands on (one per line of
    pieces it can jump along)."""
    reach = 0
    for d in range(6):
        b = grasshopper_landing(s, a, d)
        if b >= 0:
            liberty = _touching(directions, b, enemy_queen)
            if liberty >= 0:
                reach |= 1 << liberty
    return reach


ALL_DIRECTIONS = 0b111111
GUESSED_DESTINATIONS = np.array([0, 2, 4, 0, MOVES_COUNTED, 3, 3, 0], dtype=np.int64)
"""`_guessed_side_reach`'s destinations of an unpinned ground piece with a way out, by kind (Queen and
Pillbug: their open slides; Grasshopper: its lines of pieces; Beetle: 4 whether or not it slides)."""


@kernel
def _guessed_side_reach(s, w, colour, pins, per_piece, directions):
    """`_side_reach` without listing a move: each of ``colour``'s pieces' destinations guessed from
    what the pins pass already says, for the search's evaluation (`quick_evaluate`). A piece in hand,
    covered, or pinned on the ground has none (its Pillbug throws are not counted); a piece on a
    stack has 6 and steps down onto any neighbour; a ground piece that is not pinned: a Beetle 4 (it
    can always climb), a Grasshopper one per line of pieces next to it, and a Queen, Spider, Ant or
    Pillbug none unless one slide out of its cell is open (`slide_directions`), then the Queen and
    Pillbug one per open slide, a Spider 2 and an Ant `MOVES_COUNTED`; a Ladybug or Mosquito 3. Liberties of the opponent's Queen reached (a piece not already next to it): the
    empty ones next to a stacked piece, a ground Beetle, or a Queen or Pillbug through its open slides,
    the Grasshoppers' landing cells, and, when one free Ant is not next to that Queen, every empty
    one a slide can enter (`_enterable`: an Ant reaches most of the hive's edge). Spiders, Ladybugs,
    Mosquitoes and placements reach none here; the search's quiescence search plays the real ones."""
    enemy_queen = s[PCELL + (1 - colour) * NUM_PIECE_SLOTS]
    if enemy_queen >= 0:
        _mark_liberties(directions, enemy_queen)
    lo = colour * NUM_PIECE_SLOTS
    if s[PCELL + lo] < 0:
        return 0  # no movement before one's Queen is in play
    reach = 0
    free_ant = False
    for piece in range(lo, lo + NUM_PIECE_SLOTS):
        a = s[PCELL + piece]
        if a < 0 or s[TOP + a] != piece:
            continue
        kind = PIECE_KIND[piece]
        steps = 0
        if s[PUNDER + piece] >= 0:
            count, steps = 6, ALL_DIRECTIONS
        elif w[ART + a] == pins:
            continue
        elif kind == BEETLE:
            count, steps = GUESSED_DESTINATIONS[BEETLE], ALL_DIRECTIONS
        elif kind == GRASSHOPPER:
            count = 0
            for d in range(6):
                count += s[HEIGHT + NEIGHBOURS[a * 6 + d]] > 0
        elif kind == QUEEN or kind == SPIDER or kind == ANT or kind == PILLBUG:
            slides = slide_directions(s, a)
            if slides == 0:
                continue
            if kind == QUEEN or kind == PILLBUG:
                steps = slides
                count = 0
                while slides:
                    slides &= slides - 1
                    count += 1
            else:
                count = GUESSED_DESTINATIONS[kind]
        else:
            count = GUESSED_DESTINATIONS[kind]
        per_piece[piece] = count
        if enemy_queen < 0 or _touching(directions, a, enemy_queen) >= 0:
            continue
        reach |= _liberties_next_to(s, a, steps, directions, enemy_queen)
        if kind == GRASSHOPPER and s[PUNDER + piece] < 0:
            reach |= _jump_liberties(s, a, directions, enemy_queen)
        free_ant = free_ant or kind == ANT
    if free_ant:
        for d in range(6):
            c = NEIGHBOURS[enemy_queen * 6 + d]
            if s[HEIGHT + c] == 0 and _enterable(s, c):
                reach |= 1 << d
    return reach


@inline_kernel
def _fill_terms(s, w, buffer, terms, guessed):
    """`evaluation_terms`, each side's moves listed (``guessed`` False) or guessed
    (`_guessed_side_reach`)."""
    me = s[I_TO_MOVE]
    moves = buffer[:MAX_MOVES]
    per_piece = buffer[PER_PIECE : PER_PIECE + NUM_PIECES]
    directions = buffer[PER_PIECE + NUM_PIECES : PER_PIECE + NUM_PIECES + NUM_CELLS]
    per_piece[:] = 0
    terms[:] = 0
    pins = reserve_stamp(w)  # one articulation pass for both sides' moves: the board is the same
    mark_articulation_cells(s, w, pins)
    if guessed:
        reach_own = _guessed_side_reach(s, w, me, pins, per_piece, directions)
        reach_other = _guessed_side_reach(s, w, 1 - me, pins, per_piece, directions)
    else:
        reach_own = _side_reach(s, w, moves, me, pins, per_piece, directions)
        last_moved = s[I_LAST_MOVED]
        s[I_TO_MOVE] = 1 - me
        s[I_LAST_MOVED] = -1
        reach_other = _side_reach(s, w, moves, 1 - me, pins, per_piece, directions)
        s[I_TO_MOVE] = me
        s[I_LAST_MOVED] = last_moved
    _add_side_terms(s, me, per_piece, reach_own, True, terms, 1)
    _add_side_terms(s, 1 - me, per_piece, reach_other, False, terms, -1)
    terms[T_TO_MOVE] = 1


@kernel
def evaluation_terms(s, w, buffer, terms):
    """Each term of the module docstring for the unfinished position ``s``, the mover's count minus
    the opponent's, into ``terms`` (int32[`NUM_TERMS`]); ``w`` and ``buffer`` (int32[EVAL_BUFFER_SIZE])
    are scratch. ``s`` is restored before returning. The pinned cells are marked once for both
    sides' generations (a sixth of the evaluation's time went into marking them twice)."""
    _fill_terms(s, w, buffer, terms, False)


@kernel
def guessed_evaluation_terms(s, w, buffer, terms):
    """`evaluation_terms` with each piece's moves guessed (`_guessed_side_reach`), not listed."""
    _fill_terms(s, w, buffer, terms, True)


@inline_kernel
def _weighed(terms, weights):
    score = 0
    for t in range(NUM_TERMS):
        score += weights[t] * terms[t]
    return score


@kernel
def evaluate(s, w, buffer, weights):
    """Score of the unfinished position ``s`` for the side to move: `evaluation_terms` weighed by
    ``weights`` (int32[`NUM_TERMS`]: `SEARCH_WEIGHTS`, `RULE_WEIGHTS` or tuned ones). ``w`` and
    ``buffer`` (int32[EVAL_BUFFER_SIZE]) are scratch; ``s`` is restored before returning."""
    terms = buffer[EVAL_BUFFER_SIZE - NUM_TERMS :]
    evaluation_terms(s, w, buffer, terms)
    return _weighed(terms, weights)


@kernel
def quick_evaluate(s, w, buffer, weights):
    """`evaluate` over `guessed_evaluation_terms`: the search's evaluation (half the cost of
    `evaluate`; the rule features keep the exact one)."""
    terms = buffer[EVAL_BUFFER_SIZE - NUM_TERMS :]
    guessed_evaluation_terms(s, w, buffer, terms)
    return _weighed(terms, weights)
