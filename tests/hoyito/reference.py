"""A slow, obviously-direct Python reading of the rules, used as a test oracle for the engine.

Lists and modular arithmetic instead of the engine's flat-array kernels; written straight
from `docs/rules/hoyito_ii.md`, one rule per line where possible.
"""

from __future__ import annotations


def reference_play(board, captured, to_move, stall, hole, n, max_laps, limit):
    """Return (board, captured, to_move, stall, over) after `to_move` plays absolute `hole`."""
    m = 2 * n
    b, cap, p = list(board), list(captured), to_move
    assert p * n <= hole < p * n + n and b[hole] > 0, "reference called with an illegal move"
    i, laps, taken = hole, 0, 0
    while True:
        counters, b[i] = b[i], 0  # lift (the origin is not skipped on laps of 2n or more)
        for _ in range(counters):
            i = (i + 1) % m
            b[i] += 1
        laps += 1
        if b[i] == 4:  # casa: capture it and the unbroken run of fours before it
            j = i
            for _ in range(m):
                if b[j] != 4:
                    break
                taken += 4
                b[j] = 0
                j = (j - 1) % m
            break
        if b[i] == 1 or laps == max_laps:  # empty hole, or the lap cap: the move ends
            break
        # otherwise relay: lift this hole on the next loop
    if taken:
        cap[p] += taken
        stall = 0
        if sum(b) <= 4:
            cap[p] += sum(b)
            return [0] * m, cap, p, stall, True
        nxt = p
    else:
        stall += 1
        if stall >= limit:
            cap[0] += sum(b[:n])
            cap[1] += sum(b[n:])
            return [0] * m, cap, p, stall, True
        nxt = 1 - p
    if sum(b[nxt * n : nxt * n + n]) == 0:  # automatic pass
        nxt = 1 - nxt
        if sum(b[nxt * n : nxt * n + n]) == 0:
            return b, cap, p, stall, True
    return b, cap, nxt, stall, False
