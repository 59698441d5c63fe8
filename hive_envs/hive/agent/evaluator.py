"""A search's leaf evaluation of Hive games from their engine states: the ``hive_lookahead`` kind's
``batch_evaluator`` (`hive_envs.agents.batch_evaluators.make_batch_evaluator` picks it).

The games' engine states go to one compiled kernel (`HiveRuleFeatures.from_states`) that writes each
observation and each legal move's rule features from the state itself (no state -> planes -> state
round trip), then one forward pass of the network's legal-action form scores those moves only (no
dense 12,673-wide logits). The numbers are those of the generic `ViewEvaluator`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from hive_envs.agents.batch_evaluators import LeafBatch, check_share, mixed_value
from hive_envs.agents.distributions import check_finite_outputs
from hive_envs.core.game import Game
from hive_envs.hive.agent.network import RULE_VALUE_WEIGHT


class HiveStateEvaluator:
    """A ``hive_lookahead`` network's evaluation of Hive games from their engine states (module doc)."""

    def __init__(self, network: torch.nn.Module, source: str = "the network", rule_value_share: float = 0.0):
        self.network: Any = network
        self.source = source
        self.rule_value_share = check_share(network, rule_value_share, source)
        self.value_only = self._rule_value if self.rule_value_share == 1.0 else None
        self._rule_value_weight = np.float32(RULE_VALUE_WEIGHT)

    def _rule_value(self, game: Game) -> float:
        """The value `__call__` gives ``game`` when it is all the rule's (``rule_value_share`` 1):
        the same number, from the best two-ply value alone (`HiveRuleFeatures.best_value`), without
        the per-move features or the network. A search makes a new leaf's node from it
        (`search.Node`) and asks for the priors only when a walk goes through that node."""
        scaled = self.network.extractor.best_value(game.state)  # type: ignore[attr-defined]
        return min(1.0, max(-1.0, float(self._rule_value_weight * np.float32(scaled))))

    @torch.no_grad()
    def __call__(self, games: Sequence[Game]) -> LeafBatch:
        device = next(self.network.parameters()).device
        states = np.stack([game.state for game in games])  # type: ignore[attr-defined]
        observations, moves, actions, features, position, counts = self.network.extractor.from_states(states)
        obs = torch.as_tensor(observations, device=device)
        rule_features = tuple(torch.as_tensor(x, device=device) for x in (actions, features, position))
        logits, value = self.network.legal_policy(obs, rule_features)
        value = mixed_value(self.network, value, rule_features, self.rule_value_share)
        logits = logits.double().cpu()
        check_finite_outputs(self.source, logits, self.network.legal_mask(rule_features).cpu(), value)
        priors = [torch.softmax(logits[i, : counts[i]], dim=0).numpy() for i in range(len(games))]
        values = value.clamp(-1.0, 1.0).double().cpu().numpy()
        rows = range(len(games))
        return LeafBatch(
            [moves[i, : counts[i]] for i in rows], [actions[i, : counts[i]] for i in rows], priors, values,
            obs, rule_features,
        )  # fmt: skip
