"""PUCT tree search at play time, guided by a checkpoint's policy and value heads.

AlphaZero-style: each simulation walks down the tree from the root choosing, at every node, the
move maximising ``Q + c_puct * P * sqrt(N) / (1 + n)``, plays it on the game (any protocol game,
`hive_envs.core.game`: ``play_id`` / ``undo``, so no position is copied per simulation), expands the
leaf with one network call
(priors = softmax of the legal logits, value = the value head) and backs the value up. A terminal
leaf is scored by the game's result instead of the network.

Signs: values are kept from player 0's side while backing up; each node turns them to the side of
its own player to move when it scores its children. Hoyito's extra turn after a capture (the same
player moves twice) needs nothing special: each node knows who is to move.

Unvisited children are scored with the parent's own network value (first-play urgency = the
parent's value), so a child the policy likes is tried before ones it does not.

``prior_temperature`` flattens the priors the search uses (softmax of logits / T, i.e. each prior
raised to 1/T and renormalised; 1 = the policy as it is): a policy sure of the moves it learned
keeps the search from looking at the others, and a flatter prior lets the values decide. The raw
policy (``simulations=0``) is not affected.

Limits (`SearchLimits`): ``simulations`` (at least one), ``max_depth`` (plies below the root; a
node at that depth is scored by the value head and never expanded: UHP ``bestmove depth N``),
``time_s`` (UHP ``bestmove time``: no simulation is started that would end after this many seconds,
judging by the longest one so far; the first always runs, on a machine so loaded that one simulation
takes longer than the limit). The move
returned is the most visited root child (ties: higher prior).

A search may continue from a tree it grew before (``root=`` of `search_root`: the node of the
position now, found by `subtree`): the node's visits count as simulations already made, so a
search by time starts from them. A timed player keeps its last tree for the next move
(`hive_envs.agents.kept_tree`).

``leaf_batch`` > 1 (the timed players' setting, `players.checkpoint.TIMED_LEAF_BATCH`): up to that many
walks are made before the network is called once on all their new leaves (the evaluator's batch form,
`batch_evaluators`). Each waiting walk leaves a virtual loss on its path, so the next one tries other
moves; the losses are taken back before the values are backed up. Per simulation the search is a
little less informed (a walk does not see the values of the walks waiting beside it), but a call's
fixed cost is shared: about twice the simulations in the same time for Hive. With ``simulations=0`` the search is
skipped: the raw policy's most probable legal move.

Value first (an evaluator with a ``value_only`` form: `hive_envs.hive.agent.evaluator.HiveStateEvaluator` when the
value is all the rule's, ``rule_value_share`` 1): a new leaf is made from its value alone
(`Node.from_value`), and the network is asked for its moves and priors only when a walk goes through
it. The tree, the values and the visits are those of the search that evaluates every leaf in full (the
value is the same number, and priors are read only from a node a walk goes through), but a leaf no
walk comes back to costs a two-ply alpha-beta instead of every move's features and a network row.
With ``hive_base`` about half the nodes of a 1 s search are such leaves.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from hive_envs.agents.batch_evaluators import make_batch_evaluator
from hive_envs.core.cancel import cancelled
from hive_envs.core.game import Game

Evaluation = tuple[np.ndarray, np.ndarray, float]
"""(legal moves, their priors summing to 1, value for the player to move in [-1, 1])."""


@dataclass(frozen=True)
class SearchConfig:
    simulations: int = 64
    c_puct: float = 1.5
    max_depth: int | None = None
    time_s: float | None = None
    prior_temperature: float = 1.0
    leaf_batch: int = 1

    def __post_init__(self):
        if (
            isinstance(self.simulations, bool)
            or not isinstance(self.simulations, int)
            or self.simulations < 0
        ):
            raise ValueError(f"simulations must be a non-negative int, got {self.simulations!r}")
        if not (isinstance(self.c_puct, (int, float)) and self.c_puct > 0):
            raise ValueError(f"c_puct must be a positive number, got {self.c_puct!r}")
        if self.max_depth is not None and (not isinstance(self.max_depth, int) or self.max_depth < 0):
            raise ValueError(f"max_depth must be None or a non-negative int, got {self.max_depth!r}")
        if self.time_s is not None and not self.time_s >= 0:
            raise ValueError(f"time_s must be None or a non-negative number, got {self.time_s!r}")
        if not (
            isinstance(self.prior_temperature, (int, float))
            and not isinstance(self.prior_temperature, bool)
            and 0 < self.prior_temperature < math.inf
        ):
            raise ValueError(
                f"prior_temperature must be a positive finite number, got {self.prior_temperature!r}"
            )
        if isinstance(self.leaf_batch, bool) or not isinstance(self.leaf_batch, int) or self.leaf_batch < 1:
            raise ValueError(f"leaf_batch must be an int >= 1, got {self.leaf_batch!r}")


_NO_MOVES = np.empty(0)
WALKS_PER_NETWORK_LEAF = 4
"""With a ``value_only`` evaluator, a leaf batch runs up to this many walks per position it sends to
the network: most walks end on a new position, scored without it."""


class Deadline:
    """When to stop a search with a time limit (None: never): `next_would_pass` is True once the
    time spent plus the longest `lap` so far (the root's evaluation counts as the first) reaches the
    limit, so that a move comes within the limit unless one lap takes longer than all before it, and
    at once when another thread stops the search (`hive_envs.core.cancel`), time limit or not."""

    def __init__(self, time_s: float | None, clock: Callable[[], float]):
        self.time_s, self.clock = time_s, clock
        self.start = self.last = clock()
        self.longest = 0.0

    def lap(self) -> None:
        if self.time_s is not None:
            now = self.clock()
            self.longest = max(self.longest, now - self.last)
            self.last = now

    def next_would_pass(self) -> bool:
        if cancelled():  # another thread stopped this search (`hive_envs.core.cancel`)
            return True
        if self.time_s is None:
            return False
        return self.clock() - self.start + self.longest >= self.time_s


class NetworkEvaluator:
    """Evaluate one position with a policy-value network: the batch evaluator of `batch_evaluators`
    (`make_batch_evaluator`) on a batch of one, so that the one-game search and the batched search
    read a position the same way. A Hive lookahead network's features come from the engine state
    itself and only the legal actions are scored (no state -> planes -> state round trip, no dense
    12,673-wide logits); any other network goes through the game view (`views.GameView`).

    ``rule_value_share`` (0..1) takes that share of the value from the network's hand-written rule
    value (``network.rule_value``: the value `init_from_rule` starts from, the best move's searched
    value of the rule features) instead of its value head: a value head trained on few games is a
    noisier judge of a position than the features' own search (docs/experiments/hive_base_agent.md).
    """

    def __init__(
        self, network: torch.nn.Module, view, source: str = "the network", rule_value_share: float = 0.0
    ):
        self.batch = make_batch_evaluator(network, view, source, rule_value_share)
        self.network = network
        self.view = view
        self.source = source  # named in the error for NaN / infinite outputs
        self.rule_value_share = self.batch.rule_value_share
        self.value_only: Callable[[Game], float] | None = getattr(self.batch, "value_only", None)

    def __call__(self, game) -> Evaluation:
        leaf = self.batch([game])
        return leaf.moves[0], leaf.priors[0], float(leaf.values[0])


class Node:
    """A position in the tree; per-child statistics live in arrays on the parent. A node made from its
    value alone (`from_value`, for an evaluator with a ``value_only`` form) has no moves yet: `attach`
    gives it its moves and priors when a walk first goes through it."""

    __slots__ = ("children", "has_priors", "moves", "n", "priors", "to_move", "value0", "visits", "w")

    def __init__(self, to_move: int, moves: np.ndarray, priors: np.ndarray, value0: float):
        self.to_move = to_move
        self.value0 = value0  # network value from player 0's side
        self.visits = 0
        self.attach(moves, priors)

    @classmethod
    def from_value(cls, to_move: int, value0: float) -> Node:
        """A node waiting for its moves and priors (`attach`)."""
        node = cls(to_move, _NO_MOVES, _NO_MOVES, value0)
        node.has_priors = False
        return node

    def attach(self, moves: np.ndarray, priors: np.ndarray) -> None:
        """Give the node its legal moves and their (tempered) priors, no child visited yet."""
        self.moves = moves
        self.priors = priors
        self.n = np.zeros(len(moves), dtype=np.int64)  # child visits
        self.w = np.zeros(len(moves), dtype=np.float64)  # child value sums, from this node's mover's side
        self.children: list[Node | None] = [None] * len(moves)
        self.has_priors = True

    def own(self, value0: float) -> float:
        """A player-0 value seen from this node's player to move."""
        return value0 if self.to_move == 0 else -value0

    def select(self, c_puct: float) -> int:
        fpu = self.own(self.value0)
        q = np.where(self.n > 0, self.w / np.maximum(self.n, 1), fpu)
        u = c_puct * self.priors * math.sqrt(max(self.visits, 1)) / (1.0 + self.n)
        return int(np.argmax(q + u))


def tempered(priors: np.ndarray, temperature: float) -> np.ndarray:
    """``priors`` (a softmax) as the softmax of the same logits divided by ``temperature``."""
    if temperature == 1.0:
        return priors
    flat = priors ** (1.0 / temperature)
    return flat / flat.sum()


def new_node(to_move: int, moves: np.ndarray, priors: np.ndarray, value: float, config: SearchConfig) -> Node:
    """The node of an evaluated position: ``value`` for ``to_move``, the priors tempered."""
    value0 = value if to_move == 0 else -value
    return Node(to_move, moves, tempered(priors, config.prior_temperature), value0)


def _leaf(
    evaluator: Callable[[Game], Evaluation], game: Game, config: SearchConfig
) -> tuple[Node | None, float]:
    """Score the position ``game`` is in: (new node or None if terminal, value from player 0's side).
    With an evaluator that has a ``value_only`` form the node is made from its value alone; its moves
    and priors come when a walk first goes through it (`_attach_priors`)."""
    result = game.result
    if result is not None:  # the game is over
        return None, result
    value_only = getattr(evaluator, "value_only", None)
    if value_only is None:
        node = new_node(game.to_move, *evaluator(game), config)
    else:
        value = value_only(game)
        node = Node.from_value(game.to_move, value if game.to_move == 0 else -value)
    return node, node.value0


def search(
    game: Game,
    evaluator: Callable[[Game], Evaluation],
    config: SearchConfig,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run the search from ``game`` (a protocol game; played on and left as found).

    Returns ``(moves, visit counts, priors)`` of the root's children. With ``simulations=0`` the
    visit counts are all zero and the caller should play the highest prior.
    """
    root = search_root(game, evaluator, config, clock)
    return root.moves, root.n.copy(), root.priors


def search_root(
    game: Game,
    evaluator: Callable[[Game], Evaluation],
    config: SearchConfig,
    clock: Callable[[], float] = time.monotonic,
    root: Node | None = None,
) -> Node:
    """`search`'s tree, by its root: for tools that show more than the move choice (e.g. each root
    child's mean value ``w / n``, from the root's player to move). ``root``: a tree grown before from
    ``game``'s position (`subtree`), searched on: its visits count towards ``config.simulations``."""
    if game.is_terminal:
        raise ValueError("search: the game is over; there is no move to choose")
    if config.leaf_batch > 1 and getattr(evaluator, "batch", None) is None:
        raise ValueError("search: leaf_batch > 1 needs an evaluator with a batch form (NetworkEvaluator)")
    deadline = Deadline(config.time_s, clock)
    if root is None:
        root = new_node(game.to_move, *evaluator(game), config)
    elif not root.has_priors:  # a leaf made from its value alone
        moves, priors, _ = evaluator(game)
        root.attach(moves, tempered(priors, config.prior_temperature))
    deadline.lap()
    done = root.visits
    if config.leaf_batch > 1:
        lazy = getattr(evaluator, "value_only", None) is not None
        walks = config.leaf_batch * (WALKS_PER_NETWORK_LEAF if lazy else 1)
        started = False
        while done < config.simulations and not (started and deadline.next_would_pass()):
            done += _simulate_batch(root, game, evaluator, config, min(walks, config.simulations - done))
            deadline.lap()
            started = True
        return root
    for step in range(config.simulations - done):
        if step and deadline.next_would_pass():
            break
        _simulate(root, game, evaluator, config)
        deadline.lap()
    return root


def subtree(root: Node, moves) -> Node | None:
    """The node ``moves`` (move ids played in turn from ``root``'s position) lead to in ``root``'s
    tree, or None when the tree has not grown that far (a move no walk tried, a finished game)."""
    node: Node | None = root
    for move in moves:
        if node is None or not node.has_priors:
            return None
        found = np.flatnonzero(node.moves == move)
        if len(found) == 0:
            return None
        node = node.children[int(found[0])]
    return node


def _simulate(root: Node, game: Game, evaluator, config: SearchConfig) -> None:
    path, leaf_parent, value0 = descend(root, game, config)
    node = waiting_node(path, leaf_parent)
    if node is not None:  # made from its value alone: its priors now, then one step further
        moves, priors, _ = evaluator(game)
        path, leaf_parent, value0 = _attach_priors(node, moves, priors, path, game, config)
    value0 = _score_walk_end(path, leaf_parent, value0, evaluator, game, config)
    for _ in path:
        game.undo()
    backup(path, value0)


def _simulate_batch(root: Node, game: Game, evaluator, config: SearchConfig, size: int) -> int:
    """Up to ``size`` simulations, the positions that need the network going through it in one call
    (the evaluator's ``batch`` form, at most ``leaf_batch`` of them); returns how many ran. Each walk
    that waits for the network leaves a virtual loss on its path (a visit valued as a loss for each
    mover), so the next walk is steered elsewhere; the losses are taken back before the real values
    are backed up. A walk that reaches a position already waiting in this call ends the call (it
    would be scored twice). With a ``value_only`` evaluator only the nodes made from their value
    wait (for their priors); a new position's value is backed up at once."""
    lazy = getattr(evaluator, "value_only", None) is not None
    waiting: list[tuple[list, Game]] = []
    claimed: set[tuple[int, int]] = set()
    done = 0
    while done < size and len(waiting) < config.leaf_batch:
        path, leaf_parent, value0 = descend(root, game, config)
        key = (id(leaf_parent), path[-1][1])
        collided = leaf_parent is not None and key in claimed
        if leaf_parent is None:  # a finished game or the depth cut: its value is known now
            backup(path, value0)
        elif lazy and waiting_node(path, leaf_parent) is None:  # a new position, scored without the network
            backup(path, _score_walk_end(path, leaf_parent, value0, evaluator, game, config))
        elif not collided:
            claimed.add(key)
            waiting.append((path, game.copy()))
            _virtual_loss(path, +1)
        for _ in path:
            game.undo()
        if collided:
            break
        done += 1
    if waiting:
        leaves = evaluator.batch([leaf for _, leaf in waiting])
        for row, (path, leaf) in enumerate(waiting):
            _virtual_loss(path, -1)
            node = waiting_node(path, path[-1][0])
            if node is None:
                expand(path, leaves, row, leaf.to_move, config)
                continue
            path, leaf_parent, value0 = _attach_priors(
                node, leaves.moves[row], leaves.priors[row], path, leaf, config
            )
            backup(path, _score_walk_end(path, leaf_parent, value0, evaluator, leaf, config))
    return done


def _score_walk_end(
    path, leaf_parent: Node | None, value0, evaluator, game: Game, config: SearchConfig
) -> float:
    """The value to back up along a walk `descend` ended (``game`` at its end): a new position
    (``leaf_parent`` given) is scored by `_leaf` and kept as its parent's child; else ``value0``."""
    if leaf_parent is not None:
        child, value0 = _leaf(evaluator, game, config)
        leaf_parent.children[path[-1][1]] = child
    return value0


def _attach_priors(node: Node, moves, priors, path, game: Game, config: SearchConfig):
    """Give ``node`` (at the end of the walk ``path``, ``game`` in its position) its moves and priors
    and walk on from it: `descend`'s answer for the whole walk."""
    node.attach(moves, tempered(priors, config.prior_temperature))
    more, leaf_parent, value0 = descend(node, game, config, depth=len(path))
    return path + more, leaf_parent, value0


def waiting_node(path, leaf_parent: Node | None) -> Node | None:
    """The node made from its value alone where the walk ``path`` stopped for its priors (`descend`'s
    ``leaf_parent`` is then its parent), else None."""
    return None if leaf_parent is None else leaf_parent.children[path[-1][1]]


def expand(path, leaves, row: int, to_move: int, config: SearchConfig) -> None:
    """Give the walk ``path`` its new leaf, row ``row`` of the evaluator's answer ``leaves``
    (`batch_evaluators.LeafBatch`; ``to_move`` is the leaf's player to move), and back its value up."""
    child = new_node(to_move, leaves.moves[row], leaves.priors[row], float(leaves.values[row]), config)
    parent, i = path[-1]
    parent.children[i] = child
    backup(path, child.value0)


def _virtual_loss(path, sign: int) -> None:
    """Add (``sign`` +1) or take back (-1) one visit valued as a loss for the mover at each step."""
    for parent, i in path:
        parent.visits += sign
        parent.n[i] += sign
        parent.w[i] -= sign


def descend(root: Node, game: Game, config: SearchConfig, depth: int = 0):
    """Walk one simulation down from ``root`` (``depth`` plies below the search's root), playing the
    moves on ``game``: (path of (node, child index), the node whose child is a new position to score,
    or a node made from its value alone that needs its priors (`waiting_node`), or None; value0 when
    the walk ended without needing the evaluator: a finished game's result, or the stored value at
    ``max_depth``)."""
    node, path = root, []
    while True:
        i = node.select(config.c_puct)
        path.append((node, i))
        game.play_id(int(node.moves[i]))
        depth += 1
        child = node.children[i]
        if child is None:
            result = game.result
            return path, (None if result is not None else node), result
        if config.max_depth is not None and depth >= config.max_depth:
            return path, None, child.value0
        if not child.has_priors:
            return path, node, None
        node = child


def backup(path, value0: float) -> None:
    """Count one visit along ``path`` and add ``value0`` (player 0's side) from each mover's side."""
    for parent, i in path:
        parent.visits += 1
        parent.n[i] += 1
        parent.w[i] += parent.own(value0)


def ranked(moves: np.ndarray, visits: np.ndarray, priors: np.ndarray) -> np.ndarray:
    """``moves`` most visited first, ties broken by the higher prior (zero visits: the raw policy's
    order)."""
    return moves[np.lexsort((-priors, -visits))]


def choose(moves: np.ndarray, visits: np.ndarray, priors: np.ndarray) -> int:
    """The most visited move, ties broken by the higher prior (so zero visits = raw policy argmax)."""
    return int(ranked(moves, visits, priors)[0])
