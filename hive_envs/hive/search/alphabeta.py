"""`HiveAlphaBeta`: the alpha-beta searcher of Hive, the compiled search of `negamax` behind a
`HiveGame`::

    from hive_envs.hive import HiveAlphaBeta, HiveGame

    game = HiveGame("Base+MLP")
    searcher = HiveAlphaBeta(depth=3)            # or time_s=0.5, or both (whichever comes first)
    result = searcher.search(game)               # SearchResult(move_id, score, depth_reached, nodes, elapsed_s, pv)
    game.play_id(result.move_id)
    searcher.choose(game)                        # just the move id
    searcher.search(game, depth=2)               # other limits for one search
    scores, nodes = searcher.move_scores(game, game.legal_move_ids(), 3, 64)  # every move's score

Limits: ``depth`` in 1..`MAX_DEPTH` plies, ``time_s`` in (0, 3600] seconds (iterative deepening up
to `MAX_DEPTH` until the time is used), both given: whichever is reached first; neither:
``depth=DEFAULT_DEPTH``. Bad values raise ValueError naming the parameter. With a time limit the
answer comes a few milliseconds after ``time_s`` at most; the first call of a process also
compiles the kernels (cached on disk by numba afterwards). A time-limited search keeps the
transposition table (``table_bits``: 2**bits entries) from the searches before it (``keep_table``,
the default: the moves of one game share most of their trees); a depth-limited search (``time_s``
None), or any search with ``keep_table=False``, clears it first, so that its answer depends only on
the position (and the positions the game went through), the limits and ``seed`` (which breaks ties
between moves the ordering cannot tell apart): the ladder's ``alphabeta:D`` yardsticks stay the
plain depth-D search. The evaluation cache is kept in both cases (it holds exact evaluations).

The search itself is the compiled negamax of `negamax` (iterative deepening, principal-variation
search, quiescence, transposition table, evaluation cache, repetitions as draws, move ordering, time;
its module docstring lists them). `HiveAlphaBeta` adds, around it:

- **A locked opponent gets a plan**: a depth-limited search whose opponent can only pass at the
  root (`locked_plan.opponent_locked`: every piece pinned, covered or boxed in) first looks for the
  shortest sequence of up to `DEFAULT_PLAN_MOVES` own moves, the opponent's replies forced, that
  surrounds its Queen (`locked_plan.locked_plan_kernel`) and plays its first move (the score a proven
  win, ``depth_reached`` the plan's plies, the PV the plan). Surrounding a locked Queen often takes a
  manoeuvre of three to six moves (bring a piece in without freeing the pieces that lock the
  opponent), which depth 2 never sees. Where every plan length was searched without one, the
  positions after the moves that only keep the lock score as draws (they are added to ``seen``): the
  search plays its best move that gives the opponent a move, at the depth asked for, instead of
  shuffling in the fortress. Where the plan search ran out of nodes (`DEFAULT_PLAN_NODES`: nothing is
  known) the search goes one own move deeper instead (``depth_reached`` then says so), within
  `EXTENSION_NODES` nodes: past them it answers with the search at the depth asked for, as if it had
  never extended (with the opponent only passing little of the deeper tree is pruned). A
  time-limited search deepens by itself. docs/alphabeta.md has what the plan and the extension cost
  and changed.
- **The game's history**: the positions the game went through (`repetition.game_position_keys`,
  replayed from `HiveGame.start_state`) score as draws inside the search.
"""

import time

import numpy as np

from hive_envs.core.alphabeta import (
    DEFAULT_TABLE_BITS,
    INFINITY,
    WIN_SCORE,
    AlphaBetaSearcher,
    clear_table,
    clip_below,
    search_plies,
)
from hive_envs.core.learned_eval import FeatureScratch, LearnedNetwork, learned_network
from hive_envs.hive.engine.game import HiveGame
from hive_envs.hive.engine.movegen import MAX_MOVES
from hive_envs.hive.engine.moves import NUM_MOVE_IDS
from hive_envs.hive.engine.repetition import game_position_keys
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.search.eval_features import HIVE_FEATURES, NUM_DENSE, NUM_FEATURES, position_features
from hive_envs.hive.search.evaluation import EVAL_BUFFER_SIZE, NUM_TERMS, SEARCH_WEIGHTS
from hive_envs.hive.search.learned import hand_evaluation, learned_evaluation
from hive_envs.hive.search.locked_plan import (
    DEFAULT_PLAN_MOVES,
    DEFAULT_PLAN_NODES,
    lock_keeping_keys,
    locked_plan_kernel,
    opponent_locked,
)
from hive_envs.hive.search.negamax import (
    ALL_FEATURES,
    DEFAULT_EVAL_BITS,
    FEATURES,
    NO_ROOT_SCORES,
    SearchLimits,
    SearchOutput,
    SearchSettings,
    SearchTables,
    alphabeta_kernel,
)

MAX_DEPTH = 12
DEFAULT_DEPTH = 3

EXTENSION_NODES = 2_000_000
"""Nodes the locked-opponent extension (one own move deeper) may take before the search at the depth
asked for answers instead (docs/alphabeta.md: the extension unbounded)."""


_UNSCORED = -4 * WIN_SCORE  # a move id the root did not list


MAX_WEIGHT = 1000
"""Largest weight magnitude `HiveAlphaBeta` takes: every evaluation then stays far below `WIN_SCORE`
(no term counts more than about a hundred), so no position scores as a proven result."""


def _checked_weights(weights) -> np.ndarray:
    array = np.asarray(weights)
    if (
        array.shape != (NUM_TERMS,)
        or not np.issubdtype(array.dtype, np.integer)
        or np.abs(array.astype(np.int64)).max() > MAX_WEIGHT
    ):
        raise ValueError(
            f"HiveAlphaBeta weights must be {NUM_TERMS} integers in [-{MAX_WEIGHT}, {MAX_WEIGHT}], got {weights!r}"
        )
    return np.array(array, dtype=np.int32)  # a copy: the searcher's own


_kernels_loaded = False


def _load_kernels() -> None:
    """Run the search once in this process, on the empty board, when the first `HiveAlphaBeta` is
    made: numba loads a compiled kernel from its disk cache on the kernel's first call (a quarter of
    a second, more on a loaded machine; it compiles it when there is no cache), and inside a timed
    search that time would come on top of the limit (docs/alphabeta.md: the first move of an arena
    worker)."""
    global _kernels_loaded
    if not _kernels_loaded:
        _kernels_loaded = True
        HiveAlphaBeta(depth=1, table_bits=10).search(HiveGame("Base"))


class HiveAlphaBeta(AlphaBetaSearcher):
    """The alpha-beta searcher for Hive: `alphabeta_kernel` behind `AlphaBetaSearcher`'s
    ``search(game, depth=None, time_s=None) -> SearchResult`` and ``choose(game) -> move id``.

    The game is never changed: the kernel runs on a copy of its state array. Positions the game went
    through (replayed from `HiveGame.start_state` in one compiled call) score as draws inside the
    search, whether or not the game was created with ``repetition_draw=True``.

    ``keep_table`` (default True): a time-limited search keeps the transposition table of the
    searches before it (the moves of a game share most of their trees); a depth-limited search
    clears it, and so does every search with False, so that the answer depends only on the
    position. The evaluation cache (exact evaluations: it changes no answer) is kept; both are
    cleared when a game of other options (game type, tournament rule, turn cap) is searched. ``features``: the bits of
    `FEATURES` the search uses (all by default; fewer only to measure what each is worth).
    ``weights``: the evaluation's (`evaluation.evaluate`, int32[`NUM_TERMS`]; `SEARCH_WEIGHTS` by
    default), for measuring other weights against them (`tools/tune_hive_evaluation.py`).
    ``network``: a learned evaluation (`hive_envs.core.learned_eval.LearnedNetwork` of Hive's features,
    `eval_features.HIVE_FEATURES`; read from a file by `hive_envs.agents.eval_checkpoint`) that scores
    the leaves instead of the hand evaluation (``weights`` then unused); None: the hand evaluation.
    """

    game_class = HiveGame
    max_depth = MAX_DEPTH
    default_depth = DEFAULT_DEPTH
    learned_features = HIVE_FEATURES
    """What a learned ``network`` reads (the trainer, `hive_envs.training.eval_training`, sizes it so)."""

    def __init__(
        self,
        depth=None,
        time_s=None,
        seed=0,
        table_bits=DEFAULT_TABLE_BITS,
        keep_table=True,
        features=ALL_FEATURES,
        weights=None,
        network: LearnedNetwork | None = None,
    ):
        super().__init__(depth, time_s, seed, table_bits)
        if (
            isinstance(features, bool)
            or not isinstance(features, int)
            or features < 0
            or features & ~ALL_FEATURES
        ):
            raise ValueError(
                f"HiveAlphaBeta features must be an int of the bits of FEATURES {FEATURES}, got {features!r}"
            )
        self.weights = _checked_weights(SEARCH_WEIGHTS if weights is None else weights)
        if network is not None and weights is not None:
            raise ValueError("HiveAlphaBeta takes weights (the hand evaluation) or a network, not both")
        if network is not None:
            if not isinstance(network, LearnedNetwork):
                raise ValueError(
                    f"HiveAlphaBeta network must be a LearnedNetwork, got {type(network).__name__}"
                )
            network = learned_network(network._asdict(), NUM_FEATURES, NUM_DENSE)  # checked, our copy
        self.network = network
        self._evaluation = hand_evaluation(self.weights) if network is None else learned_evaluation(network)
        self.keep_table = bool(keep_table)
        self.features = features
        self._w = new_workspace()  # the move generator's scratch, reused by every search
        self._moves = np.empty(MAX_MOVES, dtype=np.int32)
        self._evals = (
            np.zeros(1 << DEFAULT_EVAL_BITS, dtype=np.uint64),
            np.zeros(1 << DEFAULT_EVAL_BITS, dtype=np.int32),
        )
        self._options: tuple | None = None  # the game options the kept table and cache belong to
        self._eval_buffer: np.ndarray | None = None  # `fill_features`'s scratch, made on first use
        _load_kernels()

    def fill_features(self, game: HiveGame, scratch: FeatureScratch) -> None:
        """The features the learned evaluation reads of ``game``'s position (not finished; left
        unchanged) into ``scratch`` (`eval_features.position_features`): the trainer's data."""
        if self._eval_buffer is None:
            self._eval_buffer = np.zeros(EVAL_BUFFER_SIZE, dtype=np.int32)
        position_features(game.state.copy(), self._w, self._eval_buffer, scratch)

    def move_scores(
        self, game: HiveGame, moves: np.ndarray, depth: int, margin: int | None = None
    ) -> tuple[np.ndarray, int]:
        """`AlphaBetaSearcher.move_scores` in one kernel call: the root search at ``depth`` with every
        root move searched with the window (best so far - ``margin``, +inf), so a move more than
        ``margin`` below the best costs a refutation, not an exact score; the table is shared by the
        moves' subtrees (so a score can differ from a separate search of the position after the move
        where the table carries a deeper result across, as in any root search). The locked-opponent
        plan is not used. Deeper than `MAX_DEPTH`: the separate searches."""
        if depth > self.max_depth:
            return super().move_scores(game, moves, depth, margin)
        self._check_move_scores(game, moves, depth, margin)
        seen = self._prepare(game, clear=True)  # the scores depend only on the position
        scores = np.full(NUM_MOVE_IDS, _UNSCORED, dtype=np.int64)
        pv = np.zeros(search_plies(depth), dtype=np.int32)
        stats = np.zeros(4, dtype=np.int64)
        kernel_margin = 2 * INFINITY if margin is None else int(margin)
        self._kernel(game.state.copy(), depth, 0.0, 0, seen, self._table, pv, stats, scores, kernel_margin)
        found = scores[np.asarray(moves, dtype=np.int64)]
        if (found == _UNSCORED).any():
            raise ValueError(
                f"HiveAlphaBeta.move_scores: not legal moves here: {np.asarray(moves)[found == _UNSCORED]}"
            )
        return clip_below(found.astype(np.float64), margin), int(stats[2])

    def _prepare(self, game: HiveGame, clear: bool) -> np.ndarray:
        """Clear the table and cache where ``game``'s options differ from the last search's, and the
        table when ``clear``; returns the sorted keys of the positions the game went through."""
        options = (game.game_type, game.tournament_opening, game.max_turns)
        if options != self._options:
            if self._options is not None:  # a new searcher's table and cache are empty already
                clear_table(self._table)
                self._evals[0][:] = 0  # key 0 is never a position's key in practice: an empty slot
            self._options = options
        elif clear:
            clear_table(self._table)
        return np.sort(game_position_keys(game.start_state, np.asarray(game.move_ids, dtype=np.int32)))

    def _run_kernel(self, game: HiveGame, depth, time_s, table, pv, stats) -> int:
        started = time.perf_counter()
        # depth-limited: the plain search of this position (the ladder's yardsticks); `search` has
        # cleared the table already when it is not kept
        seen = self._prepare(game, clear=time_s == 0 and self.keep_table)
        state = game.state.copy()
        extension_nodes = 0
        if time_s == 0 and depth < MAX_DEPTH and opponent_locked(state, self._w, self._moves):
            move, fortress = self._locked_plan(state, seen, pv, stats)
            if move >= 0:
                return move
            if fortress is not None:  # no plan: keeping the lock only leads to the turn-cap draw
                seen = np.union1d(seen, fortress)
            else:  # the plan search ran out of nodes: one more own move, within its own nodes
                move = self._extended_search(state, depth, seen, table, pv, stats)
                if move >= 0:
                    return move
                clear_table(table)  # past its nodes: the search asked for, as if never extended
                extension_nodes = int(stats[2])
        if time_s > 0:  # the time spent here counts: the kernel gets what is left
            time_s = max(time_s - (time.perf_counter() - started), 1e-6)
        move = self._kernel(state, depth, time_s, 0, seen, table, pv, stats)
        stats[2] += extension_nodes
        return move

    def _extended_search(self, state, depth, seen, table, pv, stats) -> int:
        """The search one depth deeper than asked (module docstring, locked opponent), its line copied
        into ``pv`` as far as it holds; -1 (``stats[2]`` its nodes) past `EXTENSION_NODES` nodes."""
        deeper_pv = np.zeros(search_plies(depth + 1), dtype=np.int32)
        move = self._kernel(state, depth + 1, 0.0, EXTENSION_NODES, seen, table, deeper_pv, stats)
        if move >= 0:
            stats[3] = min(stats[3], pv.shape[0])
            pv[:] = deeper_pv[: pv.shape[0]]
        return move

    def _kernel(
        self, state, depth, time_s, node_limit, seen, table, pv, stats, root_scores=None, root_margin=0
    ) -> int:
        return alphabeta_kernel(
            state,
            self._w,
            SearchLimits(int(depth), float(time_s), int(node_limit)),
            SearchSettings(self.seed, self.features, True, int(root_margin)),
            SearchTables(table, self._evals),
            self._evaluation,
            seen,
            SearchOutput(pv, stats, NO_ROOT_SCORES if root_scores is None else root_scores),
        )

    def _locked_plan(self, state, seen, pv, stats) -> tuple[int, np.ndarray | None]:
        """Against a locked opponent: the first move of the shortest plan that surrounds its Queen
        (`locked_plan_kernel`; ``stats`` and ``pv`` filled as the kernel's) and None; or -1 and,
        when every plan length was searched without one, the positions after the moves that keep
        the lock (`lock_keeping_keys`), to be scored as draws; -1 and None if the budget ran out."""
        plan = np.zeros(2 * DEFAULT_PLAN_MOVES - 1, dtype=np.int32)
        plan_stats = np.zeros(2, dtype=np.int64)
        length = locked_plan_kernel(
            state, self._w, DEFAULT_PLAN_MOVES, DEFAULT_PLAN_NODES, seen, plan, plan_stats
        )
        if length == 0:
            return -1, (lock_keeping_keys(state, self._w) if plan_stats[1] == 0 else None)
        plies = 2 * length - 1
        shown = min(plies, pv.shape[0])
        pv[:shown] = plan[:shown]
        stats[0] = WIN_SCORE - plies
        stats[1] = plies
        stats[2] = plan_stats[0]
        stats[3] = shown
        return int(plan[0]), None
