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

With ``threat_moves`` > 0 (off by default), the searcher's narrower, deeper search where the game has
one (`AlphaBetaSearcher.forced_win`: Hive's threat search, forced surrounds of up to ``threat_moves``
attacking moves) then refines the answer in the time the alpha-beta searches leave: it plays a forced win
of its own and passes over a candidate after which the opponent has one. In the 49 games a 1 s
`hive_base` search lost or drew against `alphabeta:3` with the 3-ply check alone, the threat search at
5 moves flags a move played, where another move was flagged by neither, in 7; yet in play it gained
nothing: 0.720 and 0.733 on the ladder's book against 0.787 without it (docs/training.md). A move lost
to a nine-ply surround against perfect defence is not lost against `alphabeta:3`, which seldom finds
one, and the move played instead is the search's lesser choice.

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
THREAT_MOVES = 0
"""The attacker's moves the check's threat search looks for by default: none (off; see the module
docstring). At 5 (nine plies) a Hive threat search takes under 1 ms at the median in positions of match
games, 15 ms at the 90th percentile, and is cut short by the move's time."""
MAX_THREAT_MOVES = 6
"""Hive's threat search looks for at most six (`hive.engine.threats.MAX_ATTACKS`)."""
TABLE_BITS = 16
"""The check's transposition table: 2**16 entries (about 1.1 MB); a 3-ply check searches about ten
thousand positions (11,653 after the losing move of the tests' position)."""


_WON_OR_DRAWN, _LOST, _SAFE, _UNKNOWN = "won or drawn", "lost", "safe", "unknown"


class TacticalCheck:
    """The check of one player: its searchers (one per game, made on first use) and their depth."""

    def __init__(self, depth: int = TACTICAL_DEPTH, threat_moves: int = THREAT_MOVES):
        if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_TACTICAL_DEPTH:
            raise ValueError(
                f"the tactical check's depth must be an int in 0..{MAX_TACTICAL_DEPTH} (0: off), got {depth!r}"
            )
        if (
            isinstance(threat_moves, bool)
            or not isinstance(threat_moves, int)
            or not 0 <= threat_moves <= MAX_THREAT_MOVES
        ):
            raise ValueError(
                f"the tactical check's threat_moves must be an int in 0..{MAX_THREAT_MOVES} (0: off), "
                f"got {threat_moves!r}"
            )
        self.depth = depth
        self.threat_moves = threat_moves
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

        The alpha-beta searches come first; the threat search refines their answer in the time they
        leave: a forced win of its own is played, and where it proves the answer lost, the next
        candidates are checked by both; if every one is lost, the answer stands (the longer defence)."""
        searcher = self.searcher(game)
        if self.depth == 0 or searcher is None:
            return int(candidates[0])
        root = self._search(searcher, game, end)
        if root is not None and root.is_proven_win:
            return root.move_id
        mover = game.to_move
        for answer, move in enumerate(candidates):
            verdict, answer_child = self._verdict(searcher, game, int(move), end)
            if verdict is _LOST:
                continue
            if verdict is not _SAFE or self.threat_moves == 0:  # it ends the game, no time, no threat search
                return int(move)
            break
        else:  # every candidate is lost
            return int(candidates[0])
        win = self._forced_win(searcher, game, end)
        if win is not None:
            return win
        for i in range(answer, len(candidates)):
            move = int(candidates[i])
            child = answer_child
            if i > answer:
                verdict, child = self._verdict(searcher, game, move, end)
                if verdict is _UNKNOWN:  # out of time: the answer, lost only deeper, stands
                    break
                if verdict is _LOST:
                    continue
                if verdict is _WON_OR_DRAWN:
                    return move
            if child.to_move == mover or self._forced_win(searcher, child, end) is None:
                return move  # not proven lost (or not known: out of time)
        return int(candidates[answer])  # lost whatever is played: the longer defence

    def _verdict(
        self, searcher: AlphaBetaSearcher, game: Game, move: int, end: float | None
    ) -> tuple[str, Game]:
        """What the alpha-beta search says of ``move``, and the position after it: `_WON_OR_DRAWN` (it ends
        the game so), `_LOST` (it loses the game now, or the opponent wins by force within ``depth`` plies
        of it), `_SAFE` (not proven lost) or `_UNKNOWN` (out of time)."""
        child = game.copy()
        child.play_id(move)
        result = child.result
        mover = game.to_move
        if result is not None:  # the move ends the game
            return (_WON_OR_DRAWN if (result if mover == 0 else -result) >= 0 else _LOST), child
        reply = self._search(searcher, child, end)
        if reply is None:
            return _UNKNOWN, child
        lost = reply.is_proven_win if child.to_move != mover else reply.is_proven_loss  # a Hoyito extra turn
        return (_LOST if lost else _SAFE), child

    def _forced_win(self, searcher: AlphaBetaSearcher, game: Game, end: float | None) -> int | None:
        """The first move of a forced win the narrower search finds for the side to move in ``game``
        within ``threat_moves`` own moves, before ``end``; None: none found (or no time left, or off)."""
        if self.threat_moves == 0:
            return None
        if end is None:
            return searcher.forced_win(game, self.threat_moves)
        left = end - time.monotonic()
        if left <= 0:
            return None
        return searcher.forced_win(game, self.threat_moves, time_s=min(left, MAX_TIME_S))

    def _search(self, searcher: AlphaBetaSearcher, game: Game, end: float | None) -> SearchResult | None:
        """``searcher``'s result on ``game`` to ``depth`` plies, stopped at ``end``; None past it."""
        if end is None:
            return searcher.search(game, depth=self.depth)
        left = end - time.monotonic()
        if left <= 0:
            return None
        return searcher.search(game, depth=self.depth, time_s=min(left, MAX_TIME_S))

    def warm_up(self, game: Game) -> None:
        """One shallow search of each kind, so that the searcher's compiled kernels are loaded before a
        timed move."""
        searcher = self.searcher(game)
        if searcher is not None and not game.is_terminal:
            searcher.search(game, depth=1)
            searcher.forced_win(game, 1)
