"""The alpha-beta expert of expert iteration (``exit_expert: alphabeta``): every legal move scored by a
deeper search than the network's features hold.

    expert = AlphaBetaExpert("hoyito", depth=10, temperature=8.0)
    scores = expert.scores(game, moves)   # each move's alpha-beta score for the player to move
    target = expert.target(scores)        # softmax(scores / temperature): the policy's target
    shared = AlphaBetaExpert("hive", depth=3, temperature=8.0, workers=2)
    shared.scores_of(games, moves_of_each)  # the games' scores from two worker processes
    shared.close()

The scores are the game's searcher's `move_scores` (`AlphaBetaSearcher.move_scores`): each move's
score for the side to move at the root, as a root search ``depth`` plies deep scores it, in the
searcher's units (Hoyito: 16 per captured counter; a result proven at ply p from the root
±(`WIN_SCORE` - p), a move that ends the game ±(`WIN_SCORE` - 1), a draw 0). Hoyito plays each move on
a copy and searches the position after it ``depth - 1`` plies; Hive scores every root move in one
kernel call, its subtrees sharing the table. The best of them is ``alphabeta:depth``'s root value,
except where a table carries a deeper result from one move's subtree to another's (3 of 552 random
Hoyito positions at depths 2, 3, 4 and 6 differ).

Only moves near the best matter to the target: a move `FLOOR_TEMPERATURES` temperatures below the
best gets a weight e^-8 of the best's (0.03%). So the search is asked to be exact only down to
``FLOOR_TEMPERATURES * temperature`` below the best (the ``margin`` of `move_scores`); a worse move
scores exactly that (its search only proves it is no better), which in Hive makes a position's scores
cheaper to find (most moves are refuted by one reply).

Why every move and not ``alphabeta:depth``'s move alone: a third of random Hoyito positions, and more
than half of self-play ones, have several best moves even 10-14 plies deep
(docs/experiments/hoyito_expert_iteration.md); the
searcher picks among them by its move order and a seeded hash, and a one-hot target would teach the
network that order. The softmax spreads the target over equal moves instead, and
``temperature`` (score units) says how close a move must be to the best to share it.
"""

from __future__ import annotations

import math
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from hive_envs.core.alphabeta import AlphaBetaSearcher
from hive_envs.core.game import Game
from hive_envs.games import GAMES

FLOOR_TEMPERATURES = 8
"""How far below the best move (in temperatures) the scores are exact; see the module docstring."""


def score_margin(temperature: float) -> int:
    """The ``margin`` of `move_scores` the expert asks for at ``temperature``: `FLOOR_TEMPERATURES` of it."""
    return math.ceil(FLOOR_TEMPERATURES * temperature)


class AlphaBetaExpert:
    """Scores the legal moves of a position by the game's alpha-beta searcher (see the module doc)."""

    def __init__(self, game: str, depth: int, temperature: float, seed: int = 0, workers: int = 1):
        searcher_class: type[AlphaBetaSearcher] | None = (
            GAMES[game].searcher_class() if game in GAMES else None
        )
        if searcher_class is None:
            raise ValueError(f"exit_expert 'alphabeta': game {game!r} has no alpha-beta searcher")
        if (
            isinstance(depth, bool)
            or not isinstance(depth, int)
            or not 2 <= depth <= searcher_class.max_depth + 1
        ):
            raise ValueError(
                f"exit_expert_depth must be an int in 2..{searcher_class.max_depth + 1} for {game}, got {depth!r}"
            )
        if not temperature > 0:
            raise ValueError(f"exit_expert_temperature must be > 0, got {temperature!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"exit_expert_workers must be an int >= 1, got {workers!r}")
        self.searcher = searcher_class(seed=seed)
        self.depth = depth
        self.temperature = float(temperature)
        self.margin = score_margin(self.temperature)
        self.nodes = 0  #: positions the searches visited, all calls together
        self.workers = workers
        self._settings = (game, depth, temperature, seed)
        self._pool: ProcessPoolExecutor | None = None

    def scores_of(self, games: list[Game], moves: list[np.ndarray]) -> list[np.ndarray]:
        """`scores` of each game's moves; with ``workers`` > 1 the games are shared out over that many
        processes (started on the first call, each with its own searcher), so the expert uses every
        core. The scores are the same either way: each search starts from a cleared table."""
        if self.workers == 1:
            return [self.scores(game, game_moves) for game, game_moves in zip(games, moves)]
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),  # no fork of torch's or numba's threads
                initializer=_start_worker,
                initargs=self._settings,
            )
        answers = list(self._pool.map(_worker_scores, games, [np.asarray(m) for m in moves]))
        self.nodes += sum(nodes for _, nodes in answers)
        return [scores for scores, _ in answers]

    def close(self) -> None:
        """Stop the worker processes, if any (a later `scores_of` starts them again)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def scores(self, game: Game, moves: np.ndarray) -> np.ndarray:
        """(len(moves),) float64: each move's score for the player to move in ``game`` (unchanged)."""
        scores, nodes = self.searcher.move_scores(game, moves, self.depth, self.margin)
        self.nodes += nodes
        return scores

    def target(self, scores: np.ndarray) -> np.ndarray:
        """softmax(scores / temperature), summing to 1 (the best moves share the most)."""
        weights = np.exp((scores - scores.max()) / self.temperature)
        return weights / weights.sum()


_worker_expert: AlphaBetaExpert | None = None
"""The expert of a worker process of `AlphaBetaExpert.scores_of`."""


def _start_worker(game: str, depth: int, temperature: float, seed: int) -> None:
    global _worker_expert
    _worker_expert = AlphaBetaExpert(game, depth, temperature, seed)


def _worker_scores(game: Game, moves: np.ndarray) -> tuple[np.ndarray, int]:
    """(the moves' scores, the nodes searched) in a worker process."""
    expert = _worker_expert
    assert expert is not None, "the worker's initializer makes the expert"
    before = expert.nodes
    scores = expert.scores(game, moves)
    return scores, expert.nodes - before
