"""Built-in Hive players: the interface the UHP engine's `bestmove` calls, and two players.

A player is any object with ``choose_move(game, limits) -> str`` returning a UHP move string that is
legal in ``game`` (the player must leave ``game`` as it found it). The UHP loop
(`hive_envs.hive.uhp.UHPEngine`) takes a player object, so a trained agent plugs in by wrapping its
policy in a class with that one method.

- `RandomPlayer`: a uniformly random legal move.
- `GreedyPlayer`: 1-ply search. A move that wins at once is taken first; otherwise each move is scored
  by (occupied neighbours of the opponent's Queen) - (occupied neighbours of the mover's Queen) in the
  position after it, a move that loses scores -inf-like, and ties are broken at random.

`greedy_scores(game)` exposes the greedy scoring on the engine's integer move path
(``valid_move_ids`` / ``play_id`` / ``undo``) so that the Gym env's greedy opponent can reuse it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from hive_envs.hive import HiveGame

WIN_SCORE = 100
"""Score of a move that wins at once; a move that loses at once scores -WIN_SCORE, a draw 0.
The Queen-neighbour difference lies in [-6, 6], so these dominate it."""


@dataclass(frozen=True)
class SearchLimits:
    """Limits a UHP `bestmove` passes on: plies to look ahead and/or seconds to think.

    None means "not given". The built-in players are 0- or 1-ply and finish far inside any limit;
    the fields are here so that a searching agent can honour them.
    """

    depth: int | None = None
    time_s: float | None = None


class Player(Protocol):
    """What the UHP engine needs from a player."""

    def choose_move(self, game: HiveGame, limits: SearchLimits) -> str:
        """Return a legal UHP move string for ``game`` (which must not be terminal); leave it unchanged."""
        ...


class RandomPlayer:
    """Picks one legal move uniformly at random."""

    def __init__(self, seed: int | None = None):
        self._rng = random.Random(seed)

    def choose_move(self, game: HiveGame, limits: SearchLimits) -> str:
        ids = game.valid_move_ids()
        return game.move_id_to_uhp(int(ids[self._rng.randrange(len(ids))]))


def _colour_of_mover(game: HiveGame) -> int:
    return int(game.to_move)


def _queen_neighbour_counts(game: HiveGame) -> tuple[int, int]:
    """Occupied cells around the white and the black Queen (0 for a Queen not in play)."""
    return int(game.queen_neighbours(0)), int(game.queen_neighbours(1))


def greedy_scores(game: HiveGame) -> tuple[np.ndarray, np.ndarray]:
    """Score every legal move of ``game`` for the player to move, 1 ply deep.

    Returns ``(move_ids, scores)`` as int64 arrays of equal length, in the order of
    ``game.valid_move_ids()``. Score = +WIN_SCORE for a move that ends the game in the mover's favour,
    -WIN_SCORE for one that loses, 0 for one that draws, else (neighbours of the opponent's Queen)
    - (neighbours of the mover's Queen) after the move. ``game`` is left unchanged.
    """
    if game.is_terminal:
        raise ValueError(f"greedy_scores: the game is over ({game.gamestring})")
    me = _colour_of_mover(game)
    win, loss = ("WhiteWins", "BlackWins") if me == 0 else ("BlackWins", "WhiteWins")
    ids = np.asarray(game.valid_move_ids(), dtype=np.int64)
    scores = np.empty(len(ids), dtype=np.int64)
    for k, move_id in enumerate(ids):
        game.play_id(int(move_id))
        try:
            outcome = game.outcome
            if outcome == win:
                scores[k] = WIN_SCORE
            elif outcome == loss:
                scores[k] = -WIN_SCORE
            elif outcome is not None:
                scores[k] = 0
            else:
                white, black = _queen_neighbour_counts(game)
                scores[k] = (black - white) if me == 0 else (white - black)
        finally:
            game.undo()
    return ids, scores


class GreedyPlayer:
    """1-ply greedy player (see `greedy_scores`); ties broken uniformly at random."""

    def __init__(self, seed: int | None = None):
        self._rng = random.Random(seed)

    def choose_move(self, game: HiveGame, limits: SearchLimits) -> str:
        ids, scores = greedy_scores(game)
        best = np.flatnonzero(scores == scores.max())
        return game.move_id_to_uhp(int(ids[best[self._rng.randrange(len(best))]]))
