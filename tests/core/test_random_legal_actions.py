"""`random_legal_actions` picks exactly the int(u * count)-th legal action, whatever the row length
and wherever the legal actions sit relative to its summing blocks."""

from __future__ import annotations

import numpy as np
import pytest

from hive_envs.core.choice import _BLOCK, random_legal_actions


def _reference(row, u):
    legal = np.flatnonzero(row)
    return int(legal[int(u * legal.size)])


@pytest.mark.parametrize("width", [1, 2, _BLOCK - 1, _BLOCK, _BLOCK + 1, 3 * _BLOCK, 12673])
def test_pick_equals_the_reference_for_rows_across_block_boundaries(width):
    rng = np.random.default_rng(width)
    masks = (rng.random((40, width)) < rng.random((40, 1)) * 0.05).astype(np.int8)
    masks[np.arange(40), rng.integers(0, width, 40)] = 1  # never all zeros
    masks[0, :] = 0
    masks[0, width - 1] = 1  # the only legal action is the last entry
    masks[1, :] = 1  # every action legal
    u = rng.random(40)
    u[:4] = [0.0, 0.999999, 0.0, 0.999999]
    rows = np.arange(40)[::-1].copy()  # rows in any order
    out = np.full(40, -1, np.int64)
    random_legal_actions(masks, rows, u, out)
    assert [int(a) for a in out] == [_reference(masks[r], u[i]) for i, r in enumerate(rows)]
