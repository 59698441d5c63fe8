"""Hive's own network kind, ``hive_lookahead``: the hexconv trunk plus each legal action's rule features.

For each legal action, two-ply rule features computed from the observation by the Hive engine's
kernels (`hive_envs.hive.agent.features`): a small network shared across actions turns each action's
features into a logit added to the trunk's, and a DeepSets pooling of them (mean and max) plus
position features feeds the value. The spec carries the game options (``rules``) the decoder needs
and the feature set (``features``: 1, the Queen features, or 2, plus the alpha-beta evaluation after
each move and the two-ply value; a spec without it is set 1, as every checkpoint written before set
2), and with set 2 optionally ``search_depth`` D >= 3: the two-ply value's columns then hold the
alpha-beta player's D-ply root scores. `HiveLookaheadPolicy.init_from_rule` sets the action and value
heads to a hand-written rule over feature set 2 (the two-ply value first), so that training starts
from a player that already finishes games.

The kind is declared in Hive's definition (`hive_envs.hive.definition`); its options are
`hive_envs.hive.agent.options.HiveLookaheadOptions`, its searches' leaf evaluator
`hive_envs.hive.agent.evaluator.HiveStateEvaluator`.
"""

from __future__ import annotations

from typing import cast

import torch
from torch import nn

from hive_envs.agents.networks import (
    HexConvPolicy,
    LegalActionNetwork,
    NetworkSpec,
    PlaneEntries,
    plane_entries,
)
from hive_envs.agents.sparse_ops import row_max

RULE_WEIGHTS = {12: 8.0, 11: 1.0, 4: 20.0, 5: -20.0}
"""Feature-set-2 action feature -> logit weight of `HiveLookaheadPolicy.init_from_rule`: the two-ply
value relative to the best move (a move 5 evaluation units below the best: -1), the evaluation
after the move to break its ties, then winning (+20) and losing (-20) at once."""
RULE_VALUE_FEATURE, RULE_VALUE_WEIGHT = 5, 0.25
"""The position feature (the best two-ply value, in units of 100, clipped to +-4) the initial value
is proportional to, and the factor."""


class HiveLookaheadPolicy(LegalActionNetwork):
    """Hex-convolution trunk plus per-action rule features (see the module doc and `hive_envs.hive.agent.features`).

    The network scores the legal actions only: `legal_policy(observation, rule_features)` gives
    (B, K) logits over each row's K legal actions (the extractor's order) and the value;
    `forward` scatters them into the dense action layout like every other network. Training
    uses the legal form (K is ~100 where the layout has 12,673 actions) and computes
    `rule_features` once per rollout: they depend on the observation only, not on the weights.
    """

    def __init__(
        self,
        observation_shape: tuple[int, ...],
        num_actions: int,
        channels: int,
        blocks: int,
        rules: dict,
        feature_set: int = 1,
        search_depth: int | None = None,
    ):
        """``search_depth`` (feature set 2): the plies of the searched value in the features, None for
        the two-ply value (`features.TWO_PLY`), 3 or more for the alpha-beta player's root scores."""
        super().__init__()
        from hive_envs.hive.agent.features import TWO_PLY, HiveRuleFeatures

        self.extractor = HiveRuleFeatures(
            str(rules["expansions"]), bool(rules["tournament_opening"]), rules["max_turns"], feature_set,
            TWO_PLY if search_depth is None else search_depth,
        )  # fmt: skip
        self.feature_set = feature_set
        # a deeper searched value costs a search per position (tens to hundreds of ms): a search by
        # time cannot bound one network call of it (`AgentPlayer.check_timed`)
        self.keeps_time_limits = not self.extractor.searches_deeper
        action_features, position_features = self.extractor.action_features, self.extractor.position_features
        if tuple(observation_shape) != self.extractor.encoding.observation_shape:
            raise ValueError(
                f"network 'hive_lookahead' for expansions {rules['expansions']!r} needs observations "
                f"{self.extractor.encoding.observation_shape}, got {tuple(observation_shape)}"
            )
        self.num_actions = num_actions
        self.board = HexConvPolicy(observation_shape, num_actions, channels, blocks)
        width = 64
        self.action_embed = nn.Sequential(nn.Linear(action_features, width), nn.ReLU())
        self.action_logit = nn.Linear(width, 1)
        self.value_net = nn.Sequential(
            nn.Linear(2 * width + position_features, width), nn.ReLU(), nn.Linear(width, 1)
        )

    @torch.no_grad()
    def init_from_rule(self) -> None:
        """Set the heads so that, before any training, the network plays `RULE_WEIGHTS` (a logit
        that is a weighted sum of feature set 2's action features) and values a position at
        `RULE_VALUE_WEIGHT` x its best two-ply value (position feature 5).

        Each weighted feature passes the embedding's ReLU as two units, +x and -x, whose logit
        weights are +w and -w; the other units keep their random input weights and get logit and
        value weights 0, so they add nothing until training moves them. The trunk's own logits
        (initialised at ~0.01) are left as they are.
        """
        self.check_rule_features()
        embed = cast(nn.Linear, self.action_embed[0])
        self.action_logit.weight.zero_()
        self.action_logit.bias.zero_()
        for unit, (feature, weight) in enumerate(RULE_WEIGHTS.items()):
            for sign, column in ((1.0, 2 * unit), (-1.0, 2 * unit + 1)):
                embed.weight[column].zero_()
                embed.weight[column, feature] = sign
                embed.bias[column] = 0.0
                self.action_logit.weight[0, column] = sign * weight
        first, last = cast(nn.Linear, self.value_net[0]), cast(nn.Linear, self.value_net[2])
        value_input = 2 * embed.out_features + RULE_VALUE_FEATURE  # the position features come last
        last.weight.zero_()
        last.bias.zero_()
        for sign, unit in ((1.0, 0), (-1.0, 1)):
            first.weight[unit].zero_()
            first.weight[unit, value_input] = sign
            first.bias[unit] = 0.0
            last.weight[0, unit] = sign * RULE_VALUE_WEIGHT
        board_value = cast(nn.Linear, self.board.value_head[-1])
        board_value.weight.zero_()
        board_value.bias.zero_()

    def rule_value(self, rule_features: tuple[torch.Tensor, ...]) -> torch.Tensor:
        """(B,) the rule's value of each position: `RULE_VALUE_WEIGHT` x its best two-ply value, the
        value `init_from_rule` starts the value head at."""
        self.check_rule_features()
        return RULE_VALUE_WEIGHT * rule_features[2][:, RULE_VALUE_FEATURE]

    def rule_features(self, observation: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """(actions (B, K) int64, features (B, K, F), position (B, G)) on the observation's device;
        padding entries have action index `num_actions` and all-zero features."""
        obs = observation.detach().to("cpu", torch.uint8).numpy()
        return tuple(torch.as_tensor(x, device=observation.device) for x in self.extractor(obs))

    def plane_entries(self, observation: torch.Tensor) -> PlaneEntries | None:
        """The observations as `PlaneEntries` where the trunk reads them (no residual blocks, sparse
        planes), else None: `legal_policy` then takes them (or rows of them) for the observations."""
        return plane_entries(observation) if len(self.board.blocks) == 0 else None

    def legal_policy(
        self, observation: torch.Tensor | PlaneEntries, rule_features: tuple[torch.Tensor, ...]
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits (B, K) over each row's legal actions, value (B,)); padding logits are 0."""
        actions, features, position = rule_features
        real = features[..., 0] > 0  # a legal action (feature 0 is 1), not padding
        trunk, value = self.board.action_logits(observation, actions.clamp(max=self.num_actions - 1))
        # The per-action part runs on the legal entries only (rows are padded to the widest).
        hidden = self.action_embed(features[real])  # (legal entries, width), >= 0 (ReLU)
        legal_logits = trunk[real] + self.action_logit(hidden).squeeze(-1)
        logits = torch.zeros_like(trunk).masked_scatter(real, legal_logits)  # padding logits: 0
        legal = real.sum(dim=1)  # the entries of a row are consecutive in `hidden`
        row = torch.repeat_interleave(torch.arange(len(real), device=real.device), legal)
        mean = hidden.new_zeros(len(real), hidden.shape[1]).index_add(0, row, hidden)
        mean = mean / legal.clamp(min=1).unsqueeze(1)
        # the gradient is shared among equal entries, as `amax` over the padded rows shares it
        peak = row_max(hidden, row, len(real))  # a row without legal entries: 0
        value = value + self.value_net(torch.cat([mean, peak, position], dim=1)).squeeze(-1)
        return logits, value

    def forward(
        self, observation: torch.Tensor, rule_features: tuple[torch.Tensor, ...] | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        rule_features = rule_features or self.rule_features(observation)
        logits, value = self.legal_policy(observation, rule_features)
        dense = logits.new_zeros(logits.shape[0], self.num_actions + 1)  # + a column for padding
        return dense.scatter(1, rule_features[0], logits)[:, :-1], value


def build(spec: NetworkSpec, observation_shape: tuple[int, ...], num_actions: int) -> HiveLookaheadPolicy:
    """The network of a ``hive_lookahead`` spec: ``channels``, ``blocks``, ``rules`` (the game options
    its features decode observations under), and optionally ``features`` (1 when absent, as in every
    spec written before feature set 2) and ``search_depth`` (the two-ply value when absent)."""
    return HiveLookaheadPolicy(
        tuple(observation_shape),
        num_actions,
        int(spec["channels"]),
        int(spec["blocks"]),
        dict(spec["rules"]),
        int(spec.get("features", 1)),
        spec.get("search_depth"),
    )
