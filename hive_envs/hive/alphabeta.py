"""`HiveAlphaBeta`: the classical alpha-beta player for Hive (the compiled search of
`hive_envs.hive.engine.alphabeta` over the evaluation of `hive_envs.hive.engine.evaluation`).

    from hive_envs.hive import HiveGame
    from hive_envs.hive.alphabeta import HiveAlphaBeta

    game = HiveGame("Base+MLP")
    player = HiveAlphaBeta(depth=3)              # or time_s=0.5, or both (whichever comes first)
    result = player.search(game)                 # SearchResult(move_id, score, depth_reached, nodes, elapsed_s, pv)
    game.play_id(result.move_id)
    player.choose(game)                          # just the move id
    player.choose_move(game, SearchLimits(depth=2))   # the UHP `Player` protocol: a UHP move string

Limits: ``depth`` in 1..`MAX_DEPTH` plies, ``time_s`` in (0, 3600] seconds (iterative deepening
up to `MAX_DEPTH` until the time is used), both given: whichever is reached first; neither:
``depth=DEFAULT_DEPTH``. Bad values raise ValueError naming the parameter. With a time limit the
answer comes a few milliseconds after ``time_s`` at most (the clock is read every 1024 nodes);
the first call of a process also compiles the kernels (cached on disk by numba afterwards).

The game is never changed: the search runs on a copy of its state array. The transposition table
(``table_bits``: 2**bits entries) is cleared before every search, so the answer depends only on
the position, the limits and ``seed`` (which breaks ties between moves the ordering cannot tell
apart): the same call gives the same move. Inside the search a position that already occurred in
the game (or on the searched line) scores as a draw, whether or not the game was created with
``repetition_draw=True``.
"""

from __future__ import annotations

import numpy as np

from hive_envs.core.alphabeta import DEFAULT_TABLE_BITS, AlphaBetaSearcher
from hive_envs.hive.engine.alphabeta import alphabeta_kernel, game_position_keys
from hive_envs.hive.engine.pieces import kinds_mask
from hive_envs.hive.engine.state import new_state
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.game import HiveGame
from hive_envs.hive.players import SearchLimits

MAX_DEPTH = 12
DEFAULT_DEPTH = 3


class HiveAlphaBeta(AlphaBetaSearcher):
    """Alpha-beta searcher for Hive; see the module docstring. ``search(game, depth=None,
    time_s=None) -> SearchResult`` and ``choose(game) -> move id`` come from `AlphaBetaSearcher`."""

    game_class = HiveGame
    max_depth = MAX_DEPTH
    default_depth = DEFAULT_DEPTH

    def __init__(self, depth=None, time_s=None, seed=0, table_bits=DEFAULT_TABLE_BITS):
        super().__init__(depth, time_s, seed, table_bits)
        self._w = new_workspace()  # the move generator's scratch, reused by every search

    def choose_move(self, game: HiveGame, limits: SearchLimits) -> str:
        """`hive_envs.hive.players.Player` protocol: the UHP string of the chosen move.

        ``limits.depth`` / ``limits.time_s`` replace this player's own limits when given.
        """
        result = self.search(game, limits.depth, limits.time_s)
        return game.move_id_to_uhp(result.move_id)

    def _run_kernel(self, game: HiveGame, depth, time_s, table, pv, stats) -> int:
        start = new_state(kinds_mask(game.expansions), game.tournament_opening, game.max_turns or 0)
        seen = np.sort(game_position_keys(start, np.asarray(game.move_ids, dtype=np.int32)))
        return alphabeta_kernel(
            game.state.copy(), self._w, depth, time_s, self.seed, table, True, seen, pv, stats
        )
