"""Built-in Hive players: the interface the UHP engine's `bestmove` calls, and two players.

A player is any object with ``choose_move(game, limits) -> str`` returning a UHP move string that is
legal in ``game`` (the player must leave ``game`` as it found it). The UHP loop
(`hive_envs.hive.uhp.UHPEngine`) takes a player object, so a trained agent plugs in by wrapping its
policy in a class with that one method.

- `RandomPlayer`: a uniformly random legal move.
- `GreedyPlayer`: 1-ply search. A move that wins at once is taken first; otherwise each move is scored
  by (occupied neighbours of the opponent's Queen) - (occupied neighbours of the mover's Queen) in the
  position after it; a move that loses at once scores lowest; ties are broken at random.

`greedy_scores(game) -> (move_ids, scores)` exposes the greedy scoring on the engine's integer move
path (one compiled kernel: apply, score, undo per move, on a copy of the state array) so that the Gym
env's greedy opponent can reuse it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from hive_envs.hive import HiveGame
from hive_envs.hive.engine.heuristics import WIN_SCORE  # noqa: F401  (imported from here by callers)


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


def greedy_scores(game: HiveGame) -> tuple[np.ndarray, np.ndarray]:
    """``game.greedy_move_scores()``."""
    return game.greedy_move_scores()


class GreedyPlayer:
    """1-ply greedy player (see `greedy_scores`); ties broken uniformly at random."""

    def __init__(self, seed: int | None = None):
        self._rng = random.Random(seed)

    def choose_move(self, game: HiveGame, limits: SearchLimits) -> str:
        ids, scores = greedy_scores(game)
        best = np.flatnonzero(scores == scores.max())
        return game.move_id_to_uhp(int(ids[best[self._rng.randrange(len(best))]]))
