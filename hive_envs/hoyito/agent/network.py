"""Hoyito's own network kind, ``hoyito_lookahead``: the mlp plus each action's rule features.

For each action, two-ply rule features computed from the observation by the Hoyito engine's kernels
(`hive_envs.hoyito.agent.features`); a small network shared across actions turns each action's
features into a logit added to the mlp's. The spec carries the rule options (``rules``) the features
need and the feature set (``features``: 1, the two-ply features, or 2, plus an alpha-beta search of
``search_depth`` plies after each move; a spec without it is set 1, as every checkpoint written before
set 2). `HoyitoLookaheadPolicy.init_from_rule` sets the heads to play the searched value (set 2).
With ``board_values: true`` in the spec the network carries a table of learned board values (a buffer
saved with its weights) that its search adds to the alpha-beta's evaluation (`set_board_values`).

The kind is declared in Hoyito's definition (`hive_envs.hoyito.definition`); its options are
`hive_envs.hoyito.agent.options.HoyitoLookaheadOptions`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import cast

import numpy as np
import torch
from torch import nn

from hive_envs.agents.networks import LegalActionNetwork, MLPPolicy, NetworkSpec
from hive_envs.hoyito.agent.options import HoyitoLookaheadOptions

RULE_WEIGHTS = {6: 16.0, 7: 8.0}
"""Feature-set-2 action feature -> logit weight of `HoyitoLookaheadPolicy.init_from_rule`: the
searched value after the move (2 logits per counter), then a proven win (+8) or loss (-8)."""
RULE_VALUE_WEIGHT = 0.5
"""The initial value: this factor x the best searched value over the legal moves (feature 6)."""


class HoyitoLookaheadPolicy(LegalActionNetwork):
    """MLP over the counters plus per-action rule features (see the module doc and `hive_envs.hoyito.agent.features`).

    It has a legal-action form (`LegalActionNetwork`): `rule_features(observation)` gives
    (actions (B, n): hole k where legal, else the padding index n; features (B, n, F); position
    (B, 0)), computed once per rollout by training (feature set 2 runs a search per move), and
    `legal_policy` scores them; `forward` gives the dense logits.
    """

    def __init__(
        self,
        observation_shape: tuple[int, ...],
        num_actions: int,
        hidden_sizes: list[int],
        rules: dict,
        feature_set: int = 1,
        search_depth: int | None = None,
        board_values: bool = False,
    ):
        """``board_values``: the network carries learned board values (a buffer, saved with the
        weights) that its features' search adds to the evaluation (`set_board_values`)."""
        super().__init__()
        from hive_envs.hoyito.agent.features import DEFAULT_SEARCH_DEPTH, HoyitoRuleFeatures
        from hive_envs.hoyito.search.alphabeta import BOARD_BUCKETS

        self.holes = num_actions
        if observation_shape != (2 * num_actions + 4,):
            raise ValueError(
                f"network 'hoyito_lookahead' needs Hoyito observations (2n+4,) with n actions; got "
                f"shape {observation_shape} and {num_actions} actions"
            )
        self.feature_set = feature_set
        self.extractor = HoyitoRuleFeatures(
            num_actions, int(rules["seeds_per_hole"]), int(rules["max_laps"]), int(rules["no_capture_limit"]),
            feature_set, DEFAULT_SEARCH_DEPTH if search_depth is None else search_depth,
        )  # fmt: skip
        if board_values:
            if feature_set != 2:
                raise ValueError("board values are used by the search of feature set 2 only")
            self.register_buffer(
                "board_values", torch.zeros((2 * num_actions, BOARD_BUCKETS), dtype=torch.int32)
            )
        features = self.extractor.features
        self.board = MLPPolicy(observation_shape, num_actions, hidden_sizes)
        width = 32
        self.action_net = nn.Sequential(nn.Linear(features, width), nn.ReLU(), nn.Linear(width, 1))
        self.value_net = nn.Sequential(
            nn.Linear(num_actions * features, width), nn.ReLU(), nn.Linear(width, 1)
        )

    @torch.no_grad()
    def init_from_rule(self) -> None:
        """Set the heads so that, before any training, the network plays `RULE_WEIGHTS` (the
        searched value after each move: an alpha-beta one ply deeper than the features' search) and
        values a position at `RULE_VALUE_WEIGHT` x its best legal move's searched value; the
        board MLP's policy and value heads start at zero. Each weighted feature passes the first layer's ReLU as two units, +x and -x."""
        self.check_rule_features()
        first, last = cast(nn.Linear, self.action_net[0]), cast(nn.Linear, self.action_net[2])
        last.weight.zero_()
        last.bias.zero_()
        for unit, (feature, weight) in enumerate(RULE_WEIGHTS.items()):
            for sign, column in ((1.0, 2 * unit), (-1.0, 2 * unit + 1)):
                first.weight[column].zero_()
                first.weight[column, feature] = sign
                first.bias[column] = 0.0
                last.weight[0, column] = sign * weight
        # the value: ReLU units (+x and -x) of each legal move's feature 6 cannot take a max, so
        # the initial value reads the mean over the holes of (legal x searched value): close
        # enough to start from, training corrects it.
        value_first, value_last = cast(nn.Linear, self.value_net[0]), cast(nn.Linear, self.value_net[2])
        value_last.weight.zero_()
        value_last.bias.zero_()
        features = self.extractor.features
        for sign, unit in ((1.0, 0), (-1.0, 1)):
            value_first.weight[unit].zero_()
            for hole in range(self.holes):
                value_first.weight[unit, hole * features + 6] = sign / self.holes
            value_first.bias[unit] = 0.0
            value_last.weight[0, unit] = sign * RULE_VALUE_WEIGHT
        for head in (self.board.policy_head, self.board.value_head):
            head.weight.zero_()
            head.bias.zero_()

    def rule_value(self, rule_features: tuple[torch.Tensor, ...]) -> torch.Tensor:
        """(B,) the rule's value of each position: `RULE_VALUE_WEIGHT` x the best searched
        value over its legal moves (feature 6; the value head starts from the mean instead)."""
        self.check_rule_features()
        _, feats, _ = rule_features
        searched = feats[..., 6].masked_fill(~self.legal_mask(rule_features), -math.inf)
        return RULE_VALUE_WEIGHT * searched.amax(dim=1)

    def set_board_values(self, table: np.ndarray) -> None:
        """Set the learned board values (score units, shape (2n, `BOARD_BUCKETS`); the module doc of
        `hive_envs.hoyito.search.alphabeta`); refused for a network built without them."""
        buffer = self._buffers.get("board_values")
        if buffer is None:
            raise ValueError("this network has no board values (build it with board_values=True)")
        from hive_envs.hoyito.search.alphabeta import check_board_values

        table = check_board_values(table)
        if table.shape != tuple(buffer.shape):
            raise ValueError(f"board values of shape {tuple(buffer.shape)} expected, got {table.shape}")
        buffer.copy_(torch.as_tensor(table))

    def rule_features(self, observation: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """(actions (B, n), features (B, n, F), position (B, 0)) on the observation's device."""
        buffer = self._buffers.get("board_values")
        if buffer is not None:  # read at each call: loading weights replaces the buffer's values
            self.extractor.board_values = np.ascontiguousarray(buffer.cpu().numpy(), dtype=np.int32)
        features = self.extractor(observation.detach().float().cpu().numpy())
        holes = np.arange(self.holes, dtype=np.int64)
        actions = np.where(features[..., 0] > 0, holes, self.holes)
        position = np.zeros((features.shape[0], 0), dtype=np.float32)
        return tuple(torch.as_tensor(x, device=observation.device) for x in (actions, features, position))

    def legal_policy(
        self, observation: torch.Tensor, rule_features: tuple[torch.Tensor, ...]
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits (B, n) with 0 on illegal holes, value (B,)): entry k is hole k."""
        _, feats, _ = rule_features
        logits, value = self.board(observation)
        logits = (logits + self.action_net(feats).squeeze(-1)) * feats[..., 0]
        value = value + self.value_net(feats.flatten(1)).squeeze(-1)
        return logits, value

    def forward(
        self, observation: torch.Tensor, rule_features: tuple[torch.Tensor, ...] | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        return self.legal_policy(observation, rule_features or self.rule_features(observation))


def build(spec: NetworkSpec, observation_shape: tuple[int, ...], num_actions: int) -> HoyitoLookaheadPolicy:
    """The network of a ``hoyito_lookahead`` spec: ``hidden_sizes``, ``rules`` (the game options its
    features simulate moves under), and optionally ``features`` (1 when absent, as in every spec written
    before feature set 2), ``search_depth`` (`features.DEFAULT_SEARCH_DEPTH` when absent) and
    ``board_values``."""
    return HoyitoLookaheadPolicy(
        tuple(observation_shape),
        num_actions,
        list(spec["hidden_sizes"]),
        dict(spec["rules"]),
        int(spec.get("features", 1)),
        spec.get("search_depth"),
        bool(spec.get("board_values", False)),
    )


def new_run(
    network: HoyitoLookaheadPolicy,
    options: HoyitoLookaheadOptions,
    game_options: dict,
    seed: int,
    status: Callable[[str], object],
) -> dict[str, float]:
    """What a new run does first (the kind's ``new_run``): with ``board_values_games``, fit the board
    values the features' search reads to that many self-play games (`board_values.learn_board_values`)
    and load them into the network; the fit's summary as ``board_values/...`` scalars."""
    if not options.board_values_games:
        return {}
    from hive_envs.hoyito.agent.board_values import learn_board_values

    status("fitting board values")
    table, summary = learn_board_values(dict(game_options), options.board_values_games, seed)
    network.set_board_values(table)
    return {f"board_values/{name}": value for name, value in summary.items()}
