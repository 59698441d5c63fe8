"""Choosing among legal moves: uniformly at random, or a best-scoring one with ties broken at random.

`random_legal_actions` scans action-mask rows in compiled code (one uniform per row, not one per
action: a Hive mask row has 12,673+ entries); `best_index` picks among the maxima of a score array.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_BLOCK = 256
"""Mask entries summed at a time by `random_legal_actions`."""


@njit(cache=True)
def random_legal_actions(masks, rows, u, out):
    """``out[i]``: a uniformly random legal action of ``masks[rows[i]]``, picked by ``u[i]`` in [0, 1).

    The ``int(u[i] * count)``-th legal action (from 0, in index order) of a row of 0/1 entries,
    never all zeros. One pass sums the row block by block, then only the block holding the chosen
    action is scanned entry by entry: a scan with a branch per entry of a 12,673-entry Hive row
    cost more than the Hive step itself. The sums loop over slices from index 0, which numba
    vectorises (a loop from a computed start index it does not).
    """
    size = masks.shape[1]
    sums = np.empty((size + _BLOCK - 1) // _BLOCK, dtype=np.int64)
    for i in range(rows.shape[0]):
        row = masks[rows[i]]
        count = 0
        for b in range(sums.shape[0]):
            block = row[b * _BLOCK : (b + 1) * _BLOCK]
            in_block = 0
            for a in range(block.shape[0]):
                in_block += block[a]
            sums[b] = in_block
            count += in_block
        pick = int(u[i] * count)
        b = 0
        while pick >= sums[b]:
            pick -= sums[b]
            b += 1
        block = row[b * _BLOCK : (b + 1) * _BLOCK]
        for a in range(block.shape[0]):
            if block[a]:
                if pick == 0:
                    out[i] = b * _BLOCK + a
                    break
                pick -= 1


def best_index(scores: np.ndarray, rng: np.random.Generator) -> int:
    """The index of a largest score, uniformly at random among ties."""
    scores = np.asarray(scores)
    best = np.flatnonzero(scores == scores.max())
    return int(best[rng.integers(best.size)])
