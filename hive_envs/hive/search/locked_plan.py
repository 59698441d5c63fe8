"""A plan against a locked opponent: the shortest sequence of own moves that surrounds its Queen
while it can only pass, found by a dedicated "solo" search; and, where there is none, the moves
that only keep the lock.

When the opponent can only pass (every piece pinned, covered or boxed in), its replies are forced
and the game is a puzzle for one player: fill the empty neighbours ("liberties") of its Queen.
A depth-limited alpha-beta sees a few own moves at most, and a surround that needs a longer
manoeuvre (bring a piece in first, or replace a piece that keeps the opponent locked before it
moves on) stays beyond it: ``alphabeta:2`` shuffled such games to the turn-cap draw.
`locked_plan_kernel` searches own move sequences with the opponent's forced replies, by iterative
deepening over their length (1 .. ``max_moves``), and prunes hard:

- **The replies stay forced**: every move but the winning one must leave the opponent a single
  legal move, a pass as a rule (otherwise its reply is a choice and the line is not a plan).
- **Liberty count**: a move fills at most one liberty, so a line with ``r`` own moves left whose
  opponent's Queen has more than ``r`` empty neighbours cannot win and is cut (the last move of a
  line must fill the last liberty, the move before it the last but one, and so on).
- **No repetitions**: a position the game went through (``seen``) or the line itself went
  through is not entered again (as in the alpha-beta search, where repetitions score as draws).
- **Transposition set**: the positions (own side to move) proven to have no win within ``r``
  own moves, so that own moves played in another order are searched once.
- **Ordering**: moves onto a liberty first, then by the destination's distance to the Queen;
  the first winning line found at the shortest length is the plan (its order is fixed, so the
  plan depends only on the position, the game's history and the limits). Each move of a plan
  leaves a plan one move shorter, so following it wins.

The search stops at ``node_budget`` own moves tried (nodes, not time: the answer stays
deterministic) and then reports no plan and that the budget ran out. The state ``s`` is restored
on return. docs/alphabeta.md ("The locked-opponent plan") has what plans and proofs cost.

Where every length was searched without a plan, the lock is a fortress for the searcher: keeping
it (`lock_keeping_keys`: the positions after such moves) only leads to the turn-cap draw, and
`HiveAlphaBeta` scores those positions as draws, so that it gives the opponent a move (the best
such move by its search) and the position changes.
"""

import numpy as np
from numba import njit

from hive_envs.hive.engine.grid import cell_distance
from hive_envs.hive.engine.jit import kernel
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.moves import PASS_MOVE, move_cell, move_piece
from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS
from hive_envs.hive.engine.repetition import position_key
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move, queen_neighbours, undo_move
from hive_envs.hive.engine.state import (
    I_LAST_MOVED,
    I_STATUS,
    I_TO_MOVE,
    PCELL,
    STATUS_BLACK_WINS,
    STATUS_WHITE_WINS,
)

DEFAULT_PLAN_MOVES = 6
"""Longest plan searched (own moves)."""
DEFAULT_PLAN_NODES = 500_000
"""Own moves tried at most per plan search: bounds the time spent on a position without a plan."""
_SET_BITS = 18  # the transposition set: 2**18 entries (position, own moves left without a win)


@kernel
def opponent_locked(s, w, out):
    """Can the player not to move in ``s`` only pass (every piece pinned, covered or boxed in, no
    placement)? ``s`` is restored; ``w`` and ``out`` (int32[MAX_MOVES]) are scratch."""
    me = s[I_TO_MOVE]
    last_moved = s[I_LAST_MOVED]
    s[I_TO_MOVE] = 1 - me
    s[I_LAST_MOVED] = -1
    n = generate_moves(s, w, out)
    locked = n == 1 and out[0] == PASS_MOVE
    s[I_TO_MOVE] = me
    s[I_LAST_MOVED] = last_moved
    return locked


@kernel
def _plan_order(s, move, queen):
    """Order key of an own move (higher first): onto a liberty of the opponent's Queen (not from
    another), then nearer to it, and never away from it."""
    dest = move_cell(move)
    origin = s[PCELL + move_piece(move)]
    dist_dest = cell_distance(dest, queen)
    dist_origin = 100 if origin < 0 else cell_distance(origin, queen)
    key = 64 - dist_dest
    if dist_dest == 1 and dist_origin != 1:
        key += 64
    elif dist_origin == 1 and dist_dest != 1:
        key -= 64
    return key


@kernel
def _forced_pass(s, w, scratch):
    """Can the side to move in ``s`` only pass?"""
    n = generate_moves(s, w, scratch)
    return n == 1 and scratch[0] == PASS_MOVE


@kernel
def _in_sorted(keys, key):
    i = np.searchsorted(keys, key)
    return i < keys.shape[0] and keys[i] == key


@kernel
def _unwind(s, recs, ply):
    """Take back the own moves and forced replies of plies ``ply - 1`` .. 0."""
    for p in range(ply - 1, -1, -1):
        undo_move(s, recs[2 * p + 1])
        undo_move(s, recs[2 * p])


@njit(cache=True)
def locked_plan_kernel(s, w, max_moves, node_budget, seen, plan, stats):
    """The shortest plan of at most ``max_moves`` own moves that wins for the side to move in
    ``s`` while every reply of the opponent is forced (its only legal move, a pass as a rule);
    see the module docstring.

    ``seen``: the sorted `position_key` of the positions the game went through; ``plan``
    (int32[>= 2 * max_moves - 1]) receives the plan's line: own move, forced reply, own move, ...,
    the winning move; ``stats`` (int64[2]) the nodes (own moves tried) and 1 if the node budget
    ran out before a plan was found or every length searched. Returns the plan's length in own
    moves, 0 if there is none (or the budget ran out)."""
    me = s[I_TO_MOVE]
    queen = s[PCELL + (1 - me) * NUM_PIECE_SLOTS]
    win = STATUS_WHITE_WINS if me == 0 else STATUS_BLACK_WINS
    stats[0] = 0
    stats[1] = 0
    if queen < 0 or s[I_STATUS] != 0:
        return 0
    moves = np.empty((max_moves, MAX_MOVES), dtype=np.int32)
    order = np.empty((max_moves, MAX_MOVES), dtype=np.int32)
    count = np.zeros(max_moves, dtype=np.int64)
    index = np.zeros(max_moves, dtype=np.int64)
    recs = np.empty((2 * max_moves, UNDO_SIZE), dtype=np.int32)
    path_keys = np.zeros(max_moves + 1, dtype=np.uint64)
    replies = np.empty(MAX_MOVES, dtype=np.int32)
    set_keys = np.zeros(1 << _SET_BITS, dtype=np.uint64)
    set_left = np.zeros(1 << _SET_BITS, dtype=np.int64)
    mask = np.uint64((1 << _SET_BITS) - 1)
    path_keys[0] = position_key(s)
    nodes = 0
    for length in range(1, max_moves + 1):
        if 6 - queen_neighbours(s, 1 - me) > length:
            continue  # more liberties than moves
        ply = 0
        count[0] = -1  # -1: the moves of the ply are not generated yet
        while True:
            if count[ply] < 0:
                n = generate_moves(s, w, moves[ply])
                if n == 1 and moves[ply, 0] == PASS_MOVE:
                    n = 0  # a pass is no step of a plan
                for i in range(n):
                    order[ply, i] = _plan_order(s, moves[ply, i], queen)
                count[ply] = n
                index[ply] = 0
            i = index[ply]
            if i == count[ply]:  # no win within `length - ply` own moves from here
                if ply == 0:
                    break
                slot = np.int64(path_keys[ply] & mask)
                set_keys[slot] = path_keys[ply]
                set_left[slot] = length - ply
                ply -= 1
                undo_move(s, recs[2 * ply + 1])
                undo_move(s, recs[2 * ply])
                continue
            best = i  # the best-ordered move not tried yet (the first on ties)
            for j in range(i + 1, count[ply]):
                if order[ply, j] > order[ply, best]:
                    best = j
            m = moves[ply, best]
            moves[ply, best] = moves[ply, i]
            order[ply, best] = order[ply, i]
            moves[ply, i] = m
            index[ply] = i + 1
            nodes += 1
            if nodes > node_budget:
                _unwind(s, recs, ply)
                stats[0] = nodes
                stats[1] = 1
                return 0
            apply_move(s, m, recs[2 * ply])
            left = length - ply - 1
            if s[I_STATUS] != 0 or 6 - queen_neighbours(s, 1 - me) > left:
                won = s[I_STATUS] == win
                undo_move(s, recs[2 * ply])
                if won:
                    plan[2 * ply] = m
                    for p in range(ply):
                        plan[2 * p] = moves[p, index[p] - 1]
                        plan[2 * p + 1] = recs[2 * p + 1, 0]  # the forced reply
                    _unwind(s, recs, ply)
                    stats[0] = nodes
                    return ply + 1
                continue
            if generate_moves(s, w, replies) != 1:  # the opponent has a choice: no plan
                undo_move(s, recs[2 * ply])
                continue
            apply_move(s, replies[0], recs[2 * ply + 1])
            key = position_key(s)
            slot = np.int64(key & mask)
            cut = s[I_STATUS] != 0 or _in_sorted(seen, key)
            cut = cut or (set_keys[slot] == key and set_left[slot] >= left)
            for p in range(ply + 1):
                cut = cut or path_keys[p] == key
            if cut:
                undo_move(s, recs[2 * ply + 1])
                undo_move(s, recs[2 * ply])
                continue
            ply += 1
            path_keys[ply] = key
            count[ply] = -1
    stats[0] = nodes
    return 0


@njit(cache=True)
def lock_keeping_keys(s, w):
    """`position_key` after each move of the side to move in ``s`` that keeps the opponent locked
    (its reply a forced pass) and the game going. When no plan exists, such a move only prolongs
    the lock, which then ends in the turn-cap draw."""
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    replies = np.empty(MAX_MOVES, dtype=np.int32)
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    n = generate_moves(s, w, moves)
    keys = np.empty(n, dtype=np.uint64)
    count = 0
    for i in range(n):
        apply_move(s, moves[i], rec)
        if s[I_STATUS] == 0 and generate_moves(s, w, replies) == 1 and replies[0] == PASS_MOVE:
            keys[count] = position_key(s)
            count += 1
        undo_move(s, rec)
    return keys[:count].copy()
