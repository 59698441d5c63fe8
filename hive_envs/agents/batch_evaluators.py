"""Many positions through a policy-value network in one call: the leaf evaluation of
`hive_envs.agents.batched_search`.

``evaluator(games) -> LeafBatch``: for each unfinished protocol game (`hive_envs.core.game`), its
legal moves, their priors (softmax of the legal logits, summing to 1) and the value for the player to
move in [-1, 1], the same numbers `search.NetworkEvaluator` gives one game at a time; plus the
network's inputs of the rows (observations and rule features), which self-play keeps as training
examples (`training/expert_iteration.py`).

`make_batch_evaluator(network, view, ...)` picks the fastest path the network allows:

- its kind's own ``batch_evaluator`` (`hive_envs.core.network_kind.NetworkKind`), when it has one
  (Hive's ``hive_lookahead``: `hive_envs.hive.agent.evaluator.HiveStateEvaluator`, from the games'
  engine states in one compiled call);
- `ViewEvaluator`, any other network: each game encoded by its view, one forward pass over the
  stack, the legal logits read from the dense ones (Hoyito: 6 or 12 actions, cheap).

``rule_value_share`` mixes the network's rule value into the value, as in `search.NetworkEvaluator`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from hive_envs.agents.distributions import check_finite_outputs
from hive_envs.agents.network_kinds import kind_of
from hive_envs.agents.networks import listed_features
from hive_envs.core.game import Game


@dataclass
class LeafBatch:
    """The evaluation of a batch of positions (row i = the i-th game asked).

    ``moves[i]`` (engine move ids), ``actions[i]`` (their action indices) and ``priors[i]`` (float64,
    sum 1) in the same order; ``values`` (B,) float64 for each row's player to move; ``observations``
    (B, ...) and ``rule_features`` (the network's legal-action inputs, `LegalActionNetwork`, or None
    for a network without them) as torch tensors."""

    moves: list[np.ndarray]
    actions: list[np.ndarray]
    priors: list[np.ndarray]
    values: np.ndarray
    observations: torch.Tensor
    rule_features: tuple[torch.Tensor, ...] | None


def check_share(network: torch.nn.Module, share: float, source: str) -> float:
    """``rule_value_share`` checked: a number in [0, 1], above 0 only for a network with a rule value."""
    if not (isinstance(share, (int, float)) and 0.0 <= share <= 1.0):
        raise ValueError(f"rule_value_share must be a number in [0, 1], got {share!r}")
    if share:
        if not hasattr(network, "rule_value"):
            raise ValueError(
                f"rule_value_share {share:g}: {source} ({type(network).__name__}) has no rule value "
                f"(the lookahead networks with rule features do)"
            )
        network.check_rule_features()  # type: ignore[operator]
    return float(share)


def mixed_value(network: Any, value: torch.Tensor, rule_features, share: float) -> torch.Tensor:
    """``value`` with the share ``share`` taken from the network's rule value instead."""
    if share:
        value = (1.0 - share) * value + share * network.rule_value(rule_features)
    return value


class ViewEvaluator:
    """Any network's evaluation of games through a game view (`views.GameView`; module doc)."""

    def __init__(
        self, network: torch.nn.Module, view, source: str = "the network", rule_value_share: float = 0.0
    ):
        self.network: Any = network
        self.view = view
        self.source = source
        self.rule_value_share = check_share(network, rule_value_share, source)

    @torch.no_grad()
    def __call__(self, games: Sequence[Game]) -> LeafBatch:
        device = next(self.network.parameters()).device
        encoded = [self.view.encode(game) for game in games]
        obs = torch.as_tensor(np.stack([observation for observation, _, _ in encoded]), device=device)
        rule_features: tuple[torch.Tensor, ...] | None
        if getattr(self.network, "reads_action_lists", False):  # scores the legal actions only
            rows = [row_actions for _, _, row_actions in encoded]
            rule_features = listed_rows(rows, self.view.num_actions, device)
            logits, value = self.network.legal_policy(obs, rule_features)
            logits = logits.double().cpu()
            legal = [logits[i, : len(row)] for i, row in enumerate(rows)]
        else:
            rule_features = (
                self.network.rule_features(obs) if hasattr(self.network, "rule_features") else None
            )
            logits, value = self.network(obs) if rule_features is None else self.network(obs, rule_features)
            logits = logits.double().cpu()
            legal = [logits[i, torch.as_tensor(row_actions)] for i, (_, _, row_actions) in enumerate(encoded)]
        value = mixed_value(self.network, value, rule_features, self.rule_value_share)
        check_finite_outputs(self.source, torch.cat(legal), value=value)
        priors = [torch.softmax(row, dim=0).numpy() for row in legal]
        moves = [row_moves for _, row_moves, _ in encoded]
        values = value.clamp(-1.0, 1.0).double().cpu().numpy()
        return LeafBatch(
            moves, [row_actions for _, _, row_actions in encoded], priors, values, obs, rule_features
        )


def listed_rows(rows: Sequence[np.ndarray], num_actions: int, device) -> tuple[torch.Tensor, ...]:
    """Each row's legal actions, in its order, as `hive_envs.agents.networks.action_lists` gives them:
    (ids (B, K) padded with ``num_actions``, (B, K, 1) flags, empty position)."""
    width = max(max((len(row) for row in rows), default=1), 1)
    listed = np.full((len(rows), width), num_actions, dtype=np.int64)
    for i, row in enumerate(rows):
        listed[i, : len(row)] = row
    return listed_features(listed, num_actions, device)


def make_batch_evaluator(
    network: torch.nn.Module, view, source: str = "the network", rule_value_share: float = 0.0
):
    """The evaluator for ``network`` playing ``view``'s game (the module doc says which)."""
    kind = kind_of(network)
    if kind is not None and kind.batch_evaluator is not None:
        return kind.batch_evaluator(network, source, rule_value_share)
    return ViewEvaluator(network, view, source, rule_value_share)
