"""The Hive network's rule features, computed from the observation alone (`HiveRuleFeatures`).

The observation is Markov, so it decodes to an engine state (`encoding.decode_observation`), and the
one feature kernel, `hive_envs.hive.rule_features.state_features` (what each legal move does, by the
engine's own kernels; its module docstring has the feature tables, feature set 2 and the reasons),
runs on it.
The Gymnasium envs' ``rule_features=True`` observation runs the same kernel on the env's own state,
so a framework's network sees exactly these features.

`HiveRuleFeatures.from_states` is the search's path (`hive_envs.hive.agent.evaluator`): the leaves
of a search are engine states already, so it runs the kernel on them and writes their observations
beside (no state -> planes -> state round trip), and returns the legal moves in the features' order.
It keeps the kernel's evaluation cache (`rule_features.new_evaluation_cache`) from call to call, so
the leaves of one search (and of the next searches of the same games) share their evaluations;
``__call__`` runs its rows in parallel and so without one. The values are the same either way.

**A deeper searched value** (``search_depth`` D >= 3, feature set 2 only): the columns of the two-ply
value (action features 12 and 13, position feature 5) then hold what the package's alpha-beta player
(`HiveAlphaBeta`: its evaluation, quiescence search and move ordering) scores each move at a root
search D plies deep, in the same units (/ `EVAL_SCALE`, clipped to +-`EVAL_CLIP`; a proven win or
loss clips to +-`EVAL_CLIP`) and with the same margin (`TWO_PLY_MARGIN`: a move more than that below
the best is only proven to be so, and reads -1 in feature 12). So the rule over these features
(`network.RULE_WEIGHTS`, the searched value first) plays as the D-ply alpha-beta does, and a
network trained from it starts there. Why: the two-ply value alone sees less than the ladder's
`alphabeta:2` (which has a quiescence search), and the features are what a one-pass policy can
build on, as the Hoyito features hold a search (docs/experiments/hive_searched_features.md). The
positions are searched alone: the game's history is not known from an observation, so no
repetition counts as a draw inside the search but the position itself. Cost: the search, one
kernel call per position (depth 3: about 35 ms median, 120 ms at the 90th percentile on one core),
against ~2 ms for the rest of the features. The
rows' searches run on ``threads`` threads at once (the kernel releases the GIL; one searcher, with its
own tables, per thread), the same values as one thread gives: 96 positions of depth 3 in 1.67 s on
two threads, 3.08 s on one (`benchmarks/feature_threads.py`).
"""

from __future__ import annotations

import queue
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from numba import njit, prange

from hive_envs.agents.threads import thread_count
from hive_envs.hive import encoding as E
from hive_envs.hive.agent.options import TWO_PLY
from hive_envs.hive.engine.game import HiveGame
from hive_envs.hive.engine.movegen import MAX_MOVES
from hive_envs.hive.engine.options import HiveOptions
from hive_envs.hive.engine.state import I_TO_MOVE
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.rule_features import (
    ACTION_FEATURES,
    EVAL_CLIP,
    EVAL_SCALE,
    FEATURE_SETS,
    MOBILITY_SCALE,
    POSITION_FEATURES,
    TWO_PLY_MARGIN,
    new_evaluation_cache,
    scaled_best_two_ply_value,
    state_features,
)
from hive_envs.hive.search.alphabeta import HiveAlphaBeta

__all__ = [
    "ACTION_FEATURES",
    "FEATURE_SETS",
    "MOBILITY_SCALE",
    "POSITION_FEATURES",
    "TWO_PLY",
    "HiveRuleFeatures",
]


@njit(cache=True, parallel=True)
def _batch_features(
    obs,
    template,
    grid,
    n_tiles,
    engine_slot,
    slot_of,
    n_kinds,
    workspaces,
    actions,
    features,
    position,
    counts,
):
    """Features of each observation (row), decoded to a state: see the module doc. Rows in parallel:
    worker c takes rows c, c + T, ... with its own workspace (T workspaces) and no evaluation cache
    (the workers would share it)."""
    lanes = workspaces.shape[0]
    for c in prange(lanes):
        moves = np.empty(MAX_MOVES, dtype=np.int32)
        replies = np.empty(MAX_MOVES, dtype=np.int32)
        no_cache = np.zeros((1, 3), dtype=np.int64)
        for b in range(c, obs.shape[0], lanes):
            s = template.copy()
            E.decode_observation(obs[b], grid, n_tiles, engine_slot, n_kinds, s)
            counts[b] = state_features(
                s, grid, n_tiles, slot_of, workspaces[c], moves, replies, actions[b], features[b],
                position[b], no_cache,
            )  # fmt: skip


@njit(cache=True)
def _decode_states(obs, template, grid, n_tiles, engine_slot, n_kinds, states):
    """The engine state of each observation (row of ``states``)."""
    for b in range(obs.shape[0]):
        states[b] = template
        E.decode_observation(obs[b], grid, n_tiles, engine_slot, n_kinds, states[b])


@njit(cache=True)
def _states_inputs(states, grid, n_tiles, slot_of, kinds, w, cache, out):
    """For each engine state (row): its observation for the player to move, its rule features, and
    its legal moves in the features' order (`state_features`; rows wider than ``actions`` get only
    their count, for a retry). ``out``: (observations, moves, actions, features, position, counts)."""
    observations, moves_out, actions, features, position, counts = out
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    replies = np.empty(MAX_MOVES, dtype=np.int32)
    for b in range(states.shape[0]):
        s = states[b]
        count = state_features(
            s, grid, n_tiles, slot_of, w, moves, replies, actions[b], features[b], position[b], cache
        )
        counts[b] = count
        if count <= moves_out.shape[1]:
            moves_out[b, :count] = moves[:count]
        E.encode_observation(s, s[I_TO_MOVE], grid, n_tiles, slot_of, kinds, observations[b])


class HiveRuleFeatures:
    """Callable: observations (B, P, C, C) uint8 of one game type -> per-action rule features.

    Returns ``(actions, features, position)``: ``actions`` int64 (B, K) the legal action indices
    of each row (K = the largest legal count in the batch; shorter rows are padded with
    ``num_actions``, one past the last action), ``features`` float32 (B, K, F) (padding rows all
    zero), ``position`` float32 (B, G), where (F, G) = ``FEATURE_SETS[feature_set]``: (11, 5) for
    feature set 1, (14, 7) for feature set 2 (the module doc). ``search_depth`` (feature set 2): the
    plies of the searched value, `TWO_PLY` or 3 .. ``HiveAlphaBeta.max_depth + 1`` (the module doc);
    ``threads``: how many rows that deeper search runs at once (None: numba's thread count).
    """

    def __init__(
        self,
        expansions: str,
        tournament_opening: bool,
        max_turns: int | None,
        feature_set: int = 1,
        search_depth: int = TWO_PLY,
        threads: int | None = None,
    ):
        if feature_set not in FEATURE_SETS:
            raise ValueError(f"feature_set must be one of {sorted(FEATURE_SETS)}, got {feature_set!r}")
        deepest = HiveAlphaBeta.max_depth + 1
        if isinstance(search_depth, bool) or not isinstance(search_depth, (int, np.integer)):
            raise ValueError(f"search_depth must be an int, got {search_depth!r}")
        if search_depth != TWO_PLY and (feature_set != 2 or not 3 <= search_depth <= deepest):
            raise ValueError(
                f"search_depth must be {TWO_PLY} (the two-ply value) or, with feature set 2, 3..{deepest}; "
                f"got {search_depth!r} with feature set {feature_set}"
            )
        self.search_depth = int(search_depth)
        self.action_features, self.position_features = FEATURE_SETS[feature_set]
        self.encoding = E.make_encoding(expansions)
        self.template = HiveOptions(expansions, bool(tournament_opening), max_turns or None).new_state()
        thread_count(threads)  # checked now, read at each call
        self.threads = threads
        # one move-generator workspace per thread numba uses for the rows (`_batch_features`)
        self.workspaces = np.stack([new_workspace() for _ in range(numba.get_num_threads())])
        # the deeper searched value's searchers, one per thread a call runs (`_searched_values`): every
        # search from a cleared table (no kept state), with the search's depth given per call
        self.searchers: list[HiveAlphaBeta] = []
        self.capacity = 256
        self.evaluation_cache: np.ndarray | None = None  # `from_states`', made on its first call
        self._moves = np.empty(MAX_MOVES, dtype=np.int32)  # `best_value`'s scratch
        self._replies = np.empty(MAX_MOVES, dtype=np.int32)

    def __call__(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        obs = np.ascontiguousarray(observations, dtype=np.uint8)
        enc = self.encoding
        if obs.ndim != 4 or obs.shape[1:] != enc.observation_shape:
            raise ValueError(
                f"expected Hive observations (B, {enc.observation_shape}), got shape {obs.shape}"
            )
        rows = obs.shape[0]
        if self.searches_deeper:  # the search runs on states: decode them, then `from_states`
            states = np.empty((rows, self.template.shape[0]), dtype=np.int32)
            _decode_states(
                obs, self.template, enc.grid, enc.tiles_per_colour, enc.engine_slot, len(enc.kinds), states
            )
            _, _, actions, features, position, _ = self.from_states(states)
            return actions, features, position
        counts = np.zeros(rows, dtype=np.int64)
        position = np.zeros((rows, self.position_features), dtype=np.float32)
        while True:
            actions = np.full((rows, self.capacity), enc.num_actions, dtype=np.int64)
            features = np.zeros((rows, self.capacity, self.action_features), dtype=np.float32)
            _batch_features(
                obs, self.template, enc.grid, enc.tiles_per_colour, enc.engine_slot, enc.slot_of,
                len(enc.kinds), self.workspaces, actions, features, position, counts,
            )  # fmt: skip
            if rows == 0 or counts.max() <= self.capacity:
                break
            self.capacity = int(counts.max())  # a rare wide position: redo with room for it
        width = max(int(counts.max()) if rows else 0, 1)
        return actions[:, :width], features[:, :width], position

    def best_value(self, state: np.ndarray) -> float:
        """Position feature 5 of feature set 2 of one unfinished engine state (its best two-ply value,
        scaled), as float32 like `from_states`' ``position``, by the two-ply alpha-beta
        (`rule_features.scaled_best_two_ply_value`) through the same evaluation cache; with a deeper
        ``search_depth``, the alpha-beta player's best score at that depth (the module doc)."""
        if self.searches_deeper:
            game = HiveGame.from_state(state)
            scores, _ = self._searchers(1)[0].move_scores(game, game.legal_move_ids(), self.search_depth, 1)
            return float(_scaled(scores.max()))
        if self.evaluation_cache is None:
            self.evaluation_cache = new_evaluation_cache()
        state = np.array(state, dtype=np.int32)  # the kernel plays on it: a copy
        value = scaled_best_two_ply_value(
            state, self.workspaces[0], self._moves, self._replies, self.evaluation_cache
        )
        return float(np.float32(value))

    def from_states(self, states: np.ndarray) -> tuple[np.ndarray, ...]:
        """Engine states (B, STATE_SIZE) of unfinished positions of this game type -> ``(observations
        (B, P, C, C) uint8 of the player to move, moves (B, K) int32, actions, features, position,
        counts (B,))``: the arrays of ``__call__`` (row b's first counts[b] entries are its legal
        moves, in the order of ``moves``) without decoding any observation."""
        states = np.array(states, dtype=np.int32)  # the kernel plays on its rows: a copy
        if self.evaluation_cache is None:
            self.evaluation_cache = new_evaluation_cache()
        enc = self.encoding
        rows = states.shape[0]
        counts = np.zeros(rows, dtype=np.int64)
        position = np.zeros((rows, self.position_features), dtype=np.float32)
        observations = np.zeros((rows, *enc.observation_shape), dtype=np.uint8)
        while True:
            moves = np.zeros((rows, self.capacity), dtype=np.int32)
            actions = np.full((rows, self.capacity), enc.num_actions, dtype=np.int64)
            features = np.zeros((rows, self.capacity, self.action_features), dtype=np.float32)
            _states_inputs(
                states, enc.grid, enc.tiles_per_colour, enc.slot_of, enc.kinds, self.workspaces[0],
                self.evaluation_cache, (observations, moves, actions, features, position, counts),
            )  # fmt: skip
            if rows == 0 or counts.max() <= self.capacity:
                break
            self.capacity = int(counts.max())
        if self.searches_deeper:
            self._searched_values(states, moves, counts, features, position)
        width = max(int(counts.max()) if rows else 0, 1)
        return observations, moves[:, :width], actions[:, :width], features[:, :width], position, counts

    @property
    def searches_deeper(self) -> bool:
        """Whether the searched value's columns come from the alpha-beta player (``search_depth`` > 2)."""
        return self.search_depth > TWO_PLY

    def _searchers(self, lanes: int) -> list[HiveAlphaBeta]:
        """The first ``lanes`` searchers, made on first need."""
        while len(self.searchers) < lanes:
            self.searchers.append(HiveAlphaBeta(keep_table=False))
        return self.searchers[:lanes]

    def _searched_values(self, states, moves, counts, features, position) -> None:
        """Overwrite the two-ply value's columns (action features 12, 13; position feature 5) of each
        row with the alpha-beta player's root scores at ``search_depth`` (the module doc). Rows run on
        ``threads`` threads (None: numba's thread count at the call, so `play_on_one_thread` holds), each
        search on a searcher of its own (the kernel runs without the GIL); a row's scores depend on its
        position only, so the threads change no value."""
        rows = [b for b in range(states.shape[0]) if counts[b] > 0]
        lanes = max(1, min(thread_count(self.threads), len(rows)))
        idle: queue.SimpleQueue[HiveAlphaBeta] = queue.SimpleQueue()
        for searcher in self._searchers(lanes):
            idle.put(searcher)

        def search(b: int) -> tuple[int, np.ndarray | None]:
            game = HiveGame.from_state(states[b])
            if game.is_terminal:
                return b, None
            searcher = idle.get()
            try:
                scores, _ = searcher.move_scores(
                    game, moves[b, : counts[b]], self.search_depth, int(TWO_PLY_MARGIN)
                )
            finally:
                idle.put(searcher)
            return b, scores

        if lanes > 1:
            with ThreadPoolExecutor(lanes) as pool:
                results = list(pool.map(search, rows))
        else:
            results = [search(b) for b in rows]
        for b, scores in results:
            if scores is None:
                continue
            count = int(counts[b])
            best = scores.max()
            features[b, :count, 12] = (scores - best) / TWO_PLY_MARGIN  # scores are clipped at the margin
            features[b, :count, 13] = _scaled(scores)
            position[b, 5] = _scaled(best)


def _scaled(value):
    """Searcher scores in the features' units: / `EVAL_SCALE`, clipped to +-`EVAL_CLIP` (float32)."""
    return np.clip(np.asarray(value, dtype=np.float64) / EVAL_SCALE, -EVAL_CLIP, EVAL_CLIP).astype(np.float32)
