"""Alpha-beta search over the Hive engine state (negamax, iterative deepening), compiled, and
`HiveAlphaBeta`, its face on a `HiveGame`::

    from hive_envs.hive import HiveAlphaBeta, HiveGame

    game = HiveGame("Base+MLP")
    searcher = HiveAlphaBeta(depth=3)            # or time_s=0.5, or both (whichever comes first)
    result = searcher.search(game)               # SearchResult(move_id, score, depth_reached, nodes, elapsed_s, pv)
    game.play_id(result.move_id)
    searcher.choose(game)                        # just the move id
    searcher.search(game, depth=2)               # other limits for one search
    scores, nodes = searcher.move_scores(game, game.legal_move_ids(), 3, 64)  # every move's score

Limits: ``depth`` in 1..`MAX_DEPTH` plies, ``time_s`` in (0, 3600] seconds (iterative deepening up
to `MAX_DEPTH` until the time is used), both given: whichever is reached first; neither:
``depth=DEFAULT_DEPTH``. Bad values raise ValueError naming the parameter. With a time limit the
answer comes a few milliseconds after ``time_s`` at most; the first call of a process also
compiles the kernels (cached on disk by numba afterwards). A time-limited search keeps the
transposition table (``table_bits``: 2**bits entries) from the searches before it (``keep_table``,
the default: the moves of one game share most of their trees); a depth-limited search (``time_s``
None), or any search with ``keep_table=False``, clears it first, so that its answer depends only on
the position (and the positions the game went through), the limits and ``seed`` (which breaks ties
between moves the ordering cannot tell apart): the ladder's ``alphabeta:D`` yardsticks stay the
plain depth-D search. The evaluation cache is kept in both cases (it holds exact evaluations).

`alphabeta_kernel(s, w, max_depth, time_s, node_limit, seed, table, use_table, seen, pv, stats, evals, features, weights, root_scores, root_margin) -> move` searches
the position ``s`` in place: every node applies a move with `rules.apply_move` and takes it back
with `rules.undo_move`, so nothing is copied and ``s`` is restored on return (also when the time
runs out). Per depth the kernel keeps one row of a move buffer, as `search.perft_kernel` does, and
walks the tree with an explicit stack (numba's cache cannot reload recursive functions reliably).

- **Iterative deepening** from depth 1 to ``max_depth``; each iteration starts from what the
  previous one left in the transposition table and the history table. It stops early on a proven
  result (a forced win or loss: deeper search cannot change it), when the root has a single legal
  move, or when half the time is gone (the next iteration would not finish). (Aspiration windows
  were tried and dropped: 0.388 against 0.575 without them, 40 games each at 0.2 s a move on the
  same openings, against an engine that was most likely the branch itself: docs/alphabeta.md.)
- **Principal-variation search**: the first move of a node is searched with the node's window, the
  others with a null window (can it beat alpha?), searched again with the window when they do.
- **Forced moves are free**: below a position with a single legal move (a forced pass, most
  often) the depth is not reduced (`child_depth`), so depth 2 against a blocked opponent still
  sees two moves of its own. And a leaf where a Queen has five occupied neighbours is searched
  one ply deeper (at most `_MAX_THREAT_PLIES` times on one line), so that a threat to surround
  it is played out (the defence, then the attacker's winning move) instead of guessed by the
  evaluation.
- **Quiescence search** (``features`` bit `QUIESCENCE`): any other leaf is not scored at once. The
  side to move may stand pat (the evaluation) or play an attacking move, one that brings a piece
  next to the opponent's Queen on an empty cell (from the hand or from a cell not already touching
  it) or onto the Queen itself, and the position after it is searched the same way, up to
  `MAX_QUIESCENCE_PLIES` such moves on a line (both sides together); the leaf scores the better of
  the two. A shallow search then sees the attack its evaluation could only guess at from reachable
  liberties, and the reply to it. Quiescence nodes are not stored in the transposition table.
  Measured in games against the search without it, depth 3 (200 games, paired openings): 0.70;
  at 0.1 s a move: 0.60 (docs/alphabeta.md).
- **A locked opponent gets a plan**: a depth-limited search whose opponent can only pass at the
  root (`opponent_locked`: every piece pinned, covered or boxed in) first looks for the shortest
  sequence of up to `DEFAULT_PLAN_MOVES` own moves, the opponent's replies forced, that surrounds
  its Queen (`locked_plan.locked_plan_kernel`) and plays its first move (the score a proven win,
  ``depth_reached`` the plan's plies, the PV the plan). Surrounding a locked Queen often takes a
  manoeuvre of three to six moves (bring a piece in without freeing the pieces that lock the
  opponent), which depth 2 never saw: it shuffled until the turn-cap draw. Where every plan length
  was searched without one, the positions after the moves that only keep the lock score as draws
  (they are added to ``seen``): the search plays its best move that gives the opponent a move,
  at the depth asked for, instead of shuffling in the fortress. Where the plan search ran out of
  nodes (`DEFAULT_PLAN_NODES`: nothing is known) the search goes one own move deeper instead
  (``depth_reached`` then says so), within `EXTENSION_NODES` nodes: past them it answers with the
  search at the depth asked for, as if it had never extended (with the opponent only passing little
  of the deeper tree is pruned; unbounded, ``alphabeta:3`` once spent 73 s on a move). Against
  random play this took ``alphabeta:2`` from 1 turn-cap draw in 400 games to none
  (docs/alphabeta.md); a locked move costs 0.24 s on average (0.41 s with the extension alone, load
  4-6). A time-limited search deepens by itself.
- **Scores** for the side to move (`hive_envs.core.alphabeta`): a finished game scores
  ``±(WIN_SCORE - ply)`` (shortest win, longest loss) or 0 for a draw (both Queens surrounded,
  the double pass, the turn cap ``I_MAX_TURNS``); a leaf at depth 0 scores `evaluation.quick_evaluate`
  (``features`` bit `GUESSED_MOBILITY`: each piece's moves guessed from the pins pass, not listed;
  without the bit `evaluation.evaluate`), through the quiescence search. The guess halves the
  evaluation's cost (1.6 times the nodes per second at depth 3) and plays as well at equal depth
  (0.505 over 200 games at depth 3 against the listed moves; docs/alphabeta.md).
- **Transposition table** keyed by `repetition.position_key` (translation-invariant, includes the
  side to move) mixed with the last-moved piece and the passes in a row (both change the legal
  moves or the result); when the turn cap is within reach of the search the ply is mixed in too,
  so that a capped and an uncapped position never share an entry. Leaves (and their quiescence
  nodes) and the root are not looked up, so a depth-1 or depth-2 search of an empty table returns
  exactly the plain minimax value (with the quiescence rule). Always-replace: the newest entry
  takes the slot, so entries of earlier moves age out as the game goes on.
- **Evaluation cache**: leaves are looked up by `eval_key` (the table key, with the ply while the
  opening rules apply) in an always-replace cache of `DEFAULT_EVAL_BITS` bits before the evaluation.
- **Repetitions score as draws**: a position (board and side to move, `position_key`) that
  occurred earlier in the game (``seen``: the sorted keys of `game_position_keys`) or earlier on
  the search path scores 0, as chess engines score repetitions. A side that is ahead then never
  shuffles back and forth (which would only end in the turn-cap draw) and looks for progress.
- **Move ordering**: the table's move, then two killer moves per ply, then the history heuristic
  (cut-offs weighted by depth squared), then a static order (moves onto a liberty of the
  opponent's Queen first, moves that take a piece away from it last, moves that free the mover's
  own Queen before moves that crowd it), then a tie-break drawn from ``seed`` (deterministic).
- **Time**: with ``time_s > 0`` the clock is read every `_CLOCK_EVERY` nodes (about a millisecond);
  from `_CLOCK_MARGIN_S` before the limit (5% of it for limits under 0.1 s) the search unwinds and
  returns the best root move of the unfinished iteration if one root move was searched in it (its
  first move is the last iteration's best, so the answer was searched deeper and beat the others
  searched), else the best move of the last completed iteration (the first ordered root move if
  none completed). The result is always a move the generator listed at the root; a forced
  pass is ``PASS_MOVE``.

``stats`` (int64[4]) receives the score, the depth of the last completed iteration, the nodes
visited and the length of the principal variation written into ``pv``
(int32[search_plies(max_depth)], which also sizes the buffers).
"""

import time

import numpy as np
from numba import njit

from hive_envs.core.alphabeta import (
    DEFAULT_TABLE_BITS,
    INFINITY,
    WIN_SCORE,
    AlphaBetaSearcher,
    aborted_result,
    begin_iteration,
    child_depth,
    child_searched,
    clear_table,
    clip_below,
    close_node,
    finish_search,
    iteration_result,
    new_frames,
    now,
    open_node,
    order_key,
    root_line,
    search_plies,
    select_next,
    table_probe,
    terminal_score,
    tie_break,
)
from hive_envs.hive.engine.game import HiveGame
from hive_envs.hive.engine.grid import NEIGHBOURS, NUM_CELLS
from hive_envs.hive.engine.jit import inline_kernel, kernel
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.moves import NUM_MOVE_IDS, PASS_MOVE, move_cell, move_piece
from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS
from hive_envs.hive.engine.repetition import game_position_keys, position_key, repeats, table_key
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
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.search.evaluation import (
    EVAL_BUFFER_SIZE,
    NUM_TERMS,
    SEARCH_WEIGHTS,
    evaluate,
    quick_evaluate,
)
from hive_envs.hive.search.locked_plan import (
    DEFAULT_PLAN_MOVES,
    DEFAULT_PLAN_NODES,
    lock_keeping_keys,
    locked_plan_kernel,
    opponent_locked,
)

MAX_DEPTH = 12
DEFAULT_DEPTH = 3

_ENTER, _UP, _NEXT = 0, 1, 2
_MAX_THREAT_PLIES = 2
_OPENING_PLIES = 8  # the move generator reads the ply only before both sides' fourth turn is over

PVS, EVAL_CACHE, QUIESCENCE, GUESSED_MOBILITY = 1, 4, 8, 16
FEATURES = {
    "pvs": PVS,
    "eval_cache": EVAL_CACHE,
    "quiescence": QUIESCENCE,
    "guessed_mobility": GUESSED_MOBILITY,
}
"""The search's optional parts by name (bits of the kernel's ``features``), so that each can be
measured by switching it off (`HiveAlphaBeta`'s ``features``)."""
ALL_FEATURES = PVS | EVAL_CACHE | QUIESCENCE | GUESSED_MOBILITY
MAX_QUIESCENCE_PLIES = 4  # attacking moves searched past the depth on one line, both sides together
DEFAULT_EVAL_BITS = 16  # 2**16 cached evaluations, 768 kB
_CLOCK_EVERY = 256  # nodes between two reads of the clock: about a millisecond of search
_CLOCK_MARGIN_S = 0.005  # the search stops this much before the limit, to unwind and answer
EXTENSION_NODES = 2_000_000
"""Nodes the locked-opponent extension (one own move deeper) may take before the search at the depth
asked for answers instead; unbounded, alphabeta:3 once took 36.6 million nodes (73 s) on one move."""


@kernel
def _queen_in_danger(s):
    """A Queen has five occupied neighbours: one move may end the game (a leaf gets one more ply)."""
    return queen_neighbours(s, 0) == 5 or queen_neighbours(s, 1) == 5


@kernel
def _winner(status):
    if status == STATUS_WHITE_WINS:
        return 0
    if status == STATUS_BLACK_WINS:
        return 1
    return -1


@kernel
def _touches(a, b):
    for d in range(6):
        if NEIGHBOURS[a * 6 + d] == b:
            return True
    return False


@inline_kernel
def _rank(is_queen, origin, enemy_in, own_in, dest_enemy, origin_enemy, dest_own, origin_own):
    """`static_order` from what the move does next to each Queen (``*_enemy`` / ``*_own``: the
    destination or origin cell touches the opponent's / the mover's Queen, which is in play if
    ``enemy_in`` / ``own_in``; ``origin`` -1 for a placement)."""
    rank = 4
    if enemy_in:
        if dest_enemy and (origin < 0 or not origin_enemy):
            rank += 3
        elif origin >= 0 and origin_enemy and not dest_enemy:
            rank -= 3
    if own_in and not is_queen:
        if origin >= 0 and origin_own and not dest_own:
            rank += 1
        elif dest_own:
            rank -= 1
    return rank


@kernel
def static_order(s, move):
    """Cheap a-priori rank of a move (higher first): see the module docstring."""
    if move == PASS_MOVE:
        return 0
    piece = move_piece(move)
    dest = move_cell(move)
    me = s[I_TO_MOVE]
    origin = s[PCELL + piece]
    enemy_queen = s[PCELL + (1 - me) * NUM_PIECE_SLOTS]
    own_queen = s[PCELL + me * NUM_PIECE_SLOTS]
    enemy_in, own_in = enemy_queen >= 0, own_queen >= 0
    return _rank(
        piece == me * NUM_PIECE_SLOTS,
        origin,
        enemy_in,
        own_in,
        enemy_in and _touches(dest, enemy_queen),
        enemy_in and origin >= 0 and _touches(origin, enemy_queen),
        own_in and _touches(dest, own_queen),
        own_in and origin >= 0 and _touches(origin, own_queen),
    )


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
    how many: the quiescence search's moves. ``near`` is stamped for this node (`mark_queen_rings`)."""
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
def _marked_order(s, move, near, stamp):
    """`static_order` with the Queens' neighbours looked up in ``near`` (`mark_queen_rings`)."""
    if move == PASS_MOVE:
        return 0
    piece = move_piece(move)
    dest = move_cell(move)
    me = s[I_TO_MOVE]
    origin = s[PCELL + piece]
    return _rank(
        piece == me * NUM_PIECE_SLOTS,
        origin,
        s[PCELL + (1 - me) * NUM_PIECE_SLOTS] >= 0,
        s[PCELL + me * NUM_PIECE_SLOTS] >= 0,
        near[0, dest] == stamp,
        origin >= 0 and near[0, origin] == stamp,
        near[1, dest] == stamp,
        origin >= 0 and near[1, origin] == stamp,
    )


@kernel
def eval_key(s, board_key):
    """Key of ``s`` in the evaluation cache: `table_key` with the ply mixed in while the opening
    rules (first placements, the Queen by the fourth turn), which `evaluate` sees through the move
    generator, can still apply."""
    return table_key(s, board_key, s[I_PLY] < _OPENING_PLIES)


@kernel
def _leaf_value(s, w, eval_buffer, weights, guessed):
    """`quick_evaluate` (the moves guessed) or `evaluate` (listed)."""
    if guessed:
        return quick_evaluate(s, w, eval_buffer, weights)
    return evaluate(s, w, eval_buffer, weights)


@kernel
def _cached_evaluate(s, w, eval_buffer, board_key, eval_keys, eval_values, weights, guessed):
    """`_leaf_value`, looked up first in the (always-replace) evaluation cache."""
    key = eval_key(s, board_key)
    slot = np.int64(key & np.uint64(eval_keys.shape[0] - 1))
    if eval_keys[slot] == key:
        return eval_values[slot]
    value = _leaf_value(s, w, eval_buffer, weights, guessed)
    eval_keys[slot] = key
    eval_values[slot] = value
    return value


# Why this loop and Hoyito's (`hive_envs.hoyito.search.alphabeta.alphabeta_kernel`) are two bodies:
# what they can share without a cost is shared already (`hive_envs.core.alphabeta`: the frames, the
# table, the ordering key, the child bookkeeping, the iteration results). The rest is the per-game
# node step: Hive applies and undoes in place and adds repetitions, the threat extension, PVS and
# the evaluation cache; Hoyito copies a small state per ply and keeps the side on an extra turn.
# One body would have to take those steps as functions: numba compiles such a kernel once per game
# anyway (it specialises on each function's type), and its disk cache does not keep a function that
# takes jitted functions as arguments or closes over them (numba issues #2956, #9237, #2065), so
# every process would compile the search again: the cold start the cache exists to avoid.
# nogil: a search touches only its own searcher's arrays, so threads with a searcher each run searches
# at once (the rule features' deeper searched value, `hive_envs.agents.hive_features`).
@njit(cache=True, nogil=True)
def alphabeta_kernel(
    s,
    w,
    max_depth,
    time_s,
    node_limit,
    seed,
    table,
    use_table,
    seen,
    pv,
    stats,
    evals,
    features,
    weights,
    root_scores,
    root_margin,
):
    """Best move for the side to move in ``s`` (not finished); see the module docstring.

    ``node_limit`` (0: none): past that many nodes the search gives up and returns -1, ``stats[2]``
    the nodes it visited (the caller of a bounded extension then searches the depth it was asked for).

    ``evals``: the evaluation cache (uint64 keys, int32 values, a power-of-two length, kept between
    searches with the same ``weights``); ``features``: the bits of `FEATURES` to use (`ALL_FEATURES`
    in play); ``weights``: the evaluation's (`evaluation.evaluate`).

    ``root_scores`` (int64[`NUM_MOVE_IDS`], or empty: off): every root move's score is written at its
    move id, each root move searched with the window (best so far - ``root_margin``, +inf) instead of
    the root's alpha-beta window, so a score within ``root_margin`` of the best is exact and a lower
    one is at most best - ``root_margin`` (`HiveAlphaBeta.move_scores`)."""
    start = now()
    deadline = start + time_s - min(_CLOCK_MARGIN_S, 0.05 * time_s)
    plies = pv.shape[0]  # search_plies(max_depth): room for forced-move extensions
    frames = new_frames(plies)
    count, index, alpha, beta = frames[0], frames[1], frames[2], frames[4]
    best, best_move = frames[5], frames[6]
    depth_left, node_keys, line_len = frames[7], frames[8], frames[10]
    moves = np.empty((plies, MAX_MOVES), dtype=np.int32)
    order = np.empty((plies, MAX_MOVES), dtype=np.int32)
    recs = np.empty((plies, UNDO_SIZE), dtype=np.int32)
    path_keys = np.zeros(plies, dtype=np.uint64)
    threat_plies = np.zeros(plies, dtype=np.int64)  # threat extensions on the path to each ply
    scout = np.zeros(plies, dtype=np.int64)  # 1: the child of each ply is searched with a null window
    again = np.zeros(plies, dtype=np.int64)  # 1: search the same move again with the whole window
    history = np.zeros(NUM_MOVE_IDS, dtype=np.int32)
    probe = np.zeros(2, dtype=np.int64)
    eval_buffer = np.empty(EVAL_BUFFER_SIZE, dtype=np.int32)
    near = np.zeros((2, NUM_CELLS), dtype=np.int64)  # the Queens' neighbours, stamped per node
    eval_keys, eval_values = evals
    scoring = root_scores.shape[0] > 0
    use_pvs = (features & PVS) != 0
    use_evals = (features & EVAL_CACHE) != 0
    use_quiescence = (features & QUIESCENCE) != 0
    guessed = (features & GUESSED_MOBILITY) != 0
    # Quiescence nodes above each ply on its line. A node that opens its moves with no depth left is
    # a quiescence node: a full leaf is scored, or extended to depth 1, before it opens any.
    quiet_plies = np.zeros(plies, dtype=np.int64)
    with_ply = s[I_MAX_TURNS] > 0 and s[I_PLY] + plies >= s[I_MAX_TURNS]

    path_keys[0] = position_key(s)
    nodes = 0
    result_move, result_score, depth_reached, pv_len = -1, 0, 0, 0
    aborted = over_limit = False
    for depth in range(1, max_depth + 1):
        if time_s > 0 and depth > 1 and now() - start > 0.5 * time_s:
            break
        begin_iteration(frames, depth)
        ply = 0
        phase = _ENTER
        value = 0
        while True:
            if phase == _ENTER:
                nodes += 1
                if time_s > 0 and ply > 0 and nodes % _CLOCK_EVERY == 0 and now() > deadline:
                    aborted = True
                    break
                if node_limit > 0 and ply > 0 and nodes > node_limit:
                    aborted = over_limit = True
                    break
                line_len[ply] = 0
                status = s[I_STATUS]
                if ply > 0 and status != 0:
                    value = terminal_score(_winner(status), s[I_TO_MOVE], ply)
                    phase = _UP
                    continue
                if ply > 0:
                    path_keys[ply] = position_key(s)
                    if repeats(path_keys[ply], seen, path_keys, ply):
                        value = 0
                        phase = _UP
                        continue
                if depth_left[ply] == 0:
                    if (
                        quiet_plies[ply] > 0
                        or threat_plies[ply] >= _MAX_THREAT_PLIES
                        or ply + 1 >= plies
                        or not _queen_in_danger(s)
                    ):
                        if use_evals:
                            value = _cached_evaluate(
                                s, w, eval_buffer, path_keys[ply], eval_keys, eval_values, weights, guessed
                            )
                        else:
                            value = _leaf_value(s, w, eval_buffer, weights, guessed)
                        if (
                            not use_quiescence
                            or value >= beta[ply]
                            or quiet_plies[ply] >= MAX_QUIESCENCE_PLIES
                            or ply + 1 >= plies
                        ):
                            phase = _UP
                            continue
                        n = generate_moves(s, w, moves[ply])
                        mark_queen_rings(s, near, nodes)
                        n = attacking_moves(s, moves[ply], n, near, nodes)
                        if n == 0:
                            phase = _UP
                            continue
                        for i in range(n):
                            m = moves[ply, i]
                            order[ply, i] = _marked_order(s, m, near, nodes) * 16 + tie_break(seed, m)
                        open_node(frames, ply, n)
                        best[ply] = value  # stand pat: the side to move need not attack
                        alpha[ply] = max(alpha[ply], value)
                        again[ply] = 0
                        phase = _NEXT
                        continue
                    threat_plies[ply] += 1
                    depth_left[ply] = 1
                table_move = -1
                if use_table:
                    node_keys[ply] = table_key(s, path_keys[ply], with_ply)
                    hit = table_probe(
                        table, node_keys[ply], depth_left[ply], alpha[ply], beta[ply], ply, probe
                    )
                    table_move = probe[0]
                    if hit and ply > 0:
                        value = probe[1]
                        phase = _UP
                        continue
                n = generate_moves(s, w, moves[ply])
                mark_queen_rings(s, near, nodes)
                for i in range(n):
                    m = moves[ply, i]
                    order[ply, i] = order_key(
                        frames, ply, m, table_move, _marked_order(s, m, near, nodes), history, seed
                    )
                open_node(frames, ply, n)
                again[ply] = 0
                phase = _NEXT
            elif phase == _UP:
                ply -= 1
                undo_move(s, recs[ply])
                v = -value
                if scoring and ply == 0:
                    root_scores[moves[0, index[0]]] = v
                if scout[ply] == 1 and alpha[ply] < v < beta[ply]:
                    again[ply] = 1  # the null-window search failed high: search it with the window
                else:
                    child_searched(frames, history, ply, moves[ply, index[ply]], v)
                phase = _NEXT
            elif index[ply] < count[ply]:
                i = index[ply]
                if again[ply] == 0:
                    select_next(moves[ply], order[ply], i, count[ply])
                apply_move(s, moves[ply, i], recs[ply])
                if scoring and ply == 0:  # every root move: exact down to the best - the margin
                    alpha[1] = -INFINITY
                    beta[1] = min(INFINITY, root_margin - best[0])
                    scout[0] = 0
                elif use_pvs and i > 0 and again[ply] == 0:
                    alpha[ply + 1] = -alpha[ply] - 1
                    beta[ply + 1] = -alpha[ply]
                    scout[ply] = 1
                else:
                    alpha[ply + 1] = -beta[ply]
                    beta[ply + 1] = -alpha[ply]
                    scout[ply] = 0
                quiet = depth_left[ply] == 0
                depth_left[ply + 1] = 0 if quiet else child_depth(depth_left[ply], count[ply], ply, plies)
                quiet_plies[ply + 1] = quiet_plies[ply] + quiet
                again[ply] = 0
                threat_plies[ply + 1] = threat_plies[ply]
                ply += 1
                phase = _ENTER
            else:
                value = close_node(frames, table, use_table and depth_left[ply] > 0, ply)
                if ply == 0:
                    break
                phase = _UP
        if aborted:
            for p in range(ply - 1, -1, -1):
                undo_move(s, recs[p])
            if over_limit:
                stats[2] = nodes
                return -1
            if best_move[0] >= 0:
                # Root moves searched in this unfinished iteration: the best of them, searched deeper
                # than the last iteration, is the better answer.
                result_move, result_score, pv_len = best_move[0], best[0], root_line(frames, pv)
            else:
                result_move, result_score = aborted_result(frames, moves[0], result_move, result_score)
            break
        result_move, result_score, pv_len, stop = iteration_result(frames, pv)
        depth_reached = depth
        if stop:
            break
    return finish_search(stats, pv, pv_len, result_move, result_score, depth_reached, nodes)


_NO_SCORES = np.empty(0, dtype=np.int64)  # the kernel's root_scores for a plain search
_UNSCORED = -4 * WIN_SCORE  # a move id the root did not list


MAX_WEIGHT = 1000
"""Largest weight magnitude `HiveAlphaBeta` takes: every evaluation then stays far below `WIN_SCORE`
(no term counts more than about a hundred), so no position scores as a proven result."""


def _checked_weights(weights) -> np.ndarray:
    array = np.asarray(weights)
    if (
        array.shape != (NUM_TERMS,)
        or not np.issubdtype(array.dtype, np.integer)
        or np.abs(array.astype(np.int64)).max() > MAX_WEIGHT
    ):
        raise ValueError(
            f"HiveAlphaBeta weights must be {NUM_TERMS} integers in [-{MAX_WEIGHT}, {MAX_WEIGHT}], got {weights!r}"
        )
    return np.array(array, dtype=np.int32)  # a copy: the searcher's own


_kernels_loaded = False


def _load_kernels() -> None:
    """Run the search once in this process, on the empty board, when the first `HiveAlphaBeta` is
    made: numba loads a compiled kernel from its disk cache on the kernel's first call (a quarter of
    a second, more on a loaded machine; it compiles it when there is no cache), and inside a timed
    search that time would come on top of the limit (the first move of each arena worker was 0.24-0.27
    s over 1 s before this)."""
    global _kernels_loaded
    if not _kernels_loaded:
        _kernels_loaded = True
        HiveAlphaBeta(depth=1, table_bits=10).search(HiveGame("Base"))


class HiveAlphaBeta(AlphaBetaSearcher):
    """The alpha-beta searcher for Hive: `alphabeta_kernel` behind `AlphaBetaSearcher`'s
    ``search(game, depth=None, time_s=None) -> SearchResult`` and ``choose(game) -> move id``.

    The game is never changed: the kernel runs on a copy of its state array. Positions the game went
    through (replayed from `HiveGame.start_state` in one compiled call) score as draws inside the
    search, whether or not the game was created with ``repetition_draw=True``.

    ``keep_table`` (default True): a time-limited search keeps the transposition table of the
    searches before it (the moves of a game share most of their trees); a depth-limited search
    clears it, and so does every search with False, so that the answer depends only on the
    position. The evaluation cache (exact evaluations: it changes no answer) is kept; both are
    cleared when a game of other options (game type, tournament rule, turn cap) is searched. ``features``: the bits of
    `FEATURES` the search uses (all by default; fewer only to measure what each is worth).
    ``weights``: the evaluation's (`evaluation.evaluate`, int32[`NUM_TERMS`]; `SEARCH_WEIGHTS` by
    default), for measuring other weights against them (`tools/tune_hive_evaluation.py`).
    """

    game_class = HiveGame
    max_depth = MAX_DEPTH
    default_depth = DEFAULT_DEPTH

    def __init__(
        self,
        depth=None,
        time_s=None,
        seed=0,
        table_bits=DEFAULT_TABLE_BITS,
        keep_table=True,
        features=ALL_FEATURES,
        weights=None,
    ):
        super().__init__(depth, time_s, seed, table_bits)
        if (
            isinstance(features, bool)
            or not isinstance(features, int)
            or features < 0
            or features & ~ALL_FEATURES
        ):
            raise ValueError(
                f"HiveAlphaBeta features must be an int of the bits of FEATURES {FEATURES}, got {features!r}"
            )
        self.weights = _checked_weights(SEARCH_WEIGHTS if weights is None else weights)
        self.keep_table = bool(keep_table)
        self.features = features
        self._w = new_workspace()  # the move generator's scratch, reused by every search
        self._moves = np.empty(MAX_MOVES, dtype=np.int32)
        self._evals = (
            np.zeros(1 << DEFAULT_EVAL_BITS, dtype=np.uint64),
            np.zeros(1 << DEFAULT_EVAL_BITS, dtype=np.int32),
        )
        self._options: tuple | None = None  # the game options the kept table and cache belong to
        _load_kernels()

    def move_scores(
        self, game: HiveGame, moves: np.ndarray, depth: int, margin: int | None = None
    ) -> tuple[np.ndarray, int]:
        """`AlphaBetaSearcher.move_scores` in one kernel call: the root search at ``depth`` with every
        root move searched with the window (best so far - ``margin``, +inf), so a move more than
        ``margin`` below the best costs a refutation, not an exact score; the table is shared by the
        moves' subtrees (so a score can differ from a separate search of the position after the move
        where the table carries a deeper result across, as in any root search). The locked-opponent
        plan is not used. Deeper than `MAX_DEPTH`: the separate searches."""
        if depth > self.max_depth:
            return super().move_scores(game, moves, depth, margin)
        self._check_move_scores(game, moves, depth, margin)
        seen = self._prepare(game, clear=True)  # the scores depend only on the position
        scores = np.full(NUM_MOVE_IDS, _UNSCORED, dtype=np.int64)
        pv = np.zeros(search_plies(depth), dtype=np.int32)
        stats = np.zeros(4, dtype=np.int64)
        kernel_margin = 2 * INFINITY if margin is None else int(margin)
        self._kernel(game.state.copy(), depth, 0.0, 0, seen, self._table, pv, stats, scores, kernel_margin)
        found = scores[np.asarray(moves, dtype=np.int64)]
        if (found == _UNSCORED).any():
            raise ValueError(
                f"HiveAlphaBeta.move_scores: not legal moves here: {np.asarray(moves)[found == _UNSCORED]}"
            )
        return clip_below(found.astype(np.float64), margin), int(stats[2])

    def _prepare(self, game: HiveGame, clear: bool) -> np.ndarray:
        """Clear the table and cache where ``game``'s options differ from the last search's, and the
        table when ``clear``; returns the sorted keys of the positions the game went through."""
        options = (game.game_type, game.tournament_opening, game.max_turns)
        if options != self._options:
            if self._options is not None:  # a new searcher's table and cache are empty already
                clear_table(self._table)
                self._evals[0][:] = 0  # key 0 is never a position's key in practice: an empty slot
            self._options = options
        elif clear:
            clear_table(self._table)
        return np.sort(game_position_keys(game.start_state, np.asarray(game.move_ids, dtype=np.int32)))

    def _run_kernel(self, game: HiveGame, depth, time_s, table, pv, stats) -> int:
        started = time.perf_counter()
        # depth-limited: the plain search of this position (the ladder's yardsticks); `search` has
        # cleared the table already when it is not kept
        seen = self._prepare(game, clear=time_s == 0 and self.keep_table)
        state = game.state.copy()
        extension_nodes = 0
        if time_s == 0 and depth < MAX_DEPTH and opponent_locked(state, self._w, self._moves):
            move, fortress = self._locked_plan(state, seen, pv, stats)
            if move >= 0:
                return move
            if fortress is not None:  # no plan: keeping the lock only leads to the turn-cap draw
                seen = np.union1d(seen, fortress)
            else:  # the plan search ran out of nodes: one more own move, within its own nodes
                move = self._extended_search(state, depth, seen, table, pv, stats)
                if move >= 0:
                    return move
                clear_table(table)  # past its nodes: the search asked for, as if never extended
                extension_nodes = int(stats[2])
        if time_s > 0:  # the time spent here counts: the kernel gets what is left
            time_s = max(time_s - (time.perf_counter() - started), 1e-6)
        move = self._kernel(state, depth, time_s, 0, seen, table, pv, stats)
        stats[2] += extension_nodes
        return move

    def _extended_search(self, state, depth, seen, table, pv, stats) -> int:
        """The search one depth deeper than asked (module docstring, locked opponent), its line copied
        into ``pv`` as far as it holds; -1 (``stats[2]`` its nodes) past `EXTENSION_NODES` nodes."""
        deeper_pv = np.zeros(search_plies(depth + 1), dtype=np.int32)
        move = self._kernel(state, depth + 1, 0.0, EXTENSION_NODES, seen, table, deeper_pv, stats)
        if move >= 0:
            stats[3] = min(stats[3], pv.shape[0])
            pv[:] = deeper_pv[: pv.shape[0]]
        return move

    def _kernel(
        self, state, depth, time_s, node_limit, seen, table, pv, stats, root_scores=None, root_margin=0
    ) -> int:
        return alphabeta_kernel(
            state,
            self._w,
            depth,
            time_s,
            node_limit,
            self.seed,
            table,
            True,
            seen,
            pv,
            stats,
            self._evals,
            self.features,
            self.weights,
            _NO_SCORES if root_scores is None else root_scores,
            root_margin,
        )

    def _locked_plan(self, state, seen, pv, stats) -> tuple[int, np.ndarray | None]:
        """Against a locked opponent: the first move of the shortest plan that surrounds its Queen
        (`locked_plan_kernel`; ``stats`` and ``pv`` filled as the kernel's) and None; or -1 and,
        when every plan length was searched without one, the positions after the moves that keep
        the lock (`lock_keeping_keys`), to be scored as draws; -1 and None if the budget ran out."""
        plan = np.zeros(2 * DEFAULT_PLAN_MOVES - 1, dtype=np.int32)
        plan_stats = np.zeros(2, dtype=np.int64)
        length = locked_plan_kernel(
            state, self._w, DEFAULT_PLAN_MOVES, DEFAULT_PLAN_NODES, seen, plan, plan_stats
        )
        if length == 0:
            return -1, (lock_keeping_keys(state, self._w) if plan_stats[1] == 0 else None)
        plies = 2 * length - 1
        shown = min(plies, pv.shape[0])
        pv[:shown] = plan[:shown]
        stats[0] = WIN_SCORE - plies
        stats[1] = plies
        stats[2] = plan_stats[0]
        stats[3] = shown
        return int(plan[0]), None
