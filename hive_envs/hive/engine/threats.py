"""A threat search: can the side to move surround the opponent's Queen by force within a few of its own
moves, if each of them is an attacking move?

Most lost Hive games end in a forced sequence of five to seven plies: the attacker brings pieces onto
the Queen's empty neighbours (its liberties) one after the other and the defender, whatever it plays,
cannot free the Queen in time. A full-width alpha-beta search sees three or four plies in the time of
a move; `forced_surround_kernel` searches such sequences deeper by searching fewer moves of one side:

- **The attacker plays surrounding moves only** (`_surrounding_moves`: a piece onto a neighbour of the
  opponent's Queen from the hand, from away from the Queen or from the top of a stack, or a Beetle onto
  the Queen itself), a handful of the forty to a hundred legal moves; **the defender plays every legal
  move** (a pass included).
  A line is won when the game ends with the attacker's win, lost for the attacker when it ends otherwise
  (the defender wins, both Queens are surrounded, the turn cap), when a position repeats (the game's
  earlier positions, ``seen``, or the line's own: a repetition is a draw, as in the alpha-beta search),
  or when the attacker's moves run out. A proof is a forced win in the rules of the game: the
  restriction only narrows where the attacker looks.
- **Liberty count**: a surrounding move fills at most one liberty, so a line with ``r`` attacker moves
  left whose Queen has more than ``r`` liberties is not searched on (its defender could still have to
  fill one itself; such lines are missed, never proven wrongly).
- **Iterative deepening** over the attacker's moves (1 .. ``max_attacks``): the shortest win is
  found first and a position without a short one costs little.
- **Refutations first**: at a defender node the move that refuted a sibling line (a killer, one per
  ply) is tried first, then the moves ordered by their history of refutations; the attacker's moves
  onto a liberty before those onto the Queen, and the winning move, if any, ends the node at once.
- **Transposition table** of proven and refuted positions, keyed by `repetition.table_key`: a position
  won within ``r`` attacker moves is won within more, one refuted within ``r`` is refuted within fewer.

The search stops after ``time_s`` seconds (0: no limit) and then reports the win it has (none if it found
none yet). The state ``s`` is restored on return.
"""

import numpy as np
from numba import njit

from hive_envs.core.alphabeta import now, select_next
from hive_envs.hive.engine.grid import NEIGHBOURS, NUM_CELLS
from hive_envs.hive.engine.jit import kernel
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.moves import NUM_MOVE_IDS, PASS_MOVE, move_cell, move_piece
from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS
from hive_envs.hive.engine.repetition import position_key, repeats, table_key
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move, queen_neighbours, undo_move
from hive_envs.hive.engine.state import (
    HEIGHT,
    I_MAX_TURNS,
    I_PLY,
    I_STATUS,
    I_TO_MOVE,
    PCELL,
    STATUS_BLACK_WINS,
    STATUS_WHITE_WINS,
)

MAX_ATTACKS = 6
"""Most attacker moves a threat search may look for (11 plies)."""
APPROACH_LIBERTIES = 2
"""From this many liberties down the attacker may also bring a piece up next to one (a quiet move): in the
lost games of a 1 s `hive_base` search against `alphabeta:3`, the winner's last moves were such moves
at two liberties as often as surrounding moves."""
TABLE_BITS = 16
"""The threat search's transposition table: 2**16 positions (1.5 MB)."""
_CLOCK_EVERY = 64  # nodes between two reads of the clock (a node lists a position's moves: ~10 us)
_UNKNOWN, _REFUTED, _WON = -1, 0, 1
_NEVER = 1 << 30  # a table entry's "won within" when no win is known
_TABLE_MASK = np.uint64((1 << TABLE_BITS) - 1)


@kernel
def mark_queen_rings(s, near, stamp):
    """``near[0, c] = stamp`` for the cells c touching the opponent's Queen, ``near[1, c]`` for the
    mover's (the stamp is new at every node, so nothing is cleared)."""
    me = s[I_TO_MOVE]
    for side in range(2):
        queen = s[PCELL + (1 - me if side == 0 else me) * NUM_PIECE_SLOTS]
        if queen >= 0:
            for d in range(6):
                near[side, NEIGHBOURS[queen * 6 + d]] = stamp


@kernel
def attacking_moves(s, moves, n, near, stamp):
    """Keep at the front of ``moves`` (``n`` of them) the moves that bring a piece next to the opponent's
    Queen on an empty cell (from a cell not touching it, or from the hand) or onto the Queen itself; returns
    how many. ``near`` is stamped for this node (`mark_queen_rings`)."""
    me = s[I_TO_MOVE]
    enemy_queen = s[PCELL + (1 - me) * NUM_PIECE_SLOTS]
    if enemy_queen < 0:
        return 0
    kept = 0
    for i in range(n):
        m = moves[i]
        if m == PASS_MOVE:
            continue
        dest = move_cell(m)
        origin = s[PCELL + move_piece(m)]
        if dest == enemy_queen or (
            near[0, dest] == stamp and s[HEIGHT + dest] == 0 and (origin < 0 or near[0, origin] != stamp)
        ):
            moves[kept] = m
            kept += 1
    return kept


@kernel
def _mark_liberty_rings(s, queen, reach, stamp):
    """``reach[c] = stamp`` for the cells c touching an empty neighbour of the Queen on ``queen``."""
    for d in range(6):
        liberty = NEIGHBOURS[queen * 6 + d]
        if s[HEIGHT + liberty] == 0:
            for e in range(6):
                reach[NEIGHBOURS[liberty * 6 + e]] = stamp


@kernel
def _surrounding_moves(s, moves, n, near, reach, stamp, approach):
    """Keep at the front of ``moves`` (``n`` of them) the moves onto a neighbour of the opponent's Queen
    from the hand, from a cell not touching the Queen or from the top of a stack (a liberty filled, or a
    Beetle on a piece next to the Queen, which pins that piece and may step down into a liberty later), and
    the Beetle's climb onto the Queen (which then cannot move); with ``approach``, also the moves onto a
    cell touching a liberty from one that touches none and is off the Queen's ring (a piece brought up
    to fill it next). Returns how many. ``near`` is stamped for this node (`mark_queen_rings`), and
    ``reach`` with ``approach`` (`_mark_liberty_rings`). Unlike `attacking_moves` (the alpha-beta search's
    quiescence moves), the Beetle's moves onto and down from the ring count: many games end with them."""
    me = s[I_TO_MOVE]
    enemy_queen = s[PCELL + (1 - me) * NUM_PIECE_SLOTS]
    kept = 0
    for i in range(n):
        m = moves[i]
        if m == PASS_MOVE:
            continue
        dest = move_cell(m)
        origin = s[PCELL + move_piece(m)]
        on_ring = near[0, dest] == stamp
        from_off_ring = origin < 0 or near[0, origin] != stamp or s[HEIGHT + origin] > 1
        if (
            dest == enemy_queen
            or (on_ring and from_off_ring)
            or (
                approach and reach[dest] == stamp and from_off_ring and (origin < 0 or reach[origin] != stamp)
            )
        ):
            moves[kept] = m
            kept += 1
    return kept


@kernel
def _liberties(s, colour):
    """Empty neighbours of ``colour``'s Queen (6 while it is not in play: nothing to surround)."""
    if s[PCELL + colour * NUM_PIECE_SLOTS] < 0:
        return 6
    return 6 - queen_neighbours(s, colour)


@kernel
def _remember(table_keys, won_within, refuted_within, key, left, won):
    """Store in the table that the position ``key`` is won within ``left`` attacker moves (``won``), or
    refuted within ``left``; a different position in the slot is replaced."""
    slot = np.int64(key & _TABLE_MASK)
    if table_keys[slot] != key:
        table_keys[slot] = key
        won_within[slot] = _NEVER
        refuted_within[slot] = -1
    if won:
        won_within[slot] = min(won_within[slot], left)
    else:
        refuted_within[slot] = max(refuted_within[slot], left)


@njit(cache=True)
def forced_surround_kernel(s, w, max_attacks, approach_liberties, time_s, seen, stats):
    """The first move of the shortest forced surround of the opponent's Queen by the side to move in ``s``
    within ``max_attacks`` of its own (surrounding) moves, -1 if none is found; see the module docstring.

    ``seen``: the sorted `position_key` of the positions the game went through; ``stats`` (int64[3])
    receives the nodes (moves applied), 1 if the limits stopped the search before every length was
    searched, and the attacker's moves of the win found."""
    start = now()
    attacker = s[I_TO_MOVE]
    defender = 1 - attacker
    win = STATUS_WHITE_WINS if attacker == 0 else STATUS_BLACK_WINS
    stats[0] = 0
    stats[1] = 0
    stats[2] = 0
    if s[I_STATUS] != 0 or s[PCELL + defender * NUM_PIECE_SLOTS] < 0:
        return -1
    plies = 2 * max_attacks - 1
    moves = np.empty((plies, MAX_MOVES), dtype=np.int32)
    order = np.empty((plies, MAX_MOVES), dtype=np.int64)
    count = np.zeros(plies, dtype=np.int64)
    index = np.zeros(plies, dtype=np.int64)
    recs = np.empty((plies, UNDO_SIZE), dtype=np.int32)
    path_keys = np.zeros(plies + 1, dtype=np.uint64)
    node_keys = np.zeros(plies + 1, dtype=np.uint64)
    killers = np.full(plies, -1, dtype=np.int64)
    history = np.zeros(NUM_MOVE_IDS, dtype=np.int64)
    near = np.zeros((2, NUM_CELLS), dtype=np.int64)
    reach = np.zeros(NUM_CELLS, dtype=np.int64)
    table_keys = np.zeros(1 << TABLE_BITS, dtype=np.uint64)
    won_within = np.full(1 << TABLE_BITS, _NEVER, dtype=np.int64)
    refuted_within = np.full(1 << TABLE_BITS, -1, dtype=np.int64)
    with_ply = s[I_MAX_TURNS] > 0 and s[I_PLY] + plies >= s[I_MAX_TURNS]
    path_keys[0] = position_key(s)
    node_keys[0] = table_key(s, path_keys[0], with_ply)
    nodes = 0
    stamp = 0
    for attacks in range(1, max_attacks + 1):
        if _liberties(s, defender) > attacks:
            continue
        plies_now = 2 * attacks - 1
        ply = 0
        count[0] = -1  # -1: the node's moves are not listed yet
        pending = _UNKNOWN  # the value of the child last tried at `ply`, to be taken into its node
        while True:
            if pending != _UNKNOWN:
                value = pending
                pending = _UNKNOWN
                attacking = ply % 2 == 0
                if (value == _WON) != attacking:
                    continue  # this node is not decided by that child: the next move
                # decided: a won attack node, a refuted defence node
                left = attacks - (ply + 1) // 2  # attacker moves left on the line from this node
                _remember(table_keys, won_within, refuted_within, node_keys[ply], left, value == _WON)
                refuting = moves[ply, index[ply] - 1]
                if not attacking:
                    killers[ply] = refuting
                    history[refuting] += left * left
                if ply == 0:
                    stats[0] = nodes
                    stats[2] = attacks
                    return refuting
                ply -= 1
                undo_move(s, recs[ply])
                pending = value
                continue
            attacking = ply % 2 == 0
            if count[ply] < 0:
                n = generate_moves(s, w, moves[ply])
                if attacking:
                    stamp += 1
                    mark_queen_rings(s, near, stamp)
                    approach = _liberties(s, defender) <= approach_liberties
                    if approach:
                        _mark_liberty_rings(s, s[PCELL + defender * NUM_PIECE_SLOTS], reach, stamp)
                    n = _surrounding_moves(s, moves[ply], n, near, reach, stamp, approach)
                    for i in range(n):
                        order[ply, i] = s[HEIGHT + move_cell(moves[ply, i])] == 0  # a liberty filled first
                else:
                    for i in range(n):
                        m = moves[ply, i]
                        order[ply, i] = (1 << 40) if m == killers[ply] else history[m]
                count[ply] = n
                index[ply] = 0
            i = index[ply]
            if i == count[ply]:  # every move tried: an attack node is refuted, a defence node won
                value = _REFUTED if attacking else _WON
                left = attacks - (ply + 1) // 2
                _remember(table_keys, won_within, refuted_within, node_keys[ply], left, value == _WON)
                if ply == 0:
                    break
                ply -= 1
                undo_move(s, recs[ply])
                pending = value
                continue
            select_next(moves[ply], order[ply], i, count[ply])
            m = moves[ply, i]
            index[ply] = i + 1
            nodes += 1
            if time_s > 0 and nodes % _CLOCK_EVERY == 0 and now() - start > time_s:
                for p in range(ply - 1, -1, -1):
                    undo_move(s, recs[p])
                stats[0] = nodes
                stats[1] = 1
                return -1
            apply_move(s, m, recs[ply])
            child = ply + 1
            left = attacks - (child + 1) // 2  # attacker moves left on the line from the child
            status = s[I_STATUS]
            if status != 0:
                pending = _WON if status == win else _REFUTED
            elif child == plies_now or _liberties(s, defender) > left:
                pending = _REFUTED  # no attacker move left, or too few to fill the liberties
            else:
                path_keys[child] = position_key(s)
                if repeats(path_keys[child], seen, path_keys, child):
                    pending = _REFUTED
                else:
                    node_keys[child] = table_key(s, path_keys[child], with_ply)
                    slot = np.int64(node_keys[child] & _TABLE_MASK)
                    if table_keys[slot] == node_keys[child]:
                        if won_within[slot] <= left:
                            pending = _WON
                        elif refuted_within[slot] >= left:
                            pending = _REFUTED
            if pending != _UNKNOWN:
                undo_move(s, recs[ply])
                continue
            ply = child
            count[ply] = -1
    stats[0] = nodes
    return -1
