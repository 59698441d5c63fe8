"""Two-ply rule features for the Hoyito network, computed from the observation alone.

Hoyito's relay sowing makes the result of a move a chaotic function of the board: a network
that sees only the counters has to learn to simulate sowing before it can see a capture (a
plain MLP stalls near 70% vs random and 15% vs greedy after 5 minutes of training; see
docs/training.md). So the Hoyito network gets, for each action, what the rules say it
does, and learns how to weigh it. These are inputs, not a search: the policy still picks
moves by one forward pass.

The observation is Markov (it holds the mover's view of every hole, both captured totals and
the stall clock), so it decodes to an engine state with the mover as seat 0, and the engine's
own `play` kernel (no second implementation of the rules) simulates each move.

Features per action k (shape (n, FEATURES)):
  0  legal (1.0) or not (0.0: all other features 0)
  1  counters captured by the move / 8
  2  captured-count margin (mover minus opponent) after the move / all counters
  3  1.0 when the move ends the game
  4  the mover's best capture on the extra turn a capture gives / 8 (0 if no extra turn)
  5  the opponent's best immediate capture after the move / 8 (0 if the mover moves again)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hive_envs.hoyito.encoding import decode_observation
from hive_envs.hoyito.engine.kernels import OVER, TAIL, TURN, capture_values, captured_margin, play

FEATURES = 6
SCALE = 8.0


@njit(cache=True)
def lookahead_features(obs, n, seeds, max_laps, limit, out):
    """Fill out[b, k, :] for each observation row b (float32 (B, 2n+4)) and action k."""
    m = 2 * n
    total = m * seeds
    s = np.zeros(m + TAIL, np.int32)
    t = np.zeros(m + TAIL, np.int32)
    u = np.zeros(m + TAIL, np.int32)
    values = np.zeros(n, np.int32)
    for b in range(obs.shape[0]):
        decode_observation(obs[b], n, seeds, limit, s)
        for k in range(n):
            for f in range(out.shape[2]):
                out[b, k, f] = 0.0
            if s[k] == 0:
                continue
            for i in range(m + TAIL):
                t[i] = s[i]
            taken = play(t, k, n, max_laps, limit)
            out[b, k, 0] = 1.0
            out[b, k, 1] = taken / SCALE
            out[b, k, 2] = captured_margin(t, n, 0) / total
            if t[m + OVER] != 0:
                out[b, k, 3] = 1.0
                continue
            capture_values(t, n, max_laps, limit, u, values)  # the reply's (or extra turn's) captures
            best = max(0, values.max())
            if t[m + TURN] == 0:
                out[b, k, 4] = best / SCALE
            else:
                out[b, k, 5] = best / SCALE
