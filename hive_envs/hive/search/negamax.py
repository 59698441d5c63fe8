"""The compiled alpha-beta search of Hive (negamax, iterative deepening) behind `HiveAlphaBeta`.

``alphabeta_kernel(s, w, limits, settings, tables, evaluation, seen, out) -> move`` searches the position
``s`` in place: every node applies a move with `rules.apply_move` and takes it back with
`rules.undo_move`, so nothing is copied and ``s`` is restored on return (also when the time runs out).
Its arguments come grouped (`SearchLimits`, `SearchSettings`, `SearchTables`, `SearchOutput`), and the
buffers of one search travel together (`_Search`), so that no compiled function takes more than a
dozen. Per depth the kernel keeps one row of a move buffer, as `perft_kernel` does, and walks the tree
with an explicit stack (numba's cache cannot reload recursive functions reliably); each step of a node
is a function of its own, inlined by numba into the one loop (`_enter`, `_leaf`, `_open`, `_descend`,
`_child_searched`).

- **Iterative deepening** from depth 1 to ``max_depth``; each iteration starts from what the
  previous one left in the transposition table and the history table. It stops early on a proven
  result (a forced win or loss: deeper search cannot change it), when the root has a single legal
  move, or when half the time is gone (the next iteration would not finish).
- **Principal-variation search** (``features`` bit `PVS`): the first move of a node is searched with
  the node's window, the others with a null window (can it beat alpha?), searched again with the
  window when they do.
- **Forced moves are free**: below a position with a single legal move (a forced pass, most
  often) the depth is not reduced (`child_depth`), so depth 2 against a blocked opponent still
  sees two moves of its own. And a leaf where a Queen has five occupied neighbours is searched
  one ply deeper (at most `_MAX_THREAT_PLIES` times on one line), so that a threat to surround
  it is played out (the defence, then the attacker's winning move) instead of guessed by the
  evaluation.
- **Quiescence search** (``features`` bit `QUIESCENCE`): any other leaf is not scored at once. The
  side to move may stand pat (the evaluation) or play an attacking move (`ordering.attacking_moves`:
  one that brings a piece next to the opponent's Queen on an empty cell, from the hand or from a cell
  not already touching it, or onto the Queen itself), and the position after it is searched the same
  way, up to `MAX_QUIESCENCE_PLIES` such moves on a line (both sides together); the leaf scores the
  better of the two. A shallow search then sees the attack its evaluation could only guess at from
  reachable liberties, and the reply to it. Quiescence nodes are not stored in the transposition table.
- **Scores** for the side to move (`hive_envs.core.alphabeta`): a finished game scores
  ``±(WIN_SCORE - ply)`` (shortest win, longest loss) or 0 for a draw (both Queens surrounded,
  the double pass, the turn cap ``I_MAX_TURNS``); a leaf at depth 0 scores `evaluation.quick_evaluate`
  (``features`` bit `GUESSED_MOBILITY`: each piece's moves guessed from the pins pass, not listed;
  without the bit `evaluation.evaluate`), or, given a learned network (``evaluation``:
  `learned.LeafEvaluation`), `learned.learned_evaluate`, through the quiescence search.
- **Transposition table** keyed by `repetition.position_key` (translation-invariant, includes the
  side to move) mixed with the last-moved piece and the passes in a row (both change the legal
  moves or the result); when the turn cap is within reach of the search the ply is mixed in too,
  so that a capped and an uncapped position never share an entry. Leaves (and their quiescence
  nodes) and the root are not looked up, so a depth-1 or depth-2 search of an empty table returns
  exactly the plain minimax value (with the quiescence rule). Always-replace: the newest entry
  takes the slot, so entries of earlier moves age out as the game goes on.
- **Evaluation cache** (``features`` bit `EVAL_CACHE`): leaves are looked up by `eval_key` (the table
  key, with the ply while the opening rules apply) in an always-replace cache of `DEFAULT_EVAL_BITS`
  bits before the evaluation.
- **Repetitions score as draws**: a position (board and side to move, `position_key`) that
  occurred earlier in the game (``seen``: the sorted keys of `repetition.game_position_keys`) or
  earlier on the search path scores 0, as chess engines score repetitions. A side that is ahead then
  never shuffles back and forth (which would only end in the turn-cap draw) and looks for progress.
- **Move ordering**: the table's move, then two killer moves per ply, then the history heuristic
  (cut-offs weighted by depth squared), then the static order of `ordering` (what the move does next
  to each Queen), then a tie-break drawn from ``seed`` (deterministic).
- **Time**: with ``time_s > 0`` the clock is read every `_CLOCK_EVERY` nodes (about a millisecond);
  from `_CLOCK_MARGIN_S` before the limit (5% of it for limits under 0.1 s) the search unwinds and
  returns the best root move of the unfinished iteration if one root move was searched in it (its
  first move is the last iteration's best, so the answer was searched deeper and beat the others
  searched), else the best move of the last completed iteration (the first ordered root move if
  none completed). The result is always a move the generator listed at the root; a forced
  pass is ``PASS_MOVE``.

``out.stats`` (int64[4]) receives the score, the depth of the last completed iteration, the nodes
visited and the length of the principal variation written into ``out.pv``
(int32[search_plies(max_depth)], which also sizes the buffers).
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from hive_envs.core.alphabeta import (
    INFINITY,
    aborted_result,
    begin_iteration,
    child_depth,
    child_searched,
    close_node,
    finish_search,
    iteration_result,
    new_frames,
    now,
    open_node,
    order_key,
    root_line,
    select_next,
    table_probe,
    terminal_score,
    tie_break,
)
from hive_envs.hive.engine.grid import NUM_CELLS
from hive_envs.hive.engine.jit import inline_kernel, kernel
from hive_envs.hive.engine.movegen import MAX_MOVES, generate_moves
from hive_envs.hive.engine.moves import NUM_MOVE_IDS
from hive_envs.hive.engine.repetition import position_key, repeats, table_key
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move, queen_neighbours, undo_move
from hive_envs.hive.engine.state import (
    I_MAX_TURNS,
    I_PLY,
    I_STATUS,
    I_TO_MOVE,
    STATUS_BLACK_WINS,
    STATUS_WHITE_WINS,
)
from hive_envs.hive.search.evaluation import EVAL_BUFFER_SIZE, evaluate, quick_evaluate
from hive_envs.hive.search.learned import learned_evaluate
from hive_envs.hive.search.ordering import attacking_moves, mark_queen_rings, marked_order

PVS, EVAL_CACHE, QUIESCENCE, GUESSED_MOBILITY = 1, 4, 8, 16
FEATURES = {
    "pvs": PVS,
    "eval_cache": EVAL_CACHE,
    "quiescence": QUIESCENCE,
    "guessed_mobility": GUESSED_MOBILITY,
}
"""The search's optional parts by name (bits of `SearchSettings.features`), so that each can be
measured by switching it off (`HiveAlphaBeta`'s ``features``)."""
ALL_FEATURES = PVS | EVAL_CACHE | QUIESCENCE | GUESSED_MOBILITY
MAX_QUIESCENCE_PLIES = 4  # attacking moves searched past the depth on one line, both sides together
DEFAULT_EVAL_BITS = 16  # 2**16 cached evaluations, 768 kB
NO_ROOT_SCORES = np.empty(0, dtype=np.int64)
"""`SearchOutput.root_scores` of a plain search (no root move scored)."""

_ENTER, _UP, _NEXT = 0, 1, 2  # the phases of the node at the top of the stack
_COMPLETED, _ABORTED, _OVER_LIMIT = 0, 1, 2  # how an iteration ended
_MAX_THREAT_PLIES = 2
_OPENING_PLIES = 8  # the move generator reads the ply only before both sides' fourth turn is over
_CLOCK_EVERY = 256  # nodes between two reads of the clock: about a millisecond of search
_CLOCK_MARGIN_S = 0.005  # the search stops this much before the limit, to unwind and answer


class SearchLimits(NamedTuple):
    """How far `alphabeta_kernel` searches."""

    max_depth: int
    """Iterative deepening up to this many plies."""
    time_s: float
    """Seconds, a float (0.0: no limit)."""
    node_limit: int
    """Past this many nodes the search gives up and returns -1, ``stats[2]`` the nodes it visited (the
    caller of a bounded extension then searches the depth it was asked for); 0: no limit."""


class SearchSettings(NamedTuple):
    """How `alphabeta_kernel` searches."""

    seed: int
    """Draws the tie-break between moves the ordering cannot tell apart."""
    features: int
    """The bits of `FEATURES` to use (`ALL_FEATURES` in play)."""
    use_table: bool
    """Probe and store the transposition table."""
    root_margin: int
    """With `SearchOutput.root_scores`: each root move is searched with the window (best so far -
    ``root_margin``, +inf) instead of the root's alpha-beta window, so a score within ``root_margin``
    of the best is exact and a lower one is at most best - ``root_margin``."""


class SearchTables(NamedTuple):
    """What `alphabeta_kernel` keeps between searches."""

    table: tuple
    """The transposition table (`hive_envs.core.alphabeta.new_table`)."""
    evals: tuple
    """The evaluation cache: (uint64 keys, int32 values), a power-of-two length, kept between
    searches with the same weights."""


class SearchOutput(NamedTuple):
    """Where `alphabeta_kernel` writes its answer besides the move it returns."""

    pv: np.ndarray
    """int32[search_plies(max_depth)]: the principal variation (its length also sizes the buffers)."""
    stats: np.ndarray
    """int64[4]: score, depth of the last completed iteration, nodes, length of the PV."""
    root_scores: np.ndarray
    """int64[`NUM_MOVE_IDS`]: every root move's score at its move id (`HiveAlphaBeta.move_scores`);
    `NO_ROOT_SCORES`: off."""


class _Search(NamedTuple):
    """One search's position, tables and buffers, as every node step reads them."""

    s: np.ndarray
    w: np.ndarray
    seen: np.ndarray
    evaluation: tuple  # `learned.LeafEvaluation`
    table: tuple
    eval_keys: np.ndarray
    eval_values: np.ndarray
    root_scores: np.ndarray
    frames: tuple  # `hive_envs.core.alphabeta.new_frames`: the per-ply window, best move, depth left ...
    moves: np.ndarray  # each ply's moves
    order: np.ndarray  # their ordering keys
    recs: np.ndarray  # each ply's undo record
    path_keys: np.ndarray  # `position_key` of each ply's position
    threat_plies: np.ndarray  # threat extensions on the path to each ply
    quiet_plies: np.ndarray  # quiescence nodes above each ply on its line
    scout: np.ndarray  # 1: the child of each ply is searched with a null window
    again: np.ndarray  # 1: search the same move again with the whole window
    history: np.ndarray  # the history heuristic's count per move id
    probe: np.ndarray  # a table probe's move and score
    eval_buffer: np.ndarray
    near: np.ndarray  # the Queens' neighbours, stamped per node (`ordering.mark_queen_rings`)
    plies: int
    seed: int
    root_margin: int
    use_table: bool
    use_pvs: bool
    use_evals: bool
    use_quiescence: bool
    guessed: bool
    scoring: bool
    with_ply: bool


@njit(cache=True)
def _new_search(s, w, settings, tables, evaluation, seen, out):
    plies = out.pv.shape[0]  # search_plies(max_depth): room for forced-move extensions
    features = settings.features
    eval_keys, eval_values = tables.evals
    # (every argument a plain name: numba refuses a call of more than 30 arguments with branches in them)
    use_pvs = (features & PVS) != 0
    use_evals = (features & EVAL_CACHE) != 0
    use_quiescence = (features & QUIESCENCE) != 0
    guessed = (features & GUESSED_MOBILITY) != 0
    scoring = out.root_scores.shape[0] > 0
    with_ply = s[I_MAX_TURNS] > 0 and s[I_PLY] + plies >= s[I_MAX_TURNS]
    return _Search(
        s,
        w,
        seen,
        evaluation,
        tables.table,
        eval_keys,
        eval_values,
        out.root_scores,
        new_frames(plies),
        np.empty((plies, MAX_MOVES), dtype=np.int32),
        np.empty((plies, MAX_MOVES), dtype=np.int32),
        np.empty((plies, UNDO_SIZE), dtype=np.int32),
        np.zeros(plies, dtype=np.uint64),
        np.zeros(plies, dtype=np.int64),
        np.zeros(plies, dtype=np.int64),
        np.zeros(plies, dtype=np.int64),
        np.zeros(plies, dtype=np.int64),
        np.zeros(NUM_MOVE_IDS, dtype=np.int32),
        np.zeros(2, dtype=np.int64),
        np.empty(EVAL_BUFFER_SIZE, dtype=np.int32),
        np.zeros((2, NUM_CELLS), dtype=np.int64),
        plies,
        settings.seed,
        settings.root_margin,
        settings.use_table,
        use_pvs,
        use_evals,
        use_quiescence,
        guessed,
        scoring,
        with_ply,
    )


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
def eval_key(s, board_key):
    """Key of ``s`` in the evaluation cache: `table_key` with the ply mixed in while the opening
    rules (first placements, the Queen by the fourth turn), which `evaluate` sees through the move
    generator, can still apply."""
    return table_key(s, board_key, s[I_PLY] < _OPENING_PLIES)


@kernel
def _leaf_value(s, w, eval_buffer, evaluation, guessed):
    """The learned network's score when ``evaluation`` has one, else `quick_evaluate` (the moves
    guessed) or `evaluate` (listed) with its weights."""
    network = evaluation.network
    if network.output_weights.shape[0] > 0:
        return learned_evaluate(s, w, eval_buffer, network, evaluation.scratch)
    if guessed:
        return quick_evaluate(s, w, eval_buffer, evaluation.weights)
    return evaluate(s, w, eval_buffer, evaluation.weights)


@kernel
def _cached_evaluate(s, w, eval_buffer, board_key, eval_keys, eval_values, evaluation, guessed):
    """`_leaf_value`, looked up first in the (always-replace) evaluation cache."""
    key = eval_key(s, board_key)
    slot = np.int64(key & np.uint64(eval_keys.shape[0] - 1))
    if eval_keys[slot] == key:
        return eval_values[slot]
    value = _leaf_value(s, w, eval_buffer, evaluation, guessed)
    eval_keys[slot] = key
    eval_values[slot] = value
    return value


@inline_kernel
def _leaf(c, ply, stamp):
    """A leaf at ``ply``: (`_UP`, its evaluation), or with the quiescence rule and no cut-off by standing
    pat, (`_NEXT`, the evaluation) with its attacking moves opened (``stamp``: new at every node)."""
    alpha, beta = c.frames[2], c.frames[4]
    s = c.s
    if c.use_evals:
        value = _cached_evaluate(
            s, c.w, c.eval_buffer, c.path_keys[ply], c.eval_keys, c.eval_values, c.evaluation, c.guessed
        )
    else:
        value = _leaf_value(s, c.w, c.eval_buffer, c.evaluation, c.guessed)
    if (
        not c.use_quiescence
        or value >= beta[ply]
        or c.quiet_plies[ply] >= MAX_QUIESCENCE_PLIES
        or ply + 1 >= c.plies
    ):
        return _UP, value
    n = generate_moves(s, c.w, c.moves[ply])
    mark_queen_rings(s, c.near, stamp)
    n = attacking_moves(s, c.moves[ply], n, c.near, stamp)
    if n == 0:
        return _UP, value
    for i in range(n):
        m = c.moves[ply, i]
        c.order[ply, i] = marked_order(s, m, c.near, stamp) * 16 + tie_break(c.seed, m)
    open_node(c.frames, ply, n)
    c.frames[5][ply] = value  # the best so far, standing pat: the side to move need not attack
    alpha[ply] = max(alpha[ply], value)
    c.again[ply] = 0
    return _NEXT, value


@inline_kernel
def _open(c, ply, stamp):
    """A node at ``ply`` with depth left: (`_UP`, the table's score) when the table decides it (not at
    the root), else (`_NEXT`, 0) with its moves listed and ordered (``stamp``: new at every node)."""
    s = c.s
    node_keys = c.frames[8]
    table_move = -1
    if c.use_table:
        node_keys[ply] = table_key(s, c.path_keys[ply], c.with_ply)
        depth_left, alpha, beta = c.frames[7], c.frames[2], c.frames[4]
        hit = table_probe(c.table, node_keys[ply], depth_left[ply], alpha[ply], beta[ply], ply, c.probe)
        table_move = c.probe[0]
        if hit and ply > 0:
            return _UP, c.probe[1]
    n = generate_moves(s, c.w, c.moves[ply])
    mark_queen_rings(s, c.near, stamp)
    for i in range(n):
        m = c.moves[ply, i]
        rank = marked_order(s, m, c.near, stamp)
        c.order[ply, i] = order_key(c.frames, ply, m, table_move, rank, c.history, c.seed)
    open_node(c.frames, ply, n)
    c.again[ply] = 0
    return _NEXT, 0


@inline_kernel
def _enter(c, ply, stamp):
    """The node just entered at ``ply``: (`_UP`, its value) when it is decided on entry (the game is
    over, the position repeats, a leaf, the table), else (`_NEXT`, ...) with its moves opened."""
    s = c.s
    depth_left = c.frames[7]
    c.frames[10][ply] = 0  # the length of its principal variation
    status = s[I_STATUS]
    if ply > 0 and status != 0:
        return _UP, terminal_score(_winner(status), s[I_TO_MOVE], ply)
    if ply > 0:
        c.path_keys[ply] = position_key(s)
        if repeats(c.path_keys[ply], c.seen, c.path_keys, ply):
            return _UP, 0
    if depth_left[ply] == 0:
        if (
            c.quiet_plies[ply] > 0
            or c.threat_plies[ply] >= _MAX_THREAT_PLIES
            or ply + 1 >= c.plies
            or not _queen_in_danger(s)
        ):
            return _leaf(c, ply, stamp)
        c.threat_plies[ply] += 1  # a Queen in danger: one ply more
        depth_left[ply] = 1
    return _open(c, ply, stamp)


@inline_kernel
def _descend(c, ply):
    """Play the next move of the node at ``ply`` and set its child's window and depth."""
    count, index, alpha, beta, best, depth_left = (
        c.frames[0],
        c.frames[1],
        c.frames[2],
        c.frames[4],
        c.frames[5],
        c.frames[7],
    )
    i = index[ply]
    if c.again[ply] == 0:
        select_next(c.moves[ply], c.order[ply], i, count[ply])
    apply_move(c.s, c.moves[ply, i], c.recs[ply])
    if c.scoring and ply == 0:  # every root move: exact down to the best - the margin
        alpha[1] = -INFINITY
        beta[1] = min(INFINITY, c.root_margin - best[0])
        c.scout[0] = 0
    elif c.use_pvs and i > 0 and c.again[ply] == 0:
        alpha[ply + 1] = -alpha[ply] - 1
        beta[ply + 1] = -alpha[ply]
        c.scout[ply] = 1
    else:
        alpha[ply + 1] = -beta[ply]
        beta[ply + 1] = -alpha[ply]
        c.scout[ply] = 0
    quiet = depth_left[ply] == 0
    depth_left[ply + 1] = 0 if quiet else child_depth(depth_left[ply], count[ply], ply, c.plies)
    c.quiet_plies[ply + 1] = c.quiet_plies[ply] + quiet
    c.again[ply] = 0
    c.threat_plies[ply + 1] = c.threat_plies[ply]


@inline_kernel
def _child_searched(c, ply, value):
    """Take back the move of the node at ``ply`` whose child scored ``value`` (from the child's side)."""
    index, alpha, beta = c.frames[1], c.frames[2], c.frames[4]
    undo_move(c.s, c.recs[ply])
    v = -value
    if c.scoring and ply == 0:
        c.root_scores[c.moves[0, index[0]]] = v
    if c.scout[ply] == 1 and alpha[ply] < v < beta[ply]:
        c.again[ply] = 1  # the null-window search failed high: search it with the window
    else:
        child_searched(c.frames, c.history, ply, c.moves[ply, index[ply]], v)


# A kernel of its own, without reference counting (`hive_envs.hive.engine.jit`): in the kernel that
# allocates the buffers, every read of one of them out of ``c`` would count a reference to it and
# let it go again: two atomic operations per read, on every node.
@kernel
def _iteration(c, limits, depth, nodes, deadline):
    """Search the root ``depth`` plies deep, ``nodes`` visited before: (nodes, the ply it stopped at,
    `_COMPLETED` / `_ABORTED` (the time) / `_OVER_LIMIT` (the nodes)); the moves down to that ply are
    still on the board when it did not complete."""
    count, index, depth_left = c.frames[0], c.frames[1], c.frames[7]
    begin_iteration(c.frames, depth)
    ply = 0
    phase = _ENTER
    value = 0
    while True:
        if phase == _ENTER:
            nodes += 1
            if limits.time_s > 0 and ply > 0 and nodes % _CLOCK_EVERY == 0 and now() > deadline:
                return nodes, ply, _ABORTED
            if limits.node_limit > 0 and ply > 0 and nodes > limits.node_limit:
                return nodes, ply, _OVER_LIMIT
            phase, value = _enter(c, ply, nodes)
        elif phase == _UP:
            ply -= 1
            _child_searched(c, ply, value)
            phase = _NEXT
        elif index[ply] < count[ply]:
            _descend(c, ply)
            ply += 1
            phase = _ENTER
        else:
            value = close_node(c.frames, c.table, c.use_table and depth_left[ply] > 0, ply)
            if ply == 0:
                return nodes, ply, _COMPLETED
            phase = _UP


@inline_kernel
def _unfinished_answer(c, pv, move, score, pv_len):
    """The time ran out in an iteration: the best root move it searched, if any (searched deeper than
    the last iteration's and better than the others searched), else `aborted_result`'s."""
    best, best_move = c.frames[5], c.frames[6]
    if best_move[0] >= 0:
        return best_move[0], best[0], root_line(c.frames, pv)
    move, score = aborted_result(c.frames, c.moves[0], move, score)
    return move, score, pv_len


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
# at once (the rule features' deeper searched value, `hive_envs.hive.agent.features`).
@njit(cache=True, nogil=True)
def alphabeta_kernel(s, w, limits, settings, tables, evaluation, seen, out):
    """Best move for the side to move in ``s`` (not finished); see the module docstring. ``limits``:
    `SearchLimits`, ``settings``: `SearchSettings`, ``tables``: `SearchTables`, ``evaluation``: how the
    leaves are scored (`learned.LeafEvaluation`: the hand evaluation's weights or a learned network),
    ``seen``: the sorted keys of the game's positions, ``out``: `SearchOutput`. -1 when
    ``limits.node_limit`` was passed."""
    start = now()
    time_s = limits.time_s
    deadline = start + time_s - min(_CLOCK_MARGIN_S, 0.05 * time_s)
    c = _new_search(s, w, settings, tables, evaluation, seen, out)
    c.path_keys[0] = position_key(s)
    nodes = 0
    result_move, result_score, depth_reached, pv_len = -1, 0, 0, 0
    for depth in range(1, limits.max_depth + 1):
        if time_s > 0 and depth > 1 and now() - start > 0.5 * time_s:
            break
        nodes, ply, ended = _iteration(c, limits, depth, nodes, deadline)
        if ended != _COMPLETED:
            for p in range(ply - 1, -1, -1):
                undo_move(s, c.recs[p])
            if ended == _OVER_LIMIT:
                out.stats[2] = nodes
                return -1
            result_move, result_score, pv_len = _unfinished_answer(
                c, out.pv, result_move, result_score, pv_len
            )
            break
        result_move, result_score, pv_len, stop = iteration_result(c.frames, out.pv)
        depth_reached = depth
        if stop:
            break
    return finish_search(out.stats, out.pv, pv_len, result_move, result_score, depth_reached, nodes)
