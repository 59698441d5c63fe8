"""The features of Hoyito II's learned evaluation (`hive_envs.core.learned_eval`), and its leaf.

``position_features(s, n, max_laps, limit, board, scratch)`` fills a `FeatureScratch` for the unfinished
position ``s`` (``board``: a copy of the state to play moves on):

- **sparse**, seen from each player p (the mover first): for each hole j = 0 .. 2n - 1 counted from p's
  first hole round the board in sowing order (p's row, then the other's), the hole holding c counters
  (0 .. 14, or 15 and more): feature ``j * BUCKETS + c``, one per hole. The board-values table the
  hand evaluation can take is this one-hot, weighed linearly; the network reads it through its hidden
  layers, so that the worth of a hole's counters can depend on the others (a run of holes that will
  capture together, a row about to empty);
- **dense** (`DENSE_NAMES`): the hand evaluation's two terms (the captured margin and the best capture
  the mover has now), both players' captured totals and the counters left in each row, all from the
  mover's side. The skip weights start as the hand evaluation (``COUNTER`` x margin + ``THREAT`` x
  the best capture: `hive_envs.hoyito.search.alphabeta.HOYITO_FEATURES`).

Boards of up to `MAX_HOLES_PER_ROW` holes a row (2x6 and 2x12).
"""

from __future__ import annotations

from numba import njit

from hive_envs.core.learned_eval import logit_score, network_logit
from hive_envs.hoyito.engine import kernels as K

MAX_HOLES_PER_ROW = 12
BUCKETS = 16  # 0 .. 14 counters, 15 or more
NUM_FEATURES = 2 * MAX_HOLES_PER_ROW * BUCKETS
MAX_ACTIVE = 2 * MAX_HOLES_PER_ROW
DENSE_NAMES = ("margin", "best_capture", "captured_own", "captured_other", "row_own", "row_other")
NUM_DENSE = len(DENSE_NAMES)


@njit(cache=True)
def best_capture(s, n, max_laps, limit, board):
    """The most counters one move of the player to move captures now (``board``: scratch)."""
    best = 0
    base = s[2 * n + K.TURN] * n
    for k in range(n):
        if s[base + k] > 0:
            board[:] = s
            best = max(best, K.play(board, base + k, n, max_laps, limit))
    return best


@njit(cache=True)
def position_features(s, n, max_laps, limit, board, scratch):
    """Fill ``scratch`` (`FeatureScratch` of `MAX_ACTIVE` and `NUM_DENSE`) for the unfinished position
    ``s`` of ``n`` <= `MAX_HOLES_PER_ROW` holes a row (module docstring)."""
    m = 2 * n
    p = s[m + K.TURN]
    for q in range(2):
        viewer = p if q == 0 else 1 - p
        for j in range(m):
            scratch.indices[q, j] = j * BUCKETS + min(s[(viewer * n + j) % m], BUCKETS - 1)
        scratch.counts[q] = m
    own, other = s[m + K.CAPTURED + p], s[m + K.CAPTURED + 1 - p]
    scratch.dense[0] = own - other
    scratch.dense[1] = best_capture(s, n, max_laps, limit, board)
    scratch.dense[2] = own
    scratch.dense[3] = other
    scratch.dense[4] = K.row_sum(s, n, p)
    scratch.dense[5] = K.row_sum(s, n, 1 - p)


@njit(cache=True)
def learned_evaluate(s, n, max_laps, limit, board, network, scratch):
    """Score of the unfinished position ``s`` for the player to move by ``network``."""
    position_features(s, n, max_laps, limit, board, scratch)
    return logit_score(network_logit(network, scratch))
