"""A tactical check of a searched move: the game's alpha-beta looks past it for a forced loss.

The PUCT search (`hive_envs.agents.search`) scores a new position by a value and averages values over
visits, so a move whose refutation is a forced win for the opponent a few plies on can still be the
most visited: in 29 games a 1 s `hive_base` search lost to `alphabeta:3`, 11 were lost by such a move
(the opponent won by force within three plies of it, while another move was not proven lost). The
check asks the game's alpha-beta searcher (`GameDefinition.searcher`, the one behind ``alphabeta:D``)
two questions, within the move's remaining time:

1. does the player to move win by force within ``depth`` plies? Then its winning move is played;
2. else, taking the search's candidates in its order (most visited first), does the opponent win by
   force within ``depth`` plies of the candidate? The first candidate not proven lost is played.

A search that the time cuts short answers from its deepest finished iteration, and a candidate whose
check did not finish is taken as it is; when every candidate checked is proven lost and none is left,
the search's own first choice stands (the game is lost whatever is played).

3. With time left (a check by time), the chosen move is checked again one ply deeper at a time, up to
   ``deepest`` plies: proven lost there, it gives way to the next candidate not proven lost at that
   depth. Of the 36 games a 1 s search with the 3-ply check alone lost to `alphabeta:3` on the
   ladder's book, 10 were lost by a move a 4-ply check flags (another move not proven lost at 5 plies).
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
LOST, SAFE, UNKNOWN = "lost", "safe", "unknown"
"""A candidate's verdict at a depth (`TacticalCheck._verdict`)."""


class TacticalCheck:
    """The check of one player: its searchers (one per game, made on first use), their depth and the
    deepest depth a check by time goes on to while its time lasts."""

    def __init__(self, depth: int = TACTICAL_DEPTH, deepest: int = MAX_TACTICAL_DEPTH):
        for name, value, low in (("depth", depth, 0), ("deepest depth", deepest, depth)):
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not low <= value <= MAX_TACTICAL_DEPTH
            ):
                raise ValueError(
                    f"the tactical check's {name} must be an int in {low}..{MAX_TACTICAL_DEPTH} (depth 0: off), "
                    f"got {value!r}"
                )
        self.depth, self.deepest = depth, deepest
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
        finds; ``end``: the `time.monotonic` time by which the check stops (None: searches by depth
        alone, no deepening)."""
        searcher = self.searcher(game)
        if self.depth == 0 or searcher is None:
            return int(candidates[0])
        root = self._search(searcher, game, self.depth, end)
        if root is not None and root.is_proven_win:
            return root.move_id
        chosen = None
        for index, move in enumerate(candidates):
            verdict, _ = self._verdict(searcher, game, int(move), self.depth, end)
            if verdict != LOST:
                chosen = index
                if verdict == UNKNOWN:  # out of time: taken as it is
                    return int(move)
                break
        if chosen is None:  # every candidate loses by force: the search's choice stands
            return int(candidates[0])
        if end is not None:
            chosen = self._deepen(searcher, game, candidates, chosen, end)
        return int(candidates[chosen])

    def _deepen(
        self, searcher: AlphaBetaSearcher, game: Game, candidates: Sequence[int], chosen: int, end: float
    ) -> int:
        """The index of the candidate to play after checking one ply deeper at a time while ``end`` is
        not reached: ``chosen`` (not proven lost at the check's depth) gives way to the first later
        candidate not proven lost at the deeper depth when it is proven lost there. A later
        candidate whose check the time cuts short replaces it only if its search finished one ply
        short of the depth; otherwise, and when every later candidate is lost too, ``chosen`` stays
        (the one that lasts longest as far as the check knows)."""
        for depth in range(self.depth + 1, self.deepest + 1):
            verdict, _ = self._verdict(searcher, game, int(candidates[chosen]), depth, end)
            if verdict == UNKNOWN:
                return chosen
            if verdict == SAFE:
                continue
            for index in range(chosen + 1, len(candidates)):
                verdict, reached = self._verdict(searcher, game, int(candidates[index]), depth, end)
                if verdict == SAFE:
                    chosen = index
                    break
                if verdict == UNKNOWN:
                    return index if reached >= depth - 1 else chosen
            else:
                return chosen
        return chosen

    def _verdict(
        self, searcher: AlphaBetaSearcher, game: Game, move: int, depth: int, end: float | None
    ) -> tuple[str, int]:
        """(`LOST`, `SAFE` or `UNKNOWN`, plies searched) for the player to move in ``game`` playing
        ``move``: lost when the opponent wins by force within ``depth`` plies of it (or the move
        loses at once), safe when a search to ``depth`` finished without proving that, unknown when the
        time cut the search short of ``depth`` without a proof."""
        mover = game.to_move
        child = game.copy()
        child.play_id(move)
        result = child.result
        if result is not None:  # the move ends the game
            return (SAFE, depth) if (result if mover == 0 else -result) >= 0 else (LOST, depth)
        reply = self._search(searcher, child, depth, end)
        if reply is None:
            return UNKNOWN, 0
        lost = reply.is_proven_win if child.to_move != mover else reply.is_proven_loss
        if lost:
            return LOST, reply.depth_reached
        return (SAFE if reply.depth_reached >= depth else UNKNOWN), reply.depth_reached

    def _search(
        self, searcher: AlphaBetaSearcher, game: Game, depth: int, end: float | None
    ) -> SearchResult | None:
        """``searcher``'s result on ``game`` to ``depth`` plies, stopped at ``end``; None past it."""
        if end is None:
            return searcher.search(game, depth=depth)
        left = end - time.monotonic()
        if left <= 0:
            return None
        return searcher.search(game, depth=depth, time_s=min(left, MAX_TIME_S))

    def warm_up(self, game: Game) -> None:
        """One shallow search, so that the searcher's compiled kernel is loaded before a timed move."""
        searcher = self.searcher(game)
        if searcher is not None and not game.is_terminal:
            searcher.search(game, depth=1)
