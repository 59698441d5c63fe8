"""Compiled rule kernels of Hoyito II over one flat integer state array.

Every rule lives here once; `HoyitoGame` (one game), the AEC env and `HoyitoBatch`
(thousands of games in one call) all drive these same functions.

Board (absolute hole indices, n = holes_per_row, m = 2n)::

    North (player 1):   m-1  m-2  ...  n+1   n
    South (player 0):     0    1  ...  n-2  n-1

Sowing goes counter-clockwise, i -> (i + 1) mod m. Player p's k-th hole from their own
left is p*n + k.

State array (int32, length ``m + TAIL``); the entries after the holes are named by their offset
from ``m``, so ``s[m + TURN]`` is the player to move::

    [0, m)                 counters in each hole
    m + CAPTURED + p       captured total of player p (South 0, North 1)
    m + TURN               player to move (at the end: the player who made the last move)
    m + STALL              plies in a row without a capture
    m + OVER               1 once the game has ended
    m + PLY                plies played (automatic passes are not plies)

The kernels are plain Python over numpy arrays, so they also run with NUMBA_DISABLE_JIT=1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CASA = 4  #: a hole holding exactly this many counters after the last counter of a lap is taken

CAPTURED, TURN, STALL, OVER, PLY = 0, 2, 3, 4, 5  #: offsets from m = 2n (CAPTURED: two entries)
TAIL = 6  #: entries after the holes


def state_size(n):
    """Length of the state array for `n` holes per row."""
    return 2 * n + TAIL


@njit(cache=True)
def init_state(s, n, seeds):
    """Write the start position into `s`: `seeds` counters per hole, South to move."""
    m = 2 * n
    for i in range(m):
        s[i] = seeds
    for i in range(m, m + TAIL):
        s[i] = 0


@njit(cache=True)
def row_sum(s, n, player):
    total = 0
    for k in range(player * n, player * n + n):
        total += s[k]
    return total


@njit(cache=True)
def legal_mask(s, n, out):
    """Write 1 into out[k] when the mover's k-th hole (from their left) may be played, else 0."""
    base = s[2 * n + TURN] * n
    over = s[2 * n + OVER]
    for k in range(n):
        out[k] = 1 if (over == 0 and s[base + k] > 0) else 0


@njit(cache=True)
def _sow(s, m, hole):
    """Lift the counters of `hole` and sow them one per hole from hole+1 on; return the last hole."""
    count = s[hole]
    s[hole] = 0
    i = hole
    for _ in range(count):
        i += 1
        if i == m:
            i = 0
        s[i] += 1
    return i


@njit(cache=True)
def _capture(s, m, last):
    """Take the casa at `last` and the unbroken run of fours before it; return the counters taken."""
    taken = s[last]
    s[last] = 0
    j = last
    for _ in range(m - 1):  # never wraps back onto the starting hole
        j = j - 1 if j > 0 else m - 1
        if s[j] != CASA:
            break
        taken += CASA
        s[j] = 0
    return taken


@njit(cache=True)
def _end_game(s, m):
    s[m + OVER] = 1


@njit(cache=True)
def play(s, hole, n, max_laps, no_capture_limit):
    """Play the move lifting absolute `hole` for the player to move; return the counters it captured.

    The caller guarantees the move is legal. Performs sowing and relay laps, the capture with
    its backward chain, the last-four rule, the extra turn, automatic passes and the stall guard.
    """
    m = 2 * n
    p = s[m + TURN]
    s[m + PLY] += 1
    last = _sow(s, m, hole)
    laps = 1
    taken = 0
    while True:
        c = s[last]
        if c == CASA:
            taken = _capture(s, m, last)
            break
        if c == 1 or laps >= max_laps:
            break
        last = _sow(s, m, last)
        laps += 1

    if taken > 0:
        s[m + CAPTURED + p] += taken
        s[m + STALL] = 0
        left = row_sum(s, n, 0) + row_sum(s, n, 1)
        if left <= CASA:
            s[m + CAPTURED + p] += left
            for i in range(m):
                s[i] = 0
            _end_game(s, m)
            return taken + left
        nxt = p  # extra turn
    else:
        s[m + STALL] += 1
        if s[m + STALL] >= no_capture_limit:
            s[m + CAPTURED] += row_sum(s, n, 0)
            s[m + CAPTURED + 1] += row_sum(s, n, 1)
            for i in range(m):
                s[i] = 0
            _end_game(s, m)
            return taken
        nxt = 1 - p

    if row_sum(s, n, nxt) == 0:  # automatic pass
        nxt = 1 - nxt
        if row_sum(s, n, nxt) == 0:
            _end_game(s, m)
            return taken
    s[m + TURN] = nxt
    return taken


@njit(cache=True)
def play_checked(s, hole, n, max_laps, no_capture_limit, history, ply):
    """`play` if `hole` is a legal move now, after saving `s` and then `hole` into ``history[ply]``
    (one row of ``len(s) + 1`` entries, for undo and the game record); return the counters
    captured, or -1 with `s` and `history` unchanged if the move is not legal."""
    m = 2 * n
    base = s[m + TURN] * n
    if s[m + OVER] != 0 or hole < base or hole >= base + n or s[hole] == 0:
        return -1
    size = s.shape[0]
    history[ply, :size] = s
    history[ply, size] = hole
    return play(s, hole, n, max_laps, no_capture_limit)


@njit(cache=True)
def capture_values(s, n, max_laps, no_capture_limit, scratch, out):
    """out[k] = counters the mover would capture by playing their k-th hole, -1 where illegal.

    `scratch` is a state-sized buffer; `s` is left unchanged. Serves the greedy opponent.
    """
    m = 2 * n
    base = s[m + TURN] * n
    for k in range(n):
        if s[m + OVER] != 0 or s[base + k] == 0:
            out[k] = -1
            continue
        for i in range(m + TAIL):
            scratch[i] = s[i]
        out[k] = play(scratch, base + k, n, max_laps, no_capture_limit)


@njit(cache=True)
def captured_margin(s, n, seat):
    """Counters ``seat`` has captured minus those the opponent has."""
    m = 2 * n
    return s[m + CAPTURED + seat] - s[m + CAPTURED + 1 - seat]


@njit(cache=True)
def winner(s, n):
    """0 or 1 for the player with more captured counters, -1 for equal totals (call when over)."""
    m = 2 * n
    if s[m + CAPTURED] > s[m + CAPTURED + 1]:
        return 0
    if s[m + CAPTURED + 1] > s[m + CAPTURED]:
        return 1
    return -1


@njit(cache=True)
def encode(s, seat, n, no_capture_limit, total, out):
    """Write the observation of player `seat` into the float32 vector `out` (length 2n + 4).

    Layout (documented for users in hive_envs.hoyito_v0):
      [0, n)      own holes from own left, counters / 4
      [n, 2n)     opponent's holes from their left, counters / 4 (continues the sowing order)
      2n, 2n+1    own and opponent's captured totals / all counters
      2n+2        plies without capture / no_capture_limit (the stall guard's clock)
      2n+3        1.0 when `seat` is the player to move (at the end: made the last move)
    """
    m = 2 * n
    base = seat * n
    for j in range(m):
        k = base + j
        if k >= m:
            k -= m
        out[j] = s[k] / CASA
    out[m] = s[m + CAPTURED + seat] / total
    out[m + 1] = s[m + CAPTURED + 1 - seat] / total
    out[m + 2] = s[m + STALL] / no_capture_limit
    out[m + 3] = 1.0 if s[m + TURN] == seat else 0.0


@njit(cache=True)
def random_playout(s, n, max_laps, no_capture_limit, rng_state):
    """Play uniformly random moves until the end (a cheap xorshift picks them); return plies played.

    Used by the benchmark to time the rules alone, without Python in the loop.
    """
    mask = np.zeros(n, np.int8)
    m = 2 * n
    plies = 0
    x = rng_state
    while s[m + OVER] == 0:
        legal_mask(s, n, mask)
        count = 0
        for k in range(n):
            count += mask[k]
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        pick = x % count
        for k in range(n):
            if mask[k]:
                if pick == 0:
                    play(s, s[m + TURN] * n + k, n, max_laps, no_capture_limit)
                    break
                pick -= 1
        plies += 1
    return plies
