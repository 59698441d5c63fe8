"""A tactical check of a searched move: the game's alpha-beta looks past it for a forced loss.

The PUCT search (`hive_envs.agents.search`) scores a new position by a value and averages values over
visits, so a move whose refutation is a forced win for the opponent a few plies on can still be the
most visited (docs/training.md, "The tactical check", counts the games lost so). The check asks the game's alpha-beta searcher (`GameDefinition.searcher`, the one behind ``alphabeta:D``)
two questions, within the move's remaining time:

1. does the player to move win by force within ``depth`` plies? Then its winning move is played;
2. else, taking the search's candidates in its order (most visited first), does the opponent win by
   force within ``depth`` plies of the candidate? The first candidate not proven lost is played.

A search that the time cuts short answers from its deepest finished iteration, and a candidate whose
check did not finish is taken as it is; when every candidate checked is proven lost and none is left,
the search's own first choice stands (the game is lost whatever is played).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from hive_envs.core.alphabeta import MAX_TIME_S, AlphaBetaSearcher, SearchResult
from hive_envs.core.game import Game
from hive_envs.games import game_entry

TACTICAL_DEPTH = 3
"""Plies of the check's searches (each about 8 ms at the median in a Hive middle game, 0.11 s at the
99th percentile); 0 turns the check off."""
MAX_TACTICAL_DEPTH = 6
"""Deeper checks do not finish within a move's time (a Hive depth-5 search: 0.3 s at the median)."""
TABLE_BITS = 16
"""The check's transposition table: 2**16 entries (about 1.1 MB); a 3-ply check searches about ten
thousand positions (11,653 after the losing move of the tests' position)."""


_WON_OR_DRAWN, _LOST, _SAFE, _UNKNOWN = "won or drawn", "lost", "safe", "unknown"


class TacticalCheck:
    """The check of one player: its searchers (one per game, made on first use) and their depth."""

    def __init__(self, depth: int = TACTICAL_DEPTH):
        if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_TACTICAL_DEPTH:
            raise ValueError(
                f"the tactical check's depth must be an int in 0..{MAX_TACTICAL_DEPTH} (0: off), got {depth!r}"
            )
        self.depth = depth
        self._searchers: dict[str, AlphaBetaSearcher] = {}

    def searcher(self, game: Game) -> AlphaBetaSearcher | None:
        """The alpha-beta searcher of ``game``'s game, None for a game that has none."""
        name = game.game_name
        if name not in self._searchers:
            searcher_class = game_entry(name).searcher_class()
            if searcher_class is None:
                return None
            self._searchers[name] = searcher_class(depth=1, table_bits=TABLE_BITS)
        return self._searchers[name]

    def choose(self, game: Game, candidates: Sequence[int], end: float | None) -> int:
        """The move to play in ``game`` (left unchanged): of ``candidates`` (legal move ids, the
        search's preference first) the first not proven lost, or the winning move the root search
        finds; ``end``: the `time.monotonic` time by which the check stops (None: searches by depth alone).
        If every candidate is proven lost, the search's first choice stands."""
        searcher = self.searcher(game)
        if self.depth == 0 or searcher is None:
            return int(candidates[0])
        root = self._search(searcher, game, end)
        if root is not None and root.is_proven_win:
            return root.move_id
        for move in candidates:
            if self._verdict(searcher, game, int(move), end) is not _LOST:
                return int(move)
        return int(candidates[0])

    def _verdict(self, searcher: AlphaBetaSearcher, game: Game, move: int, end: float | None) -> str:
        """What the alpha-beta search says of ``move``: `_WON_OR_DRAWN` (it ends the game so), `_LOST` (it
        loses the game now, or the opponent wins by force within ``depth`` plies of it), `_SAFE` (not
        proven lost) or `_UNKNOWN` (out of time)."""
        child = game.copy()
        child.play_id(move)
        result = child.result
        mover = game.to_move
        if result is not None:  # the move ends the game
            return _WON_OR_DRAWN if (result if mover == 0 else -result) >= 0 else _LOST
        reply = self._search(searcher, child, end)
        if reply is None:
            return _UNKNOWN
        lost = reply.is_proven_win if child.to_move != mover else reply.is_proven_loss  # a Hoyito extra turn
        return _LOST if lost else _SAFE

    def _search(self, searcher: AlphaBetaSearcher, game: Game, end: float | None) -> SearchResult | None:
        """``searcher``'s result on ``game`` to ``depth`` plies, stopped at ``end``; None past it."""
        if end is None:
            return searcher.search(game, depth=self.depth)
        left = end - time.monotonic()
        if left <= 0:
            return None
        return searcher.search(game, depth=self.depth, time_s=min(left, MAX_TIME_S))

    def warm_up(self, game: Game) -> None:
        """One shallow search, so that the searcher's compiled kernels are loaded before a timed move."""
        searcher = self.searcher(game)
        if searcher is not None and not game.is_terminal:
            searcher.search(game, depth=1)
