"""Two-ply rule features for the Hoyito network, computed from the observation alone.

Hoyito's relay sowing makes the result of a move a chaotic function of the board: a network
that sees only the counters has to learn to simulate sowing before it can see a capture (how a
plain MLP fared: docs/experiments/history.md). So the Hoyito network gets, for each action, what
the rules say it does, and learns how to weigh it. These are inputs, not a search: the policy still picks
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

Feature set 2 (`FEATURE_SETS`) adds what a search of the position after the move says, by the
package's own alpha-beta (`hive_envs.hoyito.search.alphabeta`, its evaluation and its kernel;
no transposition table, so a feature is a function of the observation alone), with the network's
learned board values added to the evaluation where it has them (`board_values`, below):
  6  the alpha-beta value of the position after the move, searched ``depth`` plies deep, for the
     mover, in units of 8 counters (`SEARCH_SCALE`), clipped to +-2 (a proven result: +-2)
  7  +1.0 when that search proves a win for the mover, -1.0 a loss, 0 otherwise
Forced replies (a position with one legal move) are played before the search, as the search's
own single-reply extension would. A policy over set 2 that only reads feature 6 plays like an
alpha-beta of ``depth + 1`` plies; training learns what to add to it.

``board_values`` (`HoyitoRuleFeatures.board_values`): the alpha-beta's optional table of learned
board values (`hive_envs.hoyito.search.alphabeta`, fitted to self-play outcomes by
`hive_envs.hoyito.agent.board_values`); `NO_BOARD_VALUES` (the default): the hand evaluation alone.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from hive_envs.agents.threads import thread_count
from hive_envs.core.alphabeta import MATE_BOUND, new_table, search_plies, terminal_score
from hive_envs.hoyito.agent.options import DEFAULT_SEARCH_DEPTH
from hive_envs.hoyito.encoding import decode_observation
from hive_envs.hoyito.engine.kernels import (
    OVER,
    TAIL,
    TURN,
    capture_values,
    captured_margin,
    legal_mask,
    play,
    winner,
)
from hive_envs.hoyito.search.alphabeta import COUNTER, MAX_DEPTH, NO_BOARD_VALUES, alphabeta_kernel

FEATURES = 6
FEATURE_SETS = {1: 6, 2: 8}  #: feature set -> features per action
SCALE = 8.0
SEARCH_SCALE = 8.0 * COUNTER  #: feature 6's unit: 8 counters of alpha-beta score
SEARCH_CLIP = 2.0
_FORCED_CAP = 16  #: forced replies played before a search (each one ends a lap of sowing)


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


@njit(cache=True)
def _searched_value(t, n, max_laps, limit, depth, table, pv, stats, u, board_values):
    """The alpha-beta value of unfinished position ``t`` for seat 0 (feature 6's score units);
    ``t`` is changed (forced replies are played on it)."""
    m = 2 * n
    for _ in range(_FORCED_CAP):
        legal_mask(t, n, u)
        count = 0
        last = -1
        for k in range(n):
            if u[k]:
                count += 1
                last = k
        if count != 1:
            break
        play(t, t[m + TURN] * n + last, n, max_laps, limit)
        if t[m + OVER] != 0:
            return terminal_score(winner(t, n), 0, 0)
    alphabeta_kernel(t.copy(), n, max_laps, limit, depth, 0.0, 0, table, False, pv, stats, board_values)
    return stats[0] if t[m + TURN] == 0 else -stats[0]


@njit(cache=True, nogil=True)  # `HoyitoRuleFeatures` runs slices of the rows on threads at once
def search_features(obs, n, seeds, max_laps, limit, depth, table, pv, board_values, out):
    """Fill features 6 and 7 (feature set 2; the module doc) of out[b, k, :] for each row b, after
    `lookahead_features` filled 0-5 (feature 0 says which moves are legal, 3 which end the game)."""
    m = 2 * n
    s = np.zeros(m + TAIL, np.int32)
    t = np.zeros(m + TAIL, np.int32)
    u = np.zeros(n, np.bool_)
    stats = np.zeros(4, np.int64)
    for b in range(obs.shape[0]):
        decode_observation(obs[b], n, seeds, limit, s)
        for k in range(n):
            out[b, k, 6] = 0.0
            out[b, k, 7] = 0.0
            if out[b, k, 0] == 0.0:
                continue
            for i in range(m + TAIL):
                t[i] = s[i]
            play(t, k, n, max_laps, limit)
            if t[m + OVER] != 0:
                score = terminal_score(winner(t, n), 0, 0)
            else:
                score = _searched_value(t, n, max_laps, limit, depth, table, pv, stats, u, board_values)
            if score > MATE_BOUND:
                out[b, k, 6] = SEARCH_CLIP
                out[b, k, 7] = 1.0
            elif score < -MATE_BOUND:
                out[b, k, 6] = -SEARCH_CLIP
                out[b, k, 7] = -1.0
            else:
                out[b, k, 6] = min(SEARCH_CLIP, max(-SEARCH_CLIP, score / SEARCH_SCALE))


class HoyitoRuleFeatures:
    """Callable: Hoyito observations (B, 2n+4) -> per-action features (B, n, FEATURE_SETS[set]).
    ``threads``: how many slices of the rows feature set 2's search runs at once (None: numba's thread
    count; the values are the same)."""

    def __init__(self, holes: int, seeds: int, max_laps: int, limit: int, feature_set: int = 1,
                 search_depth: int = DEFAULT_SEARCH_DEPTH, threads: int | None = None):  # fmt: skip
        if feature_set not in FEATURE_SETS:
            raise ValueError(f"feature_set must be one of {sorted(FEATURE_SETS)}, got {feature_set!r}")
        if (
            isinstance(search_depth, bool)
            or not isinstance(search_depth, int)
            or not 1 <= search_depth <= MAX_DEPTH
        ):
            raise ValueError(f"search_depth must be an int in 1..{MAX_DEPTH}, got {search_depth!r}")
        self.holes, self.rules = holes, (seeds, max_laps, limit)
        self.feature_set, self.search_depth = feature_set, search_depth
        self.features = FEATURE_SETS[feature_set]
        self.table = new_table(10)  # unused (the search runs without it) but the kernel takes one
        thread_count(threads)  # checked now, read at each call (None: numba's count then)
        self.threads = threads
        self.pvs: list[np.ndarray] = []  # a principal-variation buffer per thread a call runs (`_search`)
        self.board_values = NO_BOARD_VALUES

    def __call__(self, observations: np.ndarray) -> np.ndarray:
        obs = np.ascontiguousarray(observations, dtype=np.float32)
        out = np.zeros((obs.shape[0], self.holes, self.features), dtype=np.float32)
        lookahead_features(obs, self.holes, *self.rules, out)
        if self.feature_set == 2:
            self._search(obs, out)
        return out

    def _search(self, obs: np.ndarray, out: np.ndarray) -> None:
        """`search_features` over the rows, in one contiguous slice per thread (the kernel releases the
        GIL; each slice with its own buffers, so the threads change no value)."""
        lanes = max(1, min(thread_count(self.threads), obs.shape[0]))
        while len(self.pvs) < lanes:
            self.pvs.append(np.zeros(search_plies(self.search_depth), np.int32))

        def search(lane: int, start: int, stop: int) -> None:
            search_features(
                obs[start:stop], self.holes, *self.rules, self.search_depth, self.table, self.pvs[lane],
                self.board_values, out[start:stop],
            )  # fmt: skip

        if lanes <= 1:
            search(0, 0, obs.shape[0])
            return
        bounds = np.linspace(0, obs.shape[0], lanes + 1).astype(int)
        with ThreadPoolExecutor(lanes) as pool:
            for done in [pool.submit(search, lane, bounds[lane], bounds[lane + 1]) for lane in range(lanes)]:
                done.result()
