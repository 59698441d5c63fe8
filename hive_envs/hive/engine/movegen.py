"""Legal move generation: every distinct (piece, destination) pair, as integer move ids.

`generate_moves(s, w, out)` writes the legal move ids of the player to move into ``out`` (length
>= ``MAX_MOVES``) and returns their count; it also marks each listed id in the workspace
(``w[MARK + id] == w[W_STAMP]``) so that a legality check afterwards is one lookup. A forced pass
is returned as the single move ``PASS_MOVE``; a finished game has no moves (count 0).

Rules applied here (see docs/rules/hive.md): placement of the lowest-numbered piece of each bug
kind on cells touching only the mover's colour (origin / around the origin on the first two
plies); tournament opening; Queen deadline; no movement before one's Queen; pins by articulation
points (stacks exempt); ground freedom of movement (exactly one gate cell occupied); climbing gate
rule ``min(gate heights) > max(h_from, h_to)`` blocks; each bug's movement; Mosquito copying top
pieces that are not Mosquitoes (a Beetle on top); Pillbug (and Mosquito-as-Pillbug) throws; the
last-moved piece neither moves, is moved, nor uses an ability.

During a piece's own movement it is taken off the board (its cell's height lowered by one), so
its old cell neither supports its slide nor blocks a gate.

Bound on the output: destinations are empty cells next to the hive (at most 4 * 28 + 2) or
occupied cells (at most 28), for at most 28 pieces, so fewer than 28 * 142 + 1 < 4096 moves.
"""

import numpy as np

from hive_envs.hive.engine.grid import GATE_LEFT, GATE_RIGHT, NEIGHBOURS, ORIGIN
from hive_envs.hive.engine.jit import inline_kernel, kernel
from hive_envs.hive.engine.moves import PASS_MOVE, pack_move
from hive_envs.hive.engine.pieces import (
    ANT,
    BEETLE,
    GRASSHOPPER,
    KIND_COUNT,
    KIND_FIRST_SLOT,
    LADYBUG,
    MOSQUITO,
    NUM_PIECE_SLOTS,
    PIECE_KIND,
    PILLBUG,
    QUEEN,
    SPIDER,
)
from hive_envs.hive.engine.pins import mark_articulation_cells
from hive_envs.hive.engine.state import (
    HEIGHT,
    I_KINDS,
    I_LAST_MOVED,
    I_PLY,
    I_STATUS,
    I_TO_MOVE,
    I_TOURNAMENT,
    PCELL,
    PUNDER,
    TOP,
)
from hive_envs.hive.engine.workspace import (
    ART,
    CAND,
    MARK,
    QUEUE,
    VISIT,
    W_COUNT,
    W_STAMP,
    next_visit_stamp,
    refresh,
)

MAX_MOVES = 4096


def _slide_table():
    """``SLIDES[occupied]``: bit d set when a ground piece may slide in direction d from a cell
    whose six neighbours are occupied as the bits of ``occupied`` say (target empty, exactly one
    of the two gate cells occupied)."""
    table = np.zeros(64, dtype=np.int32)
    for occupied in range(64):
        for d in range(6):
            target = (occupied >> d) & 1
            left = (occupied >> ((d + 5) % 6)) & 1
            right = (occupied >> ((d + 1) % 6)) & 1
            if not target and left != right:
                table[occupied] |= 1 << d
    return table


SLIDES = _slide_table()
LOWEST_DIRECTION = np.array([0] + [(m & -m).bit_length() - 1 for m in range(1, 64)], dtype=np.int32)
"""``LOWEST_DIRECTION[m]``: the lowest direction in a non-empty bit mask of directions. Walking the
set bits of a slide mask (usually two) mispredicts less than testing all six directions."""


@inline_kernel
def _emit(w, out, n, stamp, move):
    if w[MARK + move] != stamp:
        w[MARK + move] = stamp
        out[n] = move
        return n + 1
    return n


@inline_kernel
def _gate_blocked(s, a, d, h_from, h_to):
    """Climbing gate rule for the step a -> neighbour in direction d."""
    g1 = s[HEIGHT + GATE_LEFT[a * 6 + d]]
    g2 = s[HEIGHT + GATE_RIGHT[a * 6 + d]]
    lo = min(g2, g1)
    hi = max(h_to, h_from)
    return lo > hi


@inline_kernel
def _can_slide(s, a, d):
    """Ground slide a -> neighbour d: target empty and exactly one gate cell occupied."""
    if s[HEIGHT + NEIGHBOURS[a * 6 + d]] != 0:
        return False
    g1 = s[HEIGHT + GATE_LEFT[a * 6 + d]] > 0
    g2 = s[HEIGHT + GATE_RIGHT[a * 6 + d]] > 0
    return g1 != g2


@inline_kernel
def slide_directions(s, a):
    """Bit mask of the directions a ground piece may slide in from cell ``a`` (see `SLIDES`)."""
    occupied = 0
    for d in range(6):
        if s[HEIGHT + NEIGHBOURS[a * 6 + d]] > 0:
            occupied |= 1 << d
    return SLIDES[occupied]


@kernel
def _queen_moves(s, w, out, n, stamp, piece, a):
    base = pack_move(piece, 0)
    dirs = slide_directions(s, a)
    for d in range(6):
        if (dirs >> d) & 1:
            n = _emit(w, out, n, stamp, base + NEIGHBOURS[a * 6 + d])
    return n


@kernel
def _beetle_moves(s, w, out, n, stamp, piece, a):
    base = pack_move(piece, 0)
    h_from = s[HEIGHT + a]
    for d in range(6):
        b = NEIGHBOURS[a * 6 + d]
        h_to = s[HEIGHT + b]
        if h_from == 0 and h_to == 0:
            if _can_slide(s, a, d):
                n = _emit(w, out, n, stamp, base + b)
        elif not _gate_blocked(s, a, d, h_from, h_to):
            n = _emit(w, out, n, stamp, base + b)
    return n


@inline_kernel
def grasshopper_landing(s, a, d):
    """The cell a Grasshopper at ``a`` lands on jumping in direction ``d`` (the first empty cell past
    the line of pieces next to it), or -1 when no piece is next to it there."""
    b = NEIGHBOURS[a * 6 + d]
    if s[HEIGHT + b] == 0:
        return -1
    while s[HEIGHT + b] > 0:
        b = NEIGHBOURS[b * 6 + d]
    return b


@kernel
def _grasshopper_moves(s, w, out, n, stamp, piece, a):
    base = pack_move(piece, 0)
    for d in range(6):
        b = grasshopper_landing(s, a, d)
        if b >= 0:
            n = _emit(w, out, n, stamp, base + b)
    return n


@kernel
def _spider_moves(s, w, out, n, stamp, piece, a):
    base = pack_move(piece, 0)
    dirs1 = slide_directions(s, a)
    for d1 in range(6):
        if not (dirs1 >> d1) & 1:
            continue
        b1 = NEIGHBOURS[a * 6 + d1]
        dirs2 = slide_directions(s, b1)
        for d2 in range(6):
            if not (dirs2 >> d2) & 1:
                continue
            b2 = NEIGHBOURS[b1 * 6 + d2]
            if b2 == a:
                continue
            dirs3 = slide_directions(s, b2)
            for d3 in range(6):
                if not (dirs3 >> d3) & 1:
                    continue
                b3 = NEIGHBOURS[b2 * 6 + d3]
                if b3 != a and b3 != b1:
                    n = _emit(w, out, n, stamp, base + b3)
    return n


@inline_kernel
def begin_ant_walk(w, a):
    """Start an Ant's breadth-first walk from cell ``a``: the queue ``w[QUEUE:]`` holds ``a`` (its
    end is 1) and ``a`` is visited; returns the walk's visit stamp (`ant_step`)."""
    visit = next_visit_stamp(w)
    w[VISIT + a] = visit
    w[QUEUE] = a
    return visit


@inline_kernel
def ant_step(s, w, v, visit, tail):
    """Queue the cells a ground piece slides to from ``v`` that the walk of stamp ``visit`` has not
    visited yet, from ``w[QUEUE + tail]`` on; returns the new end of the queue. The cells queued are
    the walk's new destinations, in the order the generator lists them."""
    dirs = slide_directions(s, v)
    while dirs:
        u = NEIGHBOURS[v * 6 + LOWEST_DIRECTION[dirs]]
        dirs &= dirs - 1
        if w[VISIT + u] != visit:
            w[VISIT + u] = visit
            w[QUEUE + tail] = u
            tail += 1
    return tail


@kernel
def _ant_moves(s, w, out, n, stamp, piece, a):
    base = pack_move(piece, 0)
    visit = begin_ant_walk(w, a)
    head, tail = 0, 1
    while head < tail:
        reached = ant_step(s, w, w[QUEUE + head], visit, tail)
        head += 1
        for i in range(tail, reached):
            n = _emit(w, out, n, stamp, base + w[QUEUE + i])
        tail = reached
    return n


@kernel
def _ladybug_moves(s, w, out, n, stamp, piece, a):
    base = pack_move(piece, 0)
    for d1 in range(6):
        b1 = NEIGHBOURS[a * 6 + d1]
        h1 = s[HEIGHT + b1]
        if h1 == 0 or _gate_blocked(s, a, d1, 0, h1):
            continue
        for d2 in range(6):
            b2 = NEIGHBOURS[b1 * 6 + d2]
            h2 = s[HEIGHT + b2]
            if h2 == 0 or _gate_blocked(s, b1, d2, h1, h2):
                continue
            for d3 in range(6):
                b3 = NEIGHBOURS[b2 * 6 + d3]
                if b3 != a and s[HEIGHT + b3] == 0 and not _gate_blocked(s, b2, d3, h2, 0):
                    n = _emit(w, out, n, stamp, base + b3)
    return n


@kernel
def _throws(s, w, out, n, stamp, a, last_moved, pins):
    """Pillbug ability from the uncovered ground cell ``a``: lift a neighbour, drop it nearby."""
    for dt in range(6):
        t = NEIGHBOURS[a * 6 + dt]
        if s[HEIGHT + t] != 1:
            continue
        target = s[TOP + t]
        if target == last_moved or w[ART + t] == pins or _gate_blocked(s, t, (dt + 3) % 6, 0, 1):
            continue
        base = pack_move(target, 0)
        for dd in range(6):
            b = NEIGHBOURS[a * 6 + dd]
            if b != t and s[HEIGHT + b] == 0 and not _gate_blocked(s, a, dd, 1, 0):
                n = _emit(w, out, n, stamp, base + b)
    return n


@inline_kernel
def _piece_moves(s, w, out, n, stamp, piece, kind, a, pinned):
    """Own movement of ``piece`` (a ground piece unless a Beetle/Mosquito on top), off the board."""
    s[HEIGHT + a] -= 1
    if s[PUNDER + piece] >= 0:
        n = _beetle_moves(s, w, out, n, stamp, piece, a)
    elif not pinned:
        if kind == QUEEN or kind == PILLBUG:
            n = _queen_moves(s, w, out, n, stamp, piece, a)
        elif kind == BEETLE:
            n = _beetle_moves(s, w, out, n, stamp, piece, a)
        elif kind == GRASSHOPPER:
            n = _grasshopper_moves(s, w, out, n, stamp, piece, a)
        elif kind == SPIDER:
            n = _spider_moves(s, w, out, n, stamp, piece, a)
        elif kind == ANT:
            n = _ant_moves(s, w, out, n, stamp, piece, a)
        elif kind == LADYBUG:
            n = _ladybug_moves(s, w, out, n, stamp, piece, a)
        elif kind == MOSQUITO:
            copied = _mosquito_kinds(s, a)
            if copied & (1 << BEETLE):
                n = _beetle_moves(s, w, out, n, stamp, piece, a)
            elif copied & ((1 << QUEEN) | (1 << PILLBUG)):
                n = _queen_moves(s, w, out, n, stamp, piece, a)
            if copied & (1 << GRASSHOPPER):
                n = _grasshopper_moves(s, w, out, n, stamp, piece, a)
            if copied & (1 << SPIDER):
                n = _spider_moves(s, w, out, n, stamp, piece, a)
            if copied & (1 << ANT):
                n = _ant_moves(s, w, out, n, stamp, piece, a)
            if copied & (1 << LADYBUG):
                n = _ladybug_moves(s, w, out, n, stamp, piece, a)
    s[HEIGHT + a] += 1
    return n


@inline_kernel
def can_move(s, piece, last_moved):
    """Is ``piece`` in play, on top of its cell and not the last moved (the pieces `piece_movements`
    takes)? Its colour is the caller's to check."""
    a = s[PCELL + piece]
    return a >= 0 and s[TOP + a] == piece and piece != last_moved


@inline_kernel
def piece_movements(s, w, out, n, stamp, piece, last_moved, pins):
    """The movements of ``piece`` (`can_move`) and, for a Pillbug or a Mosquito next to one, its throws
    of other pieces, emitted into ``out`` from ``n`` under the generation's ``stamp``; returns the new
    count. ``pins``: the stamp of the pinned cells. `_generate` lists a player's pieces through it, and
    so does the evaluation (`evaluation.evaluate`), which counts each piece's moves as they come."""
    a = s[PCELL + piece]
    kind = PIECE_KIND[piece]
    on_ground = s[PUNDER + piece] < 0
    pinned = on_ground and w[ART + a] == pins
    n = _piece_moves(s, w, out, n, stamp, piece, kind, a, pinned)
    if on_ground and (kind == PILLBUG or (kind == MOSQUITO and (_mosquito_kinds(s, a) >> PILLBUG) & 1)):
        n = _throws(s, w, out, n, stamp, a, last_moved, pins)
    return n


@inline_kernel
def begin_movements(w):
    """The stamp of a new generation for a caller that lists pieces one at a time (`piece_movements`):
    earlier marks no longer count, and no complete move list is cached (``W_COUNT`` -1)."""
    refresh(w)
    w[W_STAMP] += 1
    w[W_COUNT] = -1
    return w[W_STAMP]


@inline_kernel
def _mosquito_kinds(s, a):
    """Bit mask of the kinds of the top pieces around cell ``a``, Mosquitoes excluded."""
    mask = 0
    for d in range(6):
        b = NEIGHBOURS[a * 6 + d]
        if s[HEIGHT + b] > 0:
            k = PIECE_KIND[s[TOP + b]]
            if k != MOSQUITO:
                mask |= 1 << k
    return mask


@kernel
def _placement_cells(s, w, colour):
    """Write the legal placement cells into ``w[CAND:]``; return how many.

    A placement cell is empty, touches a top piece of the mover's colour and none of the
    opponent's. One pass stamps the neighbours of the opponent's top pieces "forbidden"; the pass
    over the neighbours of the mover's stamps each cell it has looked at "seen", so every cell is
    tested once, in the order of the mover's pieces and of the directions.
    """
    ply = s[I_PLY]
    if ply == 0:
        w[CAND] = ORIGIN
        return 1
    if ply == 1:
        for d in range(6):
            w[CAND + d] = NEIGHBOURS[ORIGIN * 6 + d]
        return 6
    forbidden = next_visit_stamp(w)
    seen = next_visit_stamp(w)
    lo = (1 - colour) * NUM_PIECE_SLOTS
    for p in range(lo, lo + NUM_PIECE_SLOTS):
        c = s[PCELL + p]
        if c >= 0 and s[TOP + c] == p:
            for d in range(6):
                w[VISIT + NEIGHBOURS[c * 6 + d]] = forbidden
    count = 0
    lo = colour * NUM_PIECE_SLOTS
    for p in range(lo, lo + NUM_PIECE_SLOTS):
        c = s[PCELL + p]
        if c < 0 or s[TOP + c] != p:
            continue
        for d in range(6):  # without branches: which cells pass is hard to predict
            e = NEIGHBOURS[c * 6 + d]
            mark = w[VISIT + e]
            free = (mark != forbidden) & (mark != seen) & (s[HEIGHT + e] == 0)
            w[VISIT + e] = seen  # a forbidden cell marked seen is still skipped
            w[CAND + count] = e
            count += int(free)
    return count


_SKIP_PLACEMENTS, _COUNT_PLACEMENTS, _LIST_PLACEMENTS = 0, 1, 2


@kernel
def generate_moves(s, w, out):
    """Legal move ids of the player to move into ``out``; returns the count (see module doc)."""
    return _generate(s, w, out, _LIST_PLACEMENTS, -1)


@kernel
def generate_movements(s, w, out):
    """The legal movements (and throws) of the player to move into ``out``, without placements and
    without the pass; returns their count (0 when the player has none); the workspace marks are those
    of movements only (``W_COUNT`` -1, as `count_moves` leaves it). The evaluation lists movements
    piece by piece instead (`piece_movements`), counting each piece's as they come."""
    return _generate(s, w, out, _SKIP_PLACEMENTS, -1)


@kernel
def count_moves(s, w, out):
    """Number of legal moves, as `generate_moves` returns it, without listing placements.

    Placements are distinct by construction, so they are counted, not written; movements are
    still written to ``out`` to de-duplicate them. The workspace marks are then incomplete, so
    this is for perft leaves only.
    """
    return _generate(s, w, out, _COUNT_PLACEMENTS, -1)


@kernel
def generate_with_pins(s, w, out, placements, pins):
    """`generate_moves` (``placements`` True) or `generate_movements` (False) with the pinned cells
    already marked: ``w[ART + cell] == pins`` for the articulation cells of this board, written by
    `pins.mark_articulation_cells` under a stamp no generation uses (`reserve_stamp`). The
    evaluation reads both sides' moves on one board: the hive's articulation points do not depend
    on the side to move, so it marks them once for both (and passes the same stamp to
    `piece_movements` where it lists movements piece by piece)."""
    if placements:
        return _generate(s, w, out, _LIST_PLACEMENTS, pins)
    return _generate(s, w, out, _SKIP_PLACEMENTS, pins)


@inline_kernel
def _generate(s, w, out, placements_mode, pins):
    refresh(w)
    stamp = w[W_STAMP] + 1
    w[W_STAMP] = stamp
    n = np.int64(0)  # not the literal 0: numba would also compile the callees for Literal[int](0)
    if s[I_STATUS] != 0:
        w[W_COUNT] = 0
        return 0
    colour = s[I_TO_MOVE]
    lo = colour * NUM_PIECE_SLOTS
    own_turns = s[I_PLY] // 2
    queen_in = s[PCELL + lo] >= 0
    kinds = s[I_KINDS]

    # Placements.
    ncand = -1
    placements = 0
    for kind in range(8):
        if placements_mode == _SKIP_PLACEMENTS or not (kinds >> kind) & 1:
            continue
        if kind == QUEEN and s[I_TOURNAMENT] == 1 and own_turns == 0:
            continue
        if kind != QUEEN and own_turns == 3 and not queen_in:
            continue
        first = lo + KIND_FIRST_SLOT[kind]
        piece = -1
        for p in range(first, first + KIND_COUNT[kind]):
            if s[PCELL + p] < 0:
                piece = p
                break
        if piece < 0:
            continue
        if ncand < 0:
            ncand = _placement_cells(s, w, colour)
        if placements_mode == _LIST_PLACEMENTS:
            for i in range(ncand):
                n = _emit(w, out, n, stamp, pack_move(piece, w[CAND + i]))
        else:
            placements += ncand

    # Movements.
    if queen_in:
        if pins < 0:
            mark_articulation_cells(s, w, stamp)
            pins = stamp
        last_moved = s[I_LAST_MOVED]
        for piece in range(lo, lo + NUM_PIECE_SLOTS):
            if can_move(s, piece, last_moved):
                n = piece_movements(s, w, out, n, stamp, piece, last_moved, pins)

    if placements_mode == _SKIP_PLACEMENTS:
        w[W_COUNT] = -1
        return n
    if placements_mode == _COUNT_PLACEMENTS:
        w[W_COUNT] = -1
        return n + placements if n + placements > 0 else 1
    if n == 0:
        w[MARK + PASS_MOVE] = stamp
        out[0] = PASS_MOVE
        n = 1
    w[W_COUNT] = n
    return n
