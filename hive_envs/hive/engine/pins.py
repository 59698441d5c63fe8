"""Pinned pieces (One Hive rule): articulation points of the hive, found once per position.

The hive graph has one node per occupied cell and an edge between neighbouring occupied cells. A
ground-level piece (stack height 1) whose cell is an articulation point cannot leave without
splitting the hive: it is pinned. A piece on top of a stack never is (its cell stays occupied).

`mark_articulation_cells` is an iterative Tarjan DFS over at most 28 nodes. `splits_hive` is the
obviously-correct slow check (remove, flood fill, count) kept as the test oracle.
"""

from hive_envs.hive.engine.grid import NEIGHBOURS
from hive_envs.hive.engine.jit import kernel
from hive_envs.hive.engine.pieces import NUM_PIECES
from hive_envs.hive.engine.state import HEIGHT, PCELL
from hive_envs.hive.engine.workspace import (
    ART,
    DISC,
    ITER,
    LOW,
    QUEUE,
    STACK,
    VISIT,
    W_CLOCK,
    next_visit_stamp,
)


@kernel
def mark_articulation_cells(s, w, stamp):
    """Set ``w[ART + cell] = stamp`` for every articulation cell of the hive."""
    root = -1
    for p in range(NUM_PIECES):
        if s[PCELL + p] >= 0:
            root = s[PCELL + p]
            break
    if root < 0:
        return
    base = w[W_CLOCK]
    clock = base
    w[DISC + root] = clock
    w[LOW + root] = clock
    clock += 1
    root_children = 0
    w[STACK] = root
    w[ITER] = 0
    sp = 1
    while sp > 0:
        v = w[STACK + sp - 1]
        d = w[ITER + sp - 1]
        if d < 6:
            w[ITER + sp - 1] = d + 1
            u = NEIGHBOURS[v * 6 + d]
            if s[HEIGHT + u] == 0:
                continue
            if w[DISC + u] < base:
                w[DISC + u] = clock
                w[LOW + u] = clock
                clock += 1
                w[STACK + sp] = u
                w[ITER + sp] = 0
                sp += 1
                if v == root:
                    root_children += 1
            elif sp < 2 or u != w[STACK + sp - 2]:
                w[LOW + v] = min(w[LOW + v], w[DISC + u])
        else:
            sp -= 1
            if sp > 0:
                parent = w[STACK + sp - 1]
                w[LOW + parent] = min(w[LOW + parent], w[LOW + v])
                if parent != root and w[LOW + v] >= w[DISC + parent]:
                    w[ART + parent] = stamp
    if root_children >= 2:
        w[ART + root] = stamp
    w[W_CLOCK] = clock


@kernel
def hive_size_from(s, w, start):
    """Number of occupied cells reachable from ``start`` through occupied cells (flood fill)."""
    vs = next_visit_stamp(w)
    w[VISIT + start] = vs
    w[QUEUE] = start
    head, tail = 0, 1
    while head < tail:
        v = w[QUEUE + head]
        head += 1
        for d in range(6):
            u = NEIGHBOURS[v * 6 + d]
            if s[HEIGHT + u] > 0 and w[VISIT + u] != vs:
                w[VISIT + u] = vs
                w[QUEUE + tail] = u
                tail += 1
    return tail


@kernel
def splits_hive(s, w, cell):
    """Slow oracle: does emptying ``cell`` leave the other occupied cells disconnected?"""
    other = -1
    for p in range(NUM_PIECES):
        c = s[PCELL + p]
        if c >= 0 and c != cell:
            other = c
    if other < 0:
        return False
    saved = s[HEIGHT + cell]
    s[HEIGHT + cell] = 0
    reached = hive_size_from(s, w, other)
    # Count the distinct occupied cells other than ``cell``.
    vs = next_visit_stamp(w)
    occupied = 0
    for p in range(NUM_PIECES):
        c = s[PCELL + p]
        if c >= 0 and c != cell and w[VISIT + c] != vs:
            w[VISIT + c] = vs
            occupied += 1
    s[HEIGHT + cell] = saved
    return reached != occupied
