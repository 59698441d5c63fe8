"""What the Hive and Hoyito alpha-beta searchers share: scores, the transposition table, the clock,
move-ordering helpers, the Python result type and the checks of the search limits.

Scores are int32 from the side to move's point of view. A won position scores
``WIN_SCORE - ply`` (ply = plies from the root at which the game ends), a lost one
``-(WIN_SCORE - ply)``, so the search prefers the shortest win and the longest loss; a draw scores
0. Any score beyond ``MATE_BOUND`` in absolute value is a proven result.

The transposition table is four parallel arrays indexed by ``key & (size - 1)`` (always-replace):
the full 64-bit key, the best move (-1 if none), the score and ``depth * 4 + bound``. Proven
results are stored relative to the node (``score_to_table``) and turned back into root-relative
ones where they are read (``score_from_table``), so a win found through a transposition keeps its
true distance.

Numba cannot read the clock in nopython mode; `now` drops into object mode for one
``time.perf_counter()`` call (about a microsecond), which the searches do every `CLOCK_EVERY`
nodes.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numba
import numpy as np
from numba import njit

from hive_envs.core.cancel import clock
from hive_envs.core.game import Game
from hive_envs.core.hashing import mix64

WIN_SCORE = 1_000_000
MATE_BOUND = WIN_SCORE - 10_000
INFINITY = WIN_SCORE + 1
CLOCK_EVERY = 1024  #: nodes between two reads of the clock

BOUND_EXACT, BOUND_LOWER, BOUND_UPPER = 0, 1, 2
DEFAULT_TABLE_BITS = 18  #: 2**18 entries, 4.5 MB


def new_table(bits: int = DEFAULT_TABLE_BITS) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """An empty transposition table of ``2**bits`` entries: (keys, moves, scores, info)."""
    size = 1 << bits
    return (
        np.zeros(size, dtype=np.uint64),
        np.full(size, -1, dtype=np.int32),
        np.zeros(size, dtype=np.int32),
        np.full(size, -1, dtype=np.int16),
    )


def clear_table(table) -> None:
    """Empty ``table``: every entry's ``info`` set to -1, which `table_probe` reads as empty before it
    looks at the other arrays, and `table_store` writes all four, so the key, move and score of a
    cleared entry are never read (an eighth of the bytes of writing all four: a shallow search's
    table is cleared before every move)."""
    table[3][:] = -1


@njit(cache=True)
def now():
    """Seconds of `time.perf_counter` (an object-mode call), jumping ahead when another thread stops
    this one's search (`hive_envs.core.cancel`)."""
    with numba.objmode(t="float64"):
        t = clock()
    return t


@njit(cache=True)
def tie_break(seed, move):
    """A value in [0, 16) fixed by (seed, move): orders moves the heuristics cannot tell apart."""
    return np.int32(mix64(np.uint64(seed) * np.uint64(65599) + np.uint64(move)) & np.uint64(15))


@njit(cache=True)
def terminal_score(winner, to_move, ply):
    """Score of a finished game for the side to move: winner 0/1, or -1 for a draw."""
    if winner < 0:
        return 0
    if winner == to_move:
        return WIN_SCORE - ply
    return -(WIN_SCORE - ply)


@njit(cache=True)
def score_to_table(score, ply):
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@njit(cache=True)
def score_from_table(score, ply):
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(cache=True)
def table_store(table, key, depth, score, alpha, beta, move, ply):
    """Store a node searched to ``depth`` with window (alpha, beta) that scored ``score``."""
    keys, moves, scores, info = table
    if score <= alpha:
        bound = BOUND_UPPER
    elif score >= beta:
        bound = BOUND_LOWER
    else:
        bound = BOUND_EXACT
    i = np.int64(key & np.uint64(keys.shape[0] - 1))
    keys[i] = key
    moves[i] = move
    scores[i] = score_to_table(score, ply)
    info[i] = depth * 4 + bound


@njit(cache=True)
def table_probe(table, key, depth, alpha, beta, ply, result):
    """Look ``key`` up: ``result[0]`` = the stored best move (-1 if none); returns True when the
    stored entry, searched at least ``depth`` deep, decides the node, with its score in ``result[1]``."""
    keys, moves, scores, info = table
    i = np.int64(key & np.uint64(keys.shape[0] - 1))
    result[0] = -1
    if keys[i] != key or info[i] < 0:
        return False
    result[0] = moves[i]
    if info[i] // 4 < depth:
        return False
    score = score_from_table(scores[i], ply)
    bound = info[i] % 4
    if (
        bound == BOUND_EXACT
        or (bound == BOUND_LOWER and score >= beta)
        or (bound == BOUND_UPPER and score <= alpha)
    ):
        result[1] = score
        return True
    return False


def search_plies(max_depth: int) -> int:
    """Plies the search buffers hold for ``max_depth``: room for the forced-move extensions."""
    return 2 * max_depth + 2


@njit(cache=True)
def child_depth(depth, moves_here, ply, plies):
    """Depth left to a child of a node at ``ply`` with ``depth`` left and ``moves_here`` legal moves:
    one less, except under a forced move (a single legal move, a pass included), which costs no
    depth while the buffers of ``plies`` plies have room (single-reply extension). Without it a
    depth-2 search facing a blocked opponent (who can only pass) sees one move of its own, never
    the two-move manoeuvre that ends the game."""
    if moves_here == 1 and ply + depth + 1 < plies:
        return depth
    return depth - 1


@njit(cache=True)
def select_next(moves, order, start, count):
    """Swap the move of highest ``order`` in ``[start, count)`` to ``start`` (selection sort step:
    cheap when a cut-off comes after a few moves, as it usually does)."""
    best = start
    for i in range(start + 1, count):
        if order[i] > order[best]:
            best = i
    if best != start:
        moves[start], moves[best] = moves[best], moves[start]
        order[start], order[best] = order[best], order[start]


# -- the per-ply frames of the iterative negamax both searches run ---------------------------------
# Each search walks its tree with an explicit stack (numba's cache cannot reload recursive
# functions reliably); these arrays hold, per ply, what a recursive negamax keeps in locals.
_TABLE_MOVE = 1 << 30
_KILLER_1 = 1 << 29
_KILLER_2 = 1 << 28
_HISTORY_CAP = (1 << 11) - 1


@njit(cache=True)
def new_frames(plies):
    """(count, index, alpha, alpha0, beta, best, best_move, depth_left, node_keys, line, line_len,
    killers): moves at each ply, the one being searched, the window (and alpha on entry), the best
    score and move so far, depth left, table key, the principal variation (triangular) and two
    killer moves."""
    return (
        np.zeros(plies, dtype=np.int64),
        np.zeros(plies, dtype=np.int64),
        np.zeros(plies, dtype=np.int64),
        np.zeros(plies, dtype=np.int64),
        np.zeros(plies, dtype=np.int64),
        np.zeros(plies, dtype=np.int64),
        np.full(plies, -1, dtype=np.int32),
        np.zeros(plies, dtype=np.int64),
        np.zeros(plies, dtype=np.uint64),
        np.zeros((plies + 1, plies + 1), dtype=np.int32),
        np.zeros(plies + 1, dtype=np.int64),
        np.full((plies, 2), -1, dtype=np.int32),
    )


@njit(cache=True)
def order_key(frames, ply, move, table_move, rank, history, seed):
    """Ordering key of ``move`` (higher first): the table's move, two killers, then the game's own
    static ``rank`` (small, >= 0), the history count and the seeded tie-break."""
    killers = frames[11]
    if move == table_move:
        return _TABLE_MOVE
    if move == killers[ply, 0]:
        return _KILLER_1
    if move == killers[ply, 1]:
        return _KILLER_2
    return (rank << 16) + (min(history[move], _HISTORY_CAP) << 4) + tie_break(seed, move)


@njit(cache=True)
def open_node(frames, ply, moves_here):
    """Start searching the ``moves_here`` moves of the node at ``ply``."""
    count, index, alpha, alpha0 = frames[0], frames[1], frames[2], frames[3]
    count[ply] = moves_here
    index[ply] = 0
    frames[5][ply] = -INFINITY
    frames[6][ply] = -1
    alpha0[ply] = alpha[ply]


@njit(cache=True)
def child_searched(frames, history, ply, move, value):
    """Fold the value of the child just searched (``move``, ``value`` from the side to move at
    ``ply``) into its parent: best, alpha, principal variation; at a cut-off the killers and the
    history table learn the move and the node's remaining moves are skipped."""
    count, index, alpha, beta, best, best_move = (
        frames[0],
        frames[1],
        frames[2],
        frames[4],
        frames[5],
        frames[6],
    )
    depth_left, line, line_len, killers = frames[7], frames[9], frames[10], frames[11]
    index[ply] += 1
    if value <= best[ply]:
        return
    best[ply] = value
    best_move[ply] = move
    if value <= alpha[ply]:
        return
    alpha[ply] = value
    line[ply, 0] = move
    for j in range(line_len[ply + 1]):
        line[ply, j + 1] = line[ply + 1, j]
    line_len[ply] = line_len[ply + 1] + 1
    if value >= beta[ply]:
        if move != killers[ply, 0]:
            killers[ply, 1] = killers[ply, 0]
            killers[ply, 0] = move
        history[move] += depth_left[ply] * depth_left[ply]
        index[ply] = count[ply]


@njit(cache=True)
def close_node(frames, table, use_table, ply):
    """The node at ``ply`` is done: store it in the table; returns its score."""
    best = frames[5]
    if use_table:
        alpha0, beta, best_move, depth_left, node_keys = frames[3], frames[4], frames[6], frames[7], frames[8]
        table_store(
            table, node_keys[ply], depth_left[ply], best[ply], alpha0[ply], beta[ply], best_move[ply], ply
        )
    return best[ply]


@njit(cache=True)
def root_line(frames, pv):
    """Copy the root's principal variation into ``pv``; returns its length."""
    line, line_len = frames[9], frames[10]
    for j in range(line_len[0]):
        pv[j] = line[0, j]
    return line_len[0]


@njit(cache=True)
def begin_iteration(frames, depth):
    """Set the root up for the iteration searching ``depth`` plies (full window)."""
    frames[2][0] = -INFINITY
    frames[4][0] = INFINITY
    frames[7][0] = depth


@njit(cache=True)
def clock_expired(time_s, ply, nodes, deadline):
    """Time to stop (read the clock every `CLOCK_EVERY` nodes, never at the root)."""
    return time_s > 0 and ply > 0 and nodes % CLOCK_EVERY == 0 and now() > deadline


@njit(cache=True)
def iteration_result(frames, pv):
    """An iteration completed: (best root move, its score, PV length written to ``pv``, whether
    deepening should stop: a single legal move or a proven result)."""
    count, best, best_move = frames[0], frames[5], frames[6]
    score = best[0]
    stop = count[0] == 1 or score > MATE_BOUND or score < -MATE_BOUND
    return best_move[0], score, root_line(frames, pv), stop


@njit(cache=True)
def aborted_result(frames, root_moves, move, score):
    """The time ran out mid-iteration: the last completed iteration's (move, score); if none
    completed, the best root move searched so far, else the first ordered root move."""
    if move >= 0:
        return move, score
    index, best, best_move = frames[1], frames[5], frames[6]
    if best_move[0] >= 0:
        return best_move[0], best[0]
    return root_moves[index[0]], 0


@njit(cache=True)
def finish_search(stats, pv, pv_len, move, score, depth_reached, nodes):
    """Write the result: ``stats`` = (score, depth reached, nodes, PV length); ``move``."""
    if pv_len == 0:
        pv[0] = move
        pv_len = 1
    stats[0] = score
    stats[1] = depth_reached
    stats[2] = nodes
    stats[3] = pv_len
    return move


# ---------------------------------------------------------------------------- Python side
def clip_below(scores: np.ndarray, margin: int | None) -> np.ndarray:
    """``scores`` with every score below the best - ``margin`` raised to it (None: unchanged)."""
    return scores if margin is None or len(scores) == 0 else np.maximum(scores, scores.max() - margin)


@dataclass(frozen=True)
class SearchResult:
    """Outcome of one search.

    ``move_id``: the move chosen (always legal; a Hive move id, or a Hoyito hole). ``score``: its value for the side to move at the
    root, from the deepest completed iteration (see `WIN_SCORE` for proven results).
    ``depth_reached``: plies of the deepest completed iteration (0 if the time ran out first).
    ``nodes``: positions visited. ``elapsed_s``: wall time. ``pv``: the principal variation.
    """

    move_id: int
    score: int
    depth_reached: int
    nodes: int
    elapsed_s: float
    pv: tuple[int, ...]

    @property
    def is_proven_win(self) -> bool:
        return self.score > MATE_BOUND

    @property
    def is_proven_loss(self) -> bool:
        return self.score < -MATE_BOUND


MAX_TIME_S = 3600.0


def check_limits(depth, time_s, max_depth: int, default_depth: int, owner: str) -> tuple[int, float | None]:
    """Validate a searcher's limits; returns (depth to search up to, seconds or None).

    ``depth``: None or an int in 1..max_depth. ``time_s``: None or a finite number in
    (0, MAX_TIME_S]. Both None: ``default_depth``. Time only: iterative deepening up to
    ``max_depth`` until the time is up.
    """
    if depth is not None:
        if isinstance(depth, (bool, np.bool_)) or not isinstance(depth, (int, np.integer)):
            raise ValueError(f"{owner} depth must be an int in 1..{max_depth} or None, got {depth!r}")
        if not 1 <= depth <= max_depth:
            raise ValueError(f"{owner} depth must be in 1..{max_depth}, got {depth!r}")
    if time_s is not None:
        if isinstance(time_s, (bool, np.bool_)) or not isinstance(
            time_s, (int, float, np.integer, np.floating)
        ):
            raise ValueError(f"{owner} time_s must be a number of seconds or None, got {time_s!r}")
        if not (math.isfinite(time_s) and 0 < time_s <= MAX_TIME_S):
            raise ValueError(f"{owner} time_s must be in (0, {MAX_TIME_S:g}] seconds, got {time_s!r}")
    if depth is None:
        depth = default_depth if time_s is None else max_depth
    return int(depth), (None if time_s is None else float(time_s))


def check_seed(seed, owner: str) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise ValueError(f"{owner} seed must be an int in [0, 2**63), got {seed!r}")
    return int(seed)


class AlphaBetaSearcher:
    """What `HiveAlphaBeta` and `HoyitoAlphaBeta` share: the limits, the seed, the table and the
    result. A subclass names ``game_class``, ``max_depth`` and ``default_depth`` and runs its
    kernel in ``_run_kernel(game, depth, time_s, table, pv, stats) -> move`` (``time_s`` 0: none)."""

    game_class: type[Game]
    max_depth: int
    default_depth: int
    keep_table = False
    """False: the table is cleared before every search. A subclass that sets it True clears it itself."""

    def __init__(
        self,
        depth: int | None = None,
        time_s: float | None = None,
        seed: int = 0,
        table_bits: int = DEFAULT_TABLE_BITS,
    ):
        name = type(self).__name__
        self.depth, self.time_s = check_limits(depth, time_s, self.max_depth, self.default_depth, name)
        self.seed = check_seed(seed, name)
        if isinstance(table_bits, bool) or not isinstance(table_bits, int) or not 10 <= table_bits <= 26:
            raise ValueError(f"{name} table_bits must be an int in 10..26, got {table_bits!r}")
        self._table = new_table(table_bits)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(depth={self.depth}, time_s={self.time_s}, seed={self.seed})"

    def search(self, game, depth: int | None = None, time_s: float | None = None) -> SearchResult:
        """Search ``game`` (left unchanged) with this player's limits, or with ``depth``/``time_s``
        when either is given (validated as in the constructor)."""
        name = type(self).__name__
        if not isinstance(game, self.game_class):
            raise ValueError(f"{name}.search needs a {self.game_class.__name__}, got {type(game).__name__}")
        if game.is_terminal:
            raise ValueError(f"{name}.search: the game is over")
        if depth is None and time_s is None:
            depth, time_s = self.depth, self.time_s
        else:
            depth, time_s = check_limits(depth, time_s, self.max_depth, self.default_depth, name)
        if not self.keep_table:
            clear_table(self._table)
        pv = np.zeros(search_plies(depth), dtype=np.int32)
        stats = np.zeros(4, dtype=np.int64)
        started = time.perf_counter()
        move = self._run_kernel(game, depth, 0.0 if time_s is None else time_s, self._table, pv, stats)
        elapsed = time.perf_counter() - started
        return SearchResult(
            move_id=int(move),
            score=int(stats[0]),
            depth_reached=int(stats[1]),
            nodes=int(stats[2]),
            elapsed_s=elapsed,
            pv=tuple(int(m) for m in pv[: stats[3]]),
        )

    def choose(self, game) -> int:
        """The move `search` picks (a Hive move id, a Hoyito hole)."""
        return self.search(game).move_id

    def move_scores(
        self, game, moves: np.ndarray, depth: int, margin: int | None = None
    ) -> tuple[np.ndarray, int]:
        """(each of ``moves``' score for the side to move in ``game`` (left unchanged), as a root search
        ``depth`` plies deep scores it; the nodes searched). Scores are in the searcher's units, a
        result proven at ply p from the root ±(`WIN_SCORE` - p), a move that ends the game
        ±(`WIN_SCORE` - 1), a draw 0. With ``margin``, a score more than ``margin`` below the best is
        raised to the best - ``margin`` (a searcher may then only prove that it is that low).

        Here: each move played on a copy of the game and the position after it searched ``depth`` - 1
        plies from a cleared table; a child's score is negated only when the side to move differs (a
        Hoyito capture gives an extra turn)."""
        self._check_move_scores(game, moves, depth, margin)
        mover = game.to_move
        scores = np.empty(len(moves), dtype=np.float64)
        nodes = 0
        for i, move in enumerate(moves):
            child = game.copy()
            child.play_id(int(move))
            if child.is_terminal:
                result0 = float(child.result)
                scores[i] = (WIN_SCORE - 1) * (result0 if mover == 0 else -result0)
                continue
            found = self.search(child, depth=depth - 1)
            nodes += found.nodes
            score = found.score if child.to_move == mover else -found.score
            scores[i] = score - np.sign(score) if abs(score) > MATE_BOUND else score  # one ply further
        return clip_below(scores, margin), nodes

    def _check_move_scores(self, game, moves, depth, margin) -> None:
        name = type(self).__name__
        if not isinstance(game, self.game_class):
            raise ValueError(
                f"{name}.move_scores needs a {self.game_class.__name__}, got {type(game).__name__}"
            )
        if game.is_terminal:
            raise ValueError(f"{name}.move_scores: the game is over")
        if (
            isinstance(depth, bool)
            or not isinstance(depth, (int, np.integer))
            or not 2 <= depth <= self.max_depth + 1
        ):
            raise ValueError(
                f"{name}.move_scores depth must be an int in 2..{self.max_depth + 1}, got {depth!r}"
            )
        if margin is not None and not (
            isinstance(margin, (int, np.integer)) and not isinstance(margin, bool) and margin > 0
        ):
            raise ValueError(f"{name}.move_scores margin must be a positive int or None, got {margin!r}")

    def _run_kernel(self, game, depth: int, time_s: float, table, pv: np.ndarray, stats: np.ndarray) -> int:
        raise NotImplementedError
