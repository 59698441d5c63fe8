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
answer comes within about a millisecond of ``time_s`` plus the time of one leaf batch (the clock
is read every 1024 nodes); the first call of a process also compiles the kernels (cached on disk
by numba afterwards).

The game is never changed: the search runs on a copy of its state array. The transposition table
(``table_bits``: 2**bits entries) is cleared before every search, so the answer depends only on
the position, the limits and ``seed`` (which breaks ties between moves the ordering cannot tell
apart): the same call gives the same move. Inside the search a position that already occurred in
the game (or on the searched line) scores as a draw, whether or not the game was created with
``repetition_draw=True``.
"""

from __future__ import annotations

import time

import numpy as np

from hive_envs.core.alphabeta import (
    DEFAULT_TABLE_BITS,
    SearchResult,
    check_limits,
    check_seed,
    clear_table,
    new_table,
    search_plies,
)
from hive_envs.hive.engine.alphabeta import alphabeta_kernel, game_position_keys
from hive_envs.hive.engine.pieces import kinds_mask
from hive_envs.hive.engine.state import new_state
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.game import HiveGame
from hive_envs.hive.players import SearchLimits

MAX_DEPTH = 12
DEFAULT_DEPTH = 3


class HiveAlphaBeta:
    """Alpha-beta searcher for Hive; see the module docstring."""

    def __init__(
        self,
        depth: int | None = None,
        time_s: float | None = None,
        seed: int = 0,
        table_bits: int = DEFAULT_TABLE_BITS,
    ):
        self.depth, self.time_s = check_limits(depth, time_s, MAX_DEPTH, DEFAULT_DEPTH, "HiveAlphaBeta")
        self.seed = check_seed(seed, "HiveAlphaBeta")
        if isinstance(table_bits, bool) or not isinstance(table_bits, int) or not 10 <= table_bits <= 26:
            raise ValueError(f"HiveAlphaBeta table_bits must be an int in 10..26, got {table_bits!r}")
        self._table = new_table(table_bits)
        self._w = new_workspace()

    def __repr__(self) -> str:
        return f"HiveAlphaBeta(depth={self.depth}, time_s={self.time_s}, seed={self.seed})"

    def search(self, game: HiveGame, depth: int | None = None, time_s: float | None = None) -> SearchResult:
        """Search ``game`` (unchanged) with this player's limits, or with ``depth``/``time_s`` if given."""
        if not isinstance(game, HiveGame):
            raise ValueError(f"HiveAlphaBeta.search needs a HiveGame, got {type(game).__name__}")
        if game.is_terminal:
            raise ValueError(f"HiveAlphaBeta.search: the game is over ({game.outcome})")
        if depth is None and time_s is None:
            depth, time_s = self.depth, self.time_s
        else:
            depth, time_s = check_limits(depth, time_s, MAX_DEPTH, DEFAULT_DEPTH, "HiveAlphaBeta")
        start = new_state(kinds_mask(game.expansions), game.tournament_opening, game.max_turns or 0)
        seen = np.sort(game_position_keys(start, np.asarray(game.move_ids, dtype=np.int32)))
        return self._run(game.state.copy(), seen, depth, time_s)

    def choose(self, game: HiveGame) -> int:
        """The move id `search` picks."""
        return self.search(game).move_id

    def choose_move(self, game: HiveGame, limits: SearchLimits) -> str:
        """`hive_envs.hive.players.Player` protocol: the UHP string of the chosen move.

        ``limits.depth`` / ``limits.time_s`` replace this player's own limits when given.
        """
        result = self.search(game, limits.depth, limits.time_s)
        return game.move_id_to_uhp(result.move_id)

    def _run(self, state: np.ndarray, seen: np.ndarray, depth: int, time_s: float | None) -> SearchResult:
        clear_table(self._table)
        pv = np.zeros(search_plies(depth), dtype=np.int32)
        stats = np.zeros(4, dtype=np.int64)
        started = time.perf_counter()
        move = alphabeta_kernel(
            state,
            self._w,
            depth,
            0.0 if time_s is None else time_s,
            self.seed,
            self._table,
            True,
            seen,
            pv,
            stats,
        )
        elapsed = time.perf_counter() - started
        return SearchResult(
            move_id=int(move),
            score=int(stats[0]),
            depth_reached=int(stats[1]),
            nodes=int(stats[2]),
            elapsed_s=elapsed,
            pv=tuple(int(m) for m in pv[: stats[3]]),
        )
