"""`HoyitoAlphaBeta`: alpha-beta search for Hoyito II over the compiled rule kernels.

    from hive_envs.hoyito import HoyitoAlphaBeta, HoyitoGame

    game = HoyitoGame(holes_per_row=6)
    searcher = HoyitoAlphaBeta(depth=6)          # or time_s=0.5, or both (whichever comes first)
    result = searcher.search(game)               # SearchResult(move_id=hole, score, depth_reached, nodes, elapsed_s, pv)
    game.play_id(result.move_id)                 # an absolute hole, the game's move id
    searcher.choose(game)                        # just the hole

The search (`alphabeta_kernel`) is the negamax of `hive_envs.hive.search.negamax` adapted to a
game whose side to move may stay the same: after a capture the capturer moves again, so a child's
score is negated only when the player to move differs between parent and child (never by ply
parity), and so is the alpha-beta window. A position is a ~30-int array, so each ply plays every
legal move into its own copy (``children``, one per hole); that also gives the move ordering its best key, the
counters each move captures. Iterative deepening, the transposition table (a splitmix64 hash of the
board, the captured totals and the player to move; the stall clock is mixed in when the stall
limit is within reach of the search), killer moves, history, a seeded tie-break, the single-reply
extension (a position with one legal move costs no depth), proven results as
``±(WIN_SCORE - ply)`` are as in the Hive search; the clock is read every `CLOCK_EVERY` (1024)
nodes and the table cleared before each search.

**Evaluation** (for the player to move, who is the player the array's turn entry names):
``COUNTER * (own captured - opponent's captured) + THREAT * best immediate capture``. The second
term is a one-move look at the capture the player to move can make right now (the greedy
player's whole policy): the mover is on move, so that capture is real unless a deeper line
beats it, but the opponent's reply can answer it, so it counts half a counter per counter. A
finished game scores as won, lost (``±(WIN_SCORE - ply)``) or drawn (0), whatever the margin.

**A learned evaluation** (``network``, optional): a network of `hive_envs.core.learned_eval` over the
features of `eval_features` (each hole's counters seen from each player, the hand terms, the captured
totals and rows) scores the leaves instead (``board_values`` then unused), boards of up to 12 holes a
row; trained by `hive_envs.training.eval_training` (``alphabeta:D,eval=learned:PATH``).

**Learned board values** (``board_values``, optional): a table of ``2n`` rows and `BOARD_BUCKETS`
columns in score units, added to the evaluation: row ``j`` is the ``j``-th hole counted from the
mover's first hole round the board (the mover's row, then the opponent's, in sowing order), column
``c`` that hole holding ``c`` counters (the last column: that many or more). Its sum is what the
mover is expected to gain by the end of the game from the counters still on the board, beyond the
margin and the threat: a table fitted to self-play outcomes
(`hive_envs.hoyito.agent.board_values`). An empty table (0 rows, the default) adds nothing.

Limits: ``depth`` 1..`MAX_DEPTH` plies (moves; an extra turn is a ply), ``time_s`` in (0, 3600],
neither: ``depth=DEFAULT_DEPTH``. The game is never changed (the search copies its state array).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from hive_envs.core.alphabeta import (
    AlphaBetaSearcher,
    aborted_result,
    begin_iteration,
    child_depth,
    child_searched,
    clock_expired,
    close_node,
    finish_search,
    iteration_result,
    new_frames,
    now,
    open_node,
    order_key,
    select_next,
    table_probe,
    terminal_score,
)
from hive_envs.core.hashing import mix64
from hive_envs.core.learned_eval import (
    NO_NETWORK,
    FeatureScratch,
    LearnedFeatures,
    LearnedNetwork,
    learned_network,
    new_scratch,
)
from hive_envs.hoyito.engine import kernels as K
from hive_envs.hoyito.engine.game import HoyitoGame
from hive_envs.hoyito.search.eval_features import (
    DENSE_NAMES,
    MAX_ACTIVE,
    MAX_HOLES_PER_ROW,
    NUM_DENSE,
    NUM_FEATURES,
    best_capture,
    learned_evaluate,
    position_features,
)

MAX_DEPTH = 20
DEFAULT_DEPTH = 6

COUNTER = 16  #: score of one captured counter
THREAT = 8  #: score per counter of the best capture the player to move has now
BOARD_BUCKETS = 16  #: columns of a board-values table: a hole holding 0, 1, ..., 15 or more counters
NO_BOARD_VALUES = np.zeros((0, BOARD_BUCKETS), dtype=np.int32)  #: the hand evaluation alone
MAX_BOARD_VALUE = 10_000
"""Bound on one entry (625 counters): a table's sum stays far from the proven-result scores."""

HOYITO_FEATURES = LearnedFeatures(
    name="hoyito/holes-v1",
    num_features=NUM_FEATURES,
    max_active=MAX_ACTIVE,
    num_dense=NUM_DENSE,
    dense_names=DENSE_NAMES,
    dense_scale=np.full(NUM_DENSE, 1.0 / 8, dtype=np.float32),
    hand_weights=np.array([COUNTER, THREAT, 0, 0, 0, 0], dtype=np.float32),
)
"""What Hoyito's learned evaluation reads (`eval_features`); its skip weights start as the hand
evaluation, ``COUNTER`` x the margin + ``THREAT`` x the best capture."""


class LeafEvaluation(NamedTuple):
    """How `search_kernel` scores its leaves: the hand evaluation with ``board_values`` (an empty table:
    none), or ``network`` when it is not empty (`hive_envs.core.learned_eval.NO_NETWORK`)."""

    board_values: np.ndarray
    network: LearnedNetwork
    scratch: FeatureScratch


_ENTER, _UP, _NEXT = 0, 1, 2


# -- the state array's entries past the board (named by `kernels`' offsets from m = 2n) -------------
@njit(cache=True, inline="always")
def _captured(s, n, player):
    return s[2 * n + K.CAPTURED + player]


@njit(cache=True, inline="always")
def _to_move(s, n):
    return s[2 * n + K.TURN]


@njit(cache=True, inline="always")
def _stall(s, n):
    return s[2 * n + K.STALL]


@njit(cache=True, inline="always")
def _over(s, n):
    return s[2 * n + K.OVER] != 0


@njit(cache=True)
def position_hash(s, n, with_stall):
    """Key of a position: board, captured totals, player to move (and the stall clock if asked)."""
    key = mix64(np.uint64(_to_move(s, n) + 1))
    for i in range(2 * n + K.CAPTURED + 2):  # the holes and both captured totals
        key = mix64(key ^ np.uint64(s[i]))
    if with_stall:
        key = mix64(key ^ (np.uint64(_stall(s, n)) << np.uint64(32)))
    return key


@njit(cache=True)
def evaluate(s, n, max_laps, limit, scratch, board_values):
    """Score of the unfinished position ``s`` for the player to move (see the module docstring)."""
    p = _to_move(s, n)
    score = COUNTER * (_captured(s, n, p) - _captured(s, n, 1 - p))
    if board_values.shape[0] > 0:
        m = 2 * n
        last = board_values.shape[1] - 1
        for j in range(m):
            score += board_values[j, min(s[(p * n + j) % m], last)]
    return score + THREAT * best_capture(s, n, max_laps, limit, scratch)


@njit(cache=True)
def _leaf_value(s, n, max_laps, limit, scratch, evaluation):
    """The learned network's score when ``evaluation`` has one, else `evaluate`'s."""
    network = evaluation.network
    if network.output_weights.shape[0] > 0:
        return learned_evaluate(s, n, max_laps, limit, scratch, network, evaluation.scratch)
    return evaluate(s, n, max_laps, limit, scratch, evaluation.board_values)


@njit(cache=True)
def alphabeta_kernel(
    s0, n, max_laps, limit, max_depth, time_s, seed, table, use_table, pv, stats, board_values
):
    """`search_kernel` with the hand evaluation and ``board_values`` (the module docstring's table;
    `NO_BOARD_VALUES`: none): the rule features' searched value calls it so."""
    empty = np.zeros((0, 0), dtype=np.float32)
    nothing = np.zeros(0, dtype=np.float32)
    network = LearnedNetwork(empty, nothing, empty, nothing, nothing, np.zeros(1, dtype=np.float32), nothing)
    scratch = FeatureScratch(
        np.zeros((2, MAX_ACTIVE), dtype=np.int32),
        np.zeros(2, dtype=np.int32),
        np.zeros(NUM_DENSE, dtype=np.float32),
        np.zeros(NUM_DENSE, dtype=np.float32),
    )
    evaluation = LeafEvaluation(board_values, network, scratch)
    return search_kernel(
        s0, n, (max_laps, limit), max_depth, time_s, seed, table, use_table, pv, stats, evaluation
    )


# Not one body with the Hive search loop: see the comment above `hive_envs.hive.search.negamax.alphabeta_kernel`
# (a shared loop taking the games' steps as functions would lose numba's disk cache).
@njit(cache=True)
def search_kernel(s0, n, rules, max_depth, time_s, seed, table, use_table, pv, stats, evaluation):
    """Best hole for the player to move in ``s0`` (unchanged); ``stats`` and ``pv`` as in the Hive
    kernel: score, depth of the last completed iteration, nodes, PV length; ``rules``: (max laps, the
    stall limit); ``evaluation``: `LeafEvaluation`."""
    max_laps, limit = rules
    start = now()
    deadline = start + time_s
    plies = pv.shape[0]  # search_plies(max_depth): room for forced-move extensions
    frames = new_frames(plies)
    count, index, alpha, beta = frames[0], frames[1], frames[2], frames[4]
    depth_left, node_keys, line_len = frames[7], frames[8], frames[10]
    size = s0.shape[0]
    states = np.empty((plies, size), dtype=s0.dtype)
    children = np.empty((plies, n, size), dtype=s0.dtype)
    moves = np.empty((plies, n), dtype=np.int32)
    order = np.empty((plies, n), dtype=np.int32)
    scratch = np.empty(size, dtype=s0.dtype)
    history = np.zeros(2 * n, dtype=np.int32)
    probe = np.zeros(2, dtype=np.int64)
    with_stall = _stall(s0, n) + plies >= limit
    states[0] = s0

    nodes = 0
    result_move, result_score, depth_reached, pv_len = -1, 0, 0, 0
    for depth in range(1, max_depth + 1):
        if time_s > 0 and depth > 1 and now() - start > 0.5 * time_s:
            break
        begin_iteration(frames, depth)
        ply = 0
        phase = _ENTER
        value = 0
        aborted = False
        while True:
            if phase == _ENTER:
                nodes += 1
                if clock_expired(time_s, ply, nodes, deadline):
                    aborted = True
                    break
                line_len[ply] = 0
                s = states[ply]
                if ply > 0 and _over(s, n):
                    value = terminal_score(K.winner(s, n), _to_move(s, n), ply)
                    phase = _UP
                    continue
                if depth_left[ply] == 0:
                    value = _leaf_value(s, n, max_laps, limit, scratch, evaluation)
                    phase = _UP
                    continue
                table_move = -1
                if use_table:
                    node_keys[ply] = position_hash(s, n, with_stall)
                    hit = table_probe(
                        table, node_keys[ply], depth_left[ply], alpha[ply], beta[ply], ply, probe
                    )
                    table_move = probe[0]
                    if hit and ply > 0:
                        value = probe[1]
                        phase = _UP
                        continue
                base = _to_move(s, n) * n
                c = 0
                for k in range(n):
                    if s[base + k] > 0:
                        children[ply, k] = s
                        taken = K.play(children[ply, k], base + k, n, max_laps, limit)
                        moves[ply, c] = base + k
                        order[ply, c] = order_key(
                            frames, ply, base + k, table_move, min(taken, 1 << 10), history, seed
                        )
                        c += 1
                open_node(frames, ply, c)
                phase = _NEXT
            elif phase == _UP:
                ply -= 1
                same_side = _to_move(states[ply + 1], n) == _to_move(states[ply], n)
                child_searched(frames, history, ply, moves[ply, index[ply]], value if same_side else -value)
                phase = _NEXT
            elif index[ply] < count[ply]:
                i = index[ply]
                select_next(moves[ply], order[ply], i, count[ply])
                states[ply + 1] = children[ply, moves[ply, i] - _to_move(states[ply], n) * n]
                if _to_move(states[ply + 1], n) == _to_move(states[ply], n):
                    alpha[ply + 1] = alpha[ply]
                    beta[ply + 1] = beta[ply]
                else:
                    alpha[ply + 1] = -beta[ply]
                    beta[ply + 1] = -alpha[ply]
                depth_left[ply + 1] = child_depth(depth_left[ply], count[ply], ply, plies)
                ply += 1
                phase = _ENTER
            else:
                value = close_node(frames, table, use_table, ply)
                if ply == 0:
                    break
                phase = _UP
        if aborted:
            result_move, result_score = aborted_result(frames, moves[0], result_move, result_score)
            break
        result_move, result_score, pv_len, stop = iteration_result(frames, pv)
        depth_reached = depth
        if stop:
            break
    return finish_search(stats, pv, pv_len, result_move, result_score, depth_reached, nodes)


class HoyitoAlphaBeta(AlphaBetaSearcher):
    """Alpha-beta searcher for Hoyito II; see the module docstring. ``search(game, depth=None,
    time_s=None) -> SearchResult`` and ``choose(game) -> hole`` come from `AlphaBetaSearcher`."""

    game_class = HoyitoGame
    max_depth = MAX_DEPTH
    default_depth = DEFAULT_DEPTH
    learned_features = HOYITO_FEATURES
    """What a learned ``network`` reads (the trainer, `hive_envs.training.eval_training`, sizes it so)."""

    def __init__(
        self,
        *args,
        board_values: np.ndarray | None = None,
        network: LearnedNetwork | None = None,
        **kwargs,
    ):
        """``board_values``: a learned table added to the evaluation (the module docstring), None for
        the hand evaluation alone; ``network``: a learned evaluation of `HOYITO_FEATURES` that scores
        the leaves instead (not with ``board_values``); the other arguments as in `AlphaBetaSearcher`."""
        super().__init__(*args, **kwargs)
        self.board_values = NO_BOARD_VALUES if board_values is None else check_board_values(board_values)
        if network is not None:
            if board_values is not None:
                raise ValueError("HoyitoAlphaBeta takes board_values or a network, not both")
            if not isinstance(network, LearnedNetwork):
                raise ValueError(
                    f"HoyitoAlphaBeta network must be a LearnedNetwork, got {type(network).__name__}"
                )
            network = learned_network(network._asdict(), NUM_FEATURES, NUM_DENSE)  # checked, our copy
            self._evaluation = LeafEvaluation(
                NO_BOARD_VALUES, network, new_scratch(network, MAX_ACTIVE, NUM_DENSE)
            )
        else:
            self._evaluation = LeafEvaluation(
                self.board_values, NO_NETWORK, new_scratch(NO_NETWORK, MAX_ACTIVE, NUM_DENSE)
            )
        self.network = network

    def fill_features(self, game: HoyitoGame, scratch: FeatureScratch) -> None:
        """The features the learned evaluation reads of ``game``'s position (not finished; left
        unchanged) into ``scratch`` (`eval_features.position_features`): the trainer's data."""
        o = self._check_board(game, learned=True)
        state = game.state.copy()
        position_features(state, o.holes_per_row, o.max_laps, o.no_capture_limit, state.copy(), scratch)

    def _check_board(self, game: HoyitoGame, learned: bool):
        """``game``'s options, after checking that the board values (and, ``learned``, the learned
        evaluation's features) fit its board."""
        o = game.options
        if self.board_values.shape[0] not in (0, 2 * o.holes_per_row):
            raise ValueError(
                f"HoyitoAlphaBeta: its board values have {self.board_values.shape[0]} rows, a game with "
                f"{o.holes_per_row} holes a row needs {2 * o.holes_per_row}"
            )
        if learned and o.holes_per_row > MAX_HOLES_PER_ROW:
            raise ValueError(
                f"HoyitoAlphaBeta: the learned evaluation reads boards of up to {MAX_HOLES_PER_ROW} holes a "
                f"row; this game has {o.holes_per_row}"
            )
        return o

    def _run_kernel(self, game: HoyitoGame, depth, time_s, table, pv, stats) -> int:
        o = self._check_board(game, learned=self.network is not None)
        return search_kernel(
            game.state.copy(), o.holes_per_row, (o.max_laps, o.no_capture_limit), depth, time_s, self.seed,
            table, True, pv, stats, self._evaluation,
        )  # fmt: skip


def check_board_values(board_values) -> np.ndarray:
    """``board_values`` as the kernel takes it (int32, C-contiguous), after checking it is a table of
    integers with `BOARD_BUCKETS` columns and an even number of rows (2 per hole of a row); raises
    ValueError otherwise."""
    table = np.asarray(board_values)
    if table.ndim != 2 or table.shape[1] != BOARD_BUCKETS or table.shape[0] % 2 or table.shape[0] < 4:
        raise ValueError(
            f"board values must be a table of 2n rows (n >= 2 holes a row) and {BOARD_BUCKETS} columns, "
            f"got shape {table.shape}"
        )
    if not np.issubdtype(table.dtype, np.integer) or np.abs(table).max() > MAX_BOARD_VALUE:
        raise ValueError(f"board values must be integers within +-{MAX_BOARD_VALUE} score units")
    return np.ascontiguousarray(table, dtype=np.int32)
