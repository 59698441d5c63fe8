"""`HoyitoAlphaBeta`: alpha-beta search for Hoyito II over the compiled rule kernels.

    from hive_envs.hoyito import HoyitoGame
    from hive_envs.hoyito.alphabeta import HoyitoAlphaBeta

    game = HoyitoGame(holes_per_row=6)
    player = HoyitoAlphaBeta(depth=6)            # or time_s=0.5, or both (whichever comes first)
    result = player.search(game)                 # SearchResult(move_id=hole, score, depth_reached, nodes, elapsed_s, pv)
    game.play(result.move_id)                    # an absolute hole, as HoyitoGame.play takes
    player.choose(game)                          # just the hole

The search (`alphabeta_kernel`) is the negamax of `hive_envs.hive.engine.alphabeta` adapted to a
game whose side to move may stay the same: after a capture the capturer moves again, so a child's
score is negated only when the player to move differs between parent and child (never by ply
parity), and so is the alpha-beta window. A position is a ~30-int array, so each ply plays every
legal move into its own copy (``children``, one per hole); that also gives the move ordering its best key, the
counters each move captures. Iterative deepening, the transposition table (a splitmix64 hash of the
board, the captured totals and the player to move; the stall clock is mixed in when the stall
limit is within reach of the search), killer moves, history, a seeded tie-break, the single-reply
extension (a position with one legal move costs no depth), proven results as
``±(WIN_SCORE - ply)`` and the clock read every 1024 nodes are as in the Hive search.

**Evaluation** (for the player to move, who is the player the array's turn entry names):
``COUNTER * (own captured - opponent's captured) + THREAT * best immediate capture``. The second
term is a one-move look at the capture the player to move can make right now (the greedy
player's whole policy): the mover is on move, so that capture is real unless a deeper line
beats it, but the opponent's reply can answer it, so it counts half a counter per counter. A
finished game scores as won, lost (``±(WIN_SCORE - ply)``) or drawn (0), whatever the margin.

Limits: ``depth`` 1..`MAX_DEPTH` plies (moves; an extra turn is a ply), ``time_s`` in (0, 3600],
neither: ``depth=DEFAULT_DEPTH``. The game is never changed (the search copies its state array).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from hive_envs.core.alphabeta import (
    CLOCK_EVERY,
    DEFAULT_TABLE_BITS,
    INFINITY,
    MATE_BOUND,
    SearchResult,
    check_limits,
    check_seed,
    child_depth,
    clear_table,
    mix64,
    new_table,
    now,
    search_plies,
    select_next,
    table_probe,
    table_store,
    terminal_score,
    tie_break,
)
from hive_envs.hoyito import kernels as K
from hive_envs.hoyito.game import HoyitoGame

MAX_DEPTH = 20
DEFAULT_DEPTH = 6

COUNTER = 16  #: score of one captured counter
THREAT = 8  #: score per counter of the best capture the player to move has now

_ENTER, _UP, _NEXT = 0, 1, 2
_TABLE_MOVE = 1 << 30
_KILLER_1 = 1 << 29
_KILLER_2 = 1 << 28
_HISTORY_CAP = (1 << 11) - 1


# -- the state array's entries past the board (the one place this module names them) --------------
@njit(cache=True, inline="always")
def _captured(s, n, player):
    return s[2 * n + player]


@njit(cache=True, inline="always")
def _to_move(s, n):
    return s[2 * n + 2]


@njit(cache=True, inline="always")
def _stall(s, n):
    return s[2 * n + 3]


@njit(cache=True, inline="always")
def _over(s, n):
    return s[2 * n + 4] != 0


@njit(cache=True)
def position_hash(s, n, with_stall):
    """Key of a position: board, captured totals, player to move (and the stall clock if asked)."""
    key = mix64(np.uint64(_to_move(s, n) + 1))
    for i in range(2 * n + 2):
        key = mix64(key ^ np.uint64(s[i]))
    if with_stall:
        key = mix64(key ^ (np.uint64(_stall(s, n)) << np.uint64(32)))
    return key


@njit(cache=True)
def evaluate(s, n, max_laps, limit, scratch):
    """Score of the unfinished position ``s`` for the player to move (see the module docstring)."""
    p = _to_move(s, n)
    score = COUNTER * (_captured(s, n, p) - _captured(s, n, 1 - p))
    threat = 0
    base = p * n
    for k in range(n):
        if s[base + k] > 0:
            scratch[:] = s
            threat = max(threat, K.play(scratch, base + k, n, max_laps, limit))
    return score + THREAT * threat


@njit(cache=True)
def alphabeta_kernel(s0, n, max_laps, limit, max_depth, time_s, seed, table, use_table, pv, stats):
    """Best hole for the player to move in ``s0`` (unchanged); ``stats`` and ``pv`` as in the Hive
    kernel: score, depth of the last completed iteration, nodes, PV length."""
    start = now()
    deadline = start + time_s
    timed = time_s > 0
    keys, tmoves, tscores, tinfo = table
    plies = pv.shape[0]  # search_plies(max_depth): room for forced-move extensions
    size = s0.shape[0]
    states = np.empty((plies, size), dtype=s0.dtype)
    children = np.empty((plies, n, size), dtype=s0.dtype)
    moves = np.empty((plies, n), dtype=np.int32)
    order = np.empty((plies, n), dtype=np.int32)
    scratch = np.empty(size, dtype=s0.dtype)
    count = np.zeros(plies, dtype=np.int64)
    index = np.zeros(plies, dtype=np.int64)
    alpha = np.zeros(plies, dtype=np.int64)
    alpha0 = np.zeros(plies, dtype=np.int64)
    beta = np.zeros(plies, dtype=np.int64)
    best = np.zeros(plies, dtype=np.int64)
    best_move = np.full(plies, -1, dtype=np.int32)
    depth_left = np.zeros(plies, dtype=np.int64)
    node_keys = np.zeros(plies, dtype=np.uint64)
    line = np.zeros((plies + 1, plies + 1), dtype=np.int32)
    line_len = np.zeros(plies + 1, dtype=np.int64)
    killers = np.full((plies, 2), -1, dtype=np.int32)
    history = np.zeros(2 * n, dtype=np.int32)
    probe = np.zeros(2, dtype=np.int64)
    with_stall = _stall(s0, n) + plies >= limit
    states[0] = s0

    nodes = 0
    result_move = -1
    result_score = 0
    depth_reached = 0
    stats[3] = 0
    for depth in range(1, max_depth + 1):
        if timed and depth > 1 and now() - start > 0.5 * time_s:
            break
        ply = 0
        alpha[0] = -INFINITY
        beta[0] = INFINITY
        depth_left[0] = depth
        phase = _ENTER
        value = 0
        aborted = False
        while True:
            if phase == _ENTER:
                nodes += 1
                if timed and ply > 0 and nodes % CLOCK_EVERY == 0 and now() > deadline:
                    aborted = True
                    break
                line_len[ply] = 0
                s = states[ply]
                if ply > 0 and _over(s, n):
                    value = terminal_score(K.winner(s, n), _to_move(s, n), ply)
                    phase = _UP
                    continue
                if depth_left[ply] == 0:
                    value = evaluate(s, n, max_laps, limit, scratch)
                    phase = _UP
                    continue
                table_move = -1
                if use_table:
                    node_keys[ply] = position_hash(s, n, with_stall)
                    hit = table_probe(
                        keys,
                        tmoves,
                        tscores,
                        tinfo,
                        node_keys[ply],
                        depth_left[ply],
                        alpha[ply],
                        beta[ply],
                        ply,
                        probe,
                    )
                    table_move = probe[0]
                    if hit and ply > 0:
                        value = probe[1]
                        phase = _UP
                        continue
                base = _to_move(s, n) * n
                c = 0
                for k in range(n):
                    if s[base + k] == 0:
                        continue
                    hole = base + k
                    children[ply, k] = s
                    taken = K.play(children[ply, k], hole, n, max_laps, limit)
                    moves[ply, c] = hole
                    if hole == table_move:
                        order[ply, c] = _TABLE_MOVE
                    elif hole == killers[ply, 0]:
                        order[ply, c] = _KILLER_1
                    elif hole == killers[ply, 1]:
                        order[ply, c] = _KILLER_2
                    else:
                        order[ply, c] = (
                            (min(taken, 1 << 10) << 16)
                            + (min(history[hole], _HISTORY_CAP) << 4)
                            + tie_break(seed, hole)
                        )
                    c += 1
                count[ply] = c
                index[ply] = 0
                best[ply] = -INFINITY
                best_move[ply] = -1
                alpha0[ply] = alpha[ply]
                phase = _NEXT
            elif phase == _UP:
                ply -= 1
                same_side = _to_move(states[ply + 1], n) == _to_move(states[ply], n)
                v = value if same_side else -value
                i = index[ply]
                m = moves[ply, i]
                index[ply] = i + 1
                if v > best[ply]:
                    best[ply] = v
                    best_move[ply] = m
                    if v > alpha[ply]:
                        alpha[ply] = v
                        line[ply, 0] = m
                        for j in range(line_len[ply + 1]):
                            line[ply, j + 1] = line[ply + 1, j]
                        line_len[ply] = line_len[ply + 1] + 1
                        if v >= beta[ply]:
                            if m != killers[ply, 0]:
                                killers[ply, 1] = killers[ply, 0]
                                killers[ply, 0] = m
                            history[m] += depth_left[ply] * depth_left[ply]
                            index[ply] = count[ply]
                phase = _NEXT
            else:
                if index[ply] < count[ply]:
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
                    value = best[ply]
                    if use_table:
                        table_store(
                            keys,
                            tmoves,
                            tscores,
                            tinfo,
                            node_keys[ply],
                            depth_left[ply],
                            value,
                            alpha0[ply],
                            beta[ply],
                            best_move[ply],
                            ply,
                        )
                    if ply == 0:
                        break
                    phase = _UP
        if aborted:
            if result_move < 0:
                result_move = best_move[0] if best_move[0] >= 0 else moves[0, index[0]]
                result_score = best[0] if best_move[0] >= 0 else 0
            break
        result_move = best_move[0]
        result_score = best[0]
        depth_reached = depth
        stats[3] = line_len[0]
        for j in range(line_len[0]):
            pv[j] = line[0, j]
        if count[0] == 1 or result_score > MATE_BOUND or result_score < -MATE_BOUND:
            break
    if stats[3] == 0:
        pv[0] = result_move
        stats[3] = 1
    stats[0] = result_score
    stats[1] = depth_reached
    stats[2] = nodes
    return result_move


class HoyitoAlphaBeta:
    """Alpha-beta searcher for Hoyito II; see the module docstring."""

    def __init__(
        self,
        depth: int | None = None,
        time_s: float | None = None,
        seed: int = 0,
        table_bits: int = DEFAULT_TABLE_BITS,
    ):
        self.depth, self.time_s = check_limits(depth, time_s, MAX_DEPTH, DEFAULT_DEPTH, "HoyitoAlphaBeta")
        self.seed = check_seed(seed, "HoyitoAlphaBeta")
        if isinstance(table_bits, bool) or not isinstance(table_bits, int) or not 10 <= table_bits <= 26:
            raise ValueError(f"HoyitoAlphaBeta table_bits must be an int in 10..26, got {table_bits!r}")
        self._table = new_table(table_bits)

    def __repr__(self) -> str:
        return f"HoyitoAlphaBeta(depth={self.depth}, time_s={self.time_s}, seed={self.seed})"

    def search(self, game: HoyitoGame, depth: int | None = None, time_s: float | None = None) -> SearchResult:
        """Search ``game`` (unchanged) with this player's limits, or with ``depth``/``time_s`` if given."""
        if not isinstance(game, HoyitoGame):
            raise ValueError(f"HoyitoAlphaBeta.search needs a HoyitoGame, got {type(game).__name__}")
        if game.is_terminal:
            raise ValueError("HoyitoAlphaBeta.search: the game is over")
        if depth is None and time_s is None:
            depth, time_s = self.depth, self.time_s
        else:
            depth, time_s = check_limits(depth, time_s, MAX_DEPTH, DEFAULT_DEPTH, "HoyitoAlphaBeta")
        options = game.options
        clear_table(self._table)
        pv = np.zeros(search_plies(depth), dtype=np.int32)
        stats = np.zeros(4, dtype=np.int64)
        started = time.perf_counter()
        move = alphabeta_kernel(
            game.state.copy(),
            options.holes_per_row,
            options.max_laps,
            options.no_capture_limit,
            depth,
            0.0 if time_s is None else time_s,
            self.seed,
            self._table,
            True,
            pv,
            stats,
        )
        elapsed = time.perf_counter() - started
        return SearchResult(
            move_id=int(move),
            score=int(stats[0]),
            depth_reached=int(stats[1]),
            nodes=int(stats[2]),
            elapsed_s=elapsed,
            pv=tuple(int(m) for m in pv[: stats[3]]),
        )

    def choose(self, game: HoyitoGame) -> int:
        """The hole `search` picks."""
        return self.search(game).move_id
