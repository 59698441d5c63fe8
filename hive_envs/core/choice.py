"""Choosing among legal moves: uniformly at random, or a best-scoring one with ties broken at random.

`random_legal_actions` scans action-mask rows in compiled code (one uniform per row, not one per
action: a Hive mask row has 12,673+ entries); `best_index` picks among the maxima of a score array.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def random_legal_actions(masks, rows, u, out):
    """``out[i]``: a uniformly random legal action of ``masks[rows[i]]``, picked by ``u[i]`` in [0, 1).

    Two scans of the row (count, then the chosen one); rows are never all zeros.
    """
    for i in range(rows.shape[0]):
        row = masks[rows[i]]
        count = 0
        for a in range(row.shape[0]):
            count += row[a]
        pick = int(u[i] * count)
        for a in range(row.shape[0]):
            if row[a]:
                if pick == 0:
                    out[i] = a
                    break
                pick -= 1


def best_index(scores: np.ndarray, rng: np.random.Generator) -> int:
    """The index of a largest score, uniformly at random among ties."""
    scores = np.asarray(scores)
    best = np.flatnonzero(scores == scores.max())
    return int(best[rng.integers(best.size)])
