"""Scratch int32 array the move generator works in (one per game, or per thread in a batch).

Nothing in it is part of the position: it holds stamp counters and per-cell / per-move scratch
arrays that are never cleared. A cell or move is "marked" when its entry equals the current
stamp, so starting a new pass costs one increment instead of clearing 1024 or 29k entries.

    offset               length   contents
    W_STAMP = 0          1        stamp of the last move generation
    W_CLOCK = 1          1        discovery clock of the articulation-point DFS (monotonic)
    W_VSTAMP = 2         1        stamp of the last flood fill / candidate scan
    W_COUNT = 3          1        number of moves of the last generation (-1: none cached)
    MARK = 8             29*1024  MARK[move_id] == W_STAMP: move listed by the last generation
    VISIT                1024     per-cell visit stamps (W_VSTAMP)
    DISC, LOW            1024 x2  DFS discovery / low-link values (valid if >= the pass's base)
    ART                  1024     ART[cell] == W_STAMP: the cell is an articulation point
    STACK, ITER          64 x2    DFS stack of cells and next directions
    QUEUE                1024     flood-fill queue
    CAND                 256      candidate cells (placements)
"""

import numpy as np

from hive_envs.hive.engine.grid import NUM_CELLS
from hive_envs.hive.engine.jit import inline_kernel
from hive_envs.hive.engine.rules import NUM_MOVE_IDS

W_STAMP, W_CLOCK, W_VSTAMP, W_COUNT = 0, 1, 2, 3
MARK = 8
VISIT = MARK + NUM_MOVE_IDS
DISC = VISIT + NUM_CELLS
LOW = DISC + NUM_CELLS
ART = LOW + NUM_CELLS
STACK = ART + NUM_CELLS
ITER = STACK + 64
QUEUE = ITER + 64
CAND = QUEUE + NUM_CELLS
WORKSPACE_SIZE = CAND + 256

_STAMP_LIMIT = 1 << 30


def new_workspace() -> np.ndarray:
    w = np.zeros(WORKSPACE_SIZE, dtype=np.int32)
    w[W_COUNT] = -1
    w[W_CLOCK] = 1
    return w


@inline_kernel
def _restart_counters(w, limit):
    """Restart the counters when one is over ``limit`` (clears the arrays they index)."""
    if w[W_STAMP] > limit or w[W_VSTAMP] > limit or w[W_CLOCK] > limit:
        w[MARK:STACK] = 0
        w[W_STAMP] = 0
        w[W_VSTAMP] = 0
        w[W_CLOCK] = 1


@inline_kernel
def refresh(w):
    """Restart the counters before they can overflow (clears the arrays they index)."""
    _restart_counters(w, _STAMP_LIMIT)


@inline_kernel
def reserve_stamp(w):
    """A fresh move-generation stamp for marks that must outlive the next few generations (which
    count on from it: none reuses it), such as the pinned cells `movegen.generate_with_pins` reads.
    The counters are restarted here already at half their limit, so that no `refresh` of a
    generation that follows (billions of increments away) clears those marks."""
    _restart_counters(w, _STAMP_LIMIT // 2)
    w[W_STAMP] += 1
    return w[W_STAMP]


@inline_kernel
def next_visit_stamp(w):
    w[W_VSTAMP] += 1
    return w[W_VSTAMP]
