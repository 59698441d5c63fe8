"""A player's last search tree, kept for its next move in the same game (tree reuse).

After a search the player keeps the root with the game's history (`KeptTree.keep`). At its next move
the game has gone on by its own move and the opponent's reply (or more plies, or none); when the game's
history starts with the kept one, the node those plies lead to (`search.subtree`) is where the new
search starts (`KeptTree.root_for`): the visits below it are simulations the search need not make
again. A search by time (`PATH@T=S`, UHP ``bestmove time``) thus searches more of the position in
the same time; the part of the tree the game left behind is dropped.

The history is read from the game's ``move_ids`` and ``start_state`` (Hive's `HiveGame`); a game
without them (Hoyito) gets a new tree every move. Any other game, a new game or a position the tree
does not hold gives None: a fresh search.
"""

from __future__ import annotations

import numpy as np

from hive_envs.agents.search import Node, subtree
from hive_envs.core.game import Game


def _history(game: Game) -> tuple[list[int], np.ndarray] | None:
    """(move ids played, start state) of ``game``, or None when the game does not keep them."""
    moves = getattr(game, "move_ids", None)
    start = getattr(game, "start_state", None)
    if moves is None or start is None:
        return None
    return [int(m) for m in moves], np.asarray(start)


class KeptTree:
    """The last search's root and the history of the position it was grown from."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.root: Node | None = None
        self._position: tuple[object, list[int], np.ndarray] | None = None  # options, moves, start

    def keep(self, game: Game, root: Node) -> None:
        """Keep ``root``, the tree of a search from ``game``'s position."""
        history = _history(game)
        if history is None:
            self.clear()
            return
        self.root, self._position = root, (game.options, *history)

    def root_for(self, game: Game) -> Node | None:
        """The kept tree's node of ``game``'s position when ``game`` continues the kept game (same
        options, same start, the kept moves first), else None."""
        history = _history(game)
        if self.root is None or self._position is None or history is None:
            return None
        options, kept_moves, kept_start = self._position
        moves, start = history
        played = len(kept_moves)
        if game.options != options or moves[:played] != kept_moves or not np.array_equal(start, kept_start):
            return None
        return subtree(self.root, moves[played:])
