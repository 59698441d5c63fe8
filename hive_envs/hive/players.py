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
from numba import njit

from hive_envs.hive import HiveGame
from hive_envs.hive.engine.rules import UNDO_SIZE, apply_move, queen_neighbours, undo_move
from hive_envs.hive.engine.state import (
    I_STATUS,
    STATUS_BLACK_WINS,
    STATUS_DRAW,
    STATUS_IN_PROGRESS,
    STATUS_WHITE_WINS,
)

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


@njit(cache=True)
def _score_moves(s, moves, me, out):
    """Kernel of `greedy_scores`: apply each move to ``s``, score it, undo it (``s`` ends unchanged)."""
    rec = np.empty(UNDO_SIZE, dtype=np.int32)
    win = STATUS_WHITE_WINS if me == 0 else STATUS_BLACK_WINS
    for k in range(moves.shape[0]):
        apply_move(s, moves[k], rec)
        status = s[I_STATUS]
        if status == STATUS_IN_PROGRESS:
            out[k] = queen_neighbours(s, 1 - me) - queen_neighbours(s, me)
        elif status == win:
            out[k] = WIN_SCORE
        elif status == STATUS_DRAW:
            out[k] = 0
        else:
            out[k] = -WIN_SCORE
        undo_move(s, rec)


def greedy_scores(game: HiveGame) -> tuple[np.ndarray, np.ndarray]:
    """Score every legal move of ``game`` for the player to move, 1 ply deep.

    Returns ``(move_ids, scores)``: the int32 array ``game.valid_move_ids()`` and an int64 array of
    the same length. Score = +WIN_SCORE for a move that ends the game in the mover's favour,
    -WIN_SCORE for one that loses, 0 for one that draws, else (neighbours of the opponent's Queen)
    - (neighbours of the mover's Queen) after the move. ``game`` is left unchanged (the moves are
    tried on a copy of its state array by a compiled kernel).
    """
    if game.is_terminal:
        raise ValueError(f"greedy_scores: the game is over ({game.gamestring})")
    ids = game.valid_move_ids()
    scores = np.empty(len(ids), dtype=np.int64)
    _score_moves(game.state.copy(), ids, game.to_move, scores)
    return ids, scores


class GreedyPlayer:
    """1-ply greedy player (see `greedy_scores`); ties broken uniformly at random."""

    def __init__(self, seed: int | None = None):
        self._rng = random.Random(seed)

    def choose_move(self, game: HiveGame, limits: SearchLimits) -> str:
        ids, scores = greedy_scores(game)
        best = np.flatnonzero(scores == scores.max())
        return game.move_id_to_uhp(int(ids[best[self._rng.randrange(len(best))]]))
