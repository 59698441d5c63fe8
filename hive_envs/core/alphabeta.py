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
    table[0][:] = 0
    table[1][:] = -1
    table[2][:] = 0
    table[3][:] = -1


@njit(cache=True)
def now():
    """Seconds of `time.perf_counter` (an object-mode call)."""
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True)
def mix64(x):
    """splitmix64 of a uint64: hashes positions and draws the seeded tie-break of move ordering."""
    x = (x + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


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
def table_store(keys, moves, scores, info, key, depth, score, alpha, beta, move, ply):
    """Store a node searched to ``depth`` with window (alpha, beta) that scored ``score``."""
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
def table_probe(keys, moves, scores, info, key, depth, alpha, beta, ply, result):
    """Look ``key`` up: ``result[0]`` = the stored best move (-1 if none); returns True when the
    stored entry, searched at least ``depth`` deep, decides the node, with its score in ``result[1]``."""
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


# ---------------------------------------------------------------------------- Python side
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
