"""PUCT over many games at once: each simulation step descends every game's tree to one leaf, and
all the leaves go through the network in one call (`batch_evaluators`).

Per game it is exactly the one-game search of `hive_envs.agents.search` (the same `Node`, selection,
first-play urgency, prior temperature, depth cut, backup and final choice): simulation k of every game
runs in step k, so one game searched here visits the moves `search.search` visits (a test checks it).
What batching changes is the cost: a network call (and, for Hive, the compiled rule-feature kernel)
over B leaves instead of B calls over one, so the fixed cost of a call is paid once per step.

Why PUCT and not Gumbel sequential halving: the searched players (``PATH@N``) already play PUCT, so
self-play with the same search trains the policy for the search it is used in, and the batched and
one-game searches can be checked against each other move for move. Self-play exploration comes from
the root (`RootNoise`: Dirichlet noise on the root priors, as AlphaZero) and from sampling the first
moves of a game in proportion to the visits (`training/expert_iteration.py`).

Tree bookkeeping stays in the nodes' numpy arrays (a node's children are scored by one vectorised
expression); the engine work per leaf (moves, rule features, observation) is the compiled kernel's.
The time limit (``config.time_s``) is checked between simulation steps as the one-game search checks
it between simulations (`search.Deadline`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from hive_envs.agents.batch_evaluators import LeafBatch
from hive_envs.agents.search import Deadline, Node, SearchConfig, backup, descend, expand, new_node
from hive_envs.core.game import Game


@dataclass(frozen=True)
class RootNoise:
    """Dirichlet(``alpha``) noise mixed into each root's priors with weight ``fraction``."""

    alpha: float = 0.3
    fraction: float = 0.25

    def __post_init__(self):
        if not self.alpha > 0:
            raise ValueError(f"root noise alpha must be > 0, got {self.alpha!r}")
        if not 0 <= self.fraction <= 1:
            raise ValueError(f"root noise fraction must be in [0, 1], got {self.fraction!r}")


@dataclass
class SearchResult:
    """One game's root after the search: its children's moves, visit counts and priors (the priors the
    search used, noise included), and how many simulations ran."""

    moves: np.ndarray
    visits: np.ndarray
    priors: np.ndarray
    simulations: int


def batched_search(
    games: Sequence[Game],
    evaluator: Callable[[Sequence[Game]], LeafBatch],
    config: SearchConfig,
    roots: LeafBatch | None = None,
    noise: RootNoise | None = None,
    rng: np.random.Generator | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> list[SearchResult]:
    """Search every game of ``games`` (unfinished protocol games; played on and left as found).

    ``roots``: the evaluator's answer for ``games`` when the caller already has it (self-play keeps it
    as the training example), else it is computed here. ``noise`` (with ``rng``) perturbs the root
    priors. With ``simulations=0`` the visit counts are all zero (play the highest prior)."""
    if any(game.is_terminal for game in games):
        raise ValueError("batched_search: a game is over; there is no move to choose")
    if noise is not None and rng is None:
        raise ValueError("batched_search: root noise needs an rng")
    deadline = Deadline(config.time_s, clock)
    if roots is None:
        roots = evaluator(games)
    deadline.lap()
    trees = []
    for i, game in enumerate(games):
        root = new_node(game.to_move, roots.moves[i], roots.priors[i], float(roots.values[i]), config)
        if noise is not None and noise.fraction > 0 and len(root.moves) > 1:
            assert rng is not None
            dirichlet = rng.dirichlet(np.full(len(root.moves), noise.alpha))
            root.priors = (1.0 - noise.fraction) * root.priors + noise.fraction * dirichlet
        trees.append(root)
    done = 0
    for done in range(config.simulations):
        if done and deadline.next_would_pass():
            break
        _step(trees, games, evaluator, config)
        deadline.lap()
    else:
        done = config.simulations
    return [SearchResult(root.moves, root.n.copy(), root.priors, done) for root in trees]


def _step(trees: list[Node], games: Sequence[Game], evaluator, config: SearchConfig) -> None:
    """One simulation in every game; the new leaves are evaluated in one call."""
    waiting = []  # (game index, path) of the walks that end on a new position
    for g, (root, game) in enumerate(zip(trees, games)):
        path, leaf_parent, value0 = descend(root, game, config)
        if leaf_parent is None:
            backup(path, value0)
            for _ in path:
                game.undo()
        else:
            waiting.append((g, path))
    if not waiting:
        return
    leaves = evaluator([games[g] for g, _ in waiting])
    for row, (g, path) in enumerate(waiting):
        game = games[g]
        expand(path, leaves, row, game.to_move, config)
        for _ in path:
            game.undo()
