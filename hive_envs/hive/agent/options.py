"""The options of Hive's ``hive_lookahead`` network kind: what a config's ``network_options:`` holds.

    network: hive_lookahead
    conv_channels: 8            # the hexconv trunk's keys (`hive_envs.core.network_kind.Trunk`)
    conv_blocks: 0
    network_options:
      features: 2               # 1: the Queen features; 2: plus the alpha-beta evaluation and two-ply value
      search_depth: 3           # features 2 only: each move's value searched this deep (2: the two-ply value)

Torch-free: configs are checked with it before anything is built. Earlier versions named these
``hive_features`` and ``hive_search_depth`` at the config's top level (still read, with a warning).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hive_envs.core.network_kind import NetworkOptions, Trunk, check_choice, check_int

TWO_PLY = 2
"""``search_depth`` of the features' own two-ply value (the default); deeper values come from the
alpha-beta player (`hive_envs.hive.agent.features`)."""
MAX_SEARCH_DEPTH = 8
"""The deepest searched value a config asks for (a search per position: ~35 ms at 3 plies)."""


@dataclass(frozen=True)
class HiveLookaheadOptions(NetworkOptions):
    """``features``: the rule feature set, 1 (the Queen features, 11 per action) or 2 (plus the
    alpha-beta evaluation after each move and its two-ply value, 14 per action); ``search_depth``
    (features 2): the plies of each move's searched value, `TWO_PLY` (the features' two-ply value) or
    3..`MAX_SEARCH_DEPTH` (the alpha-beta player's root search that deep)."""

    features: int = 2
    search_depth: int = TWO_PLY

    def __post_init__(self) -> None:
        owner = "network 'hive_lookahead'"
        check_choice(owner, "features", self.features, (1, 2))
        check_int(owner, "search_depth", self.search_depth, TWO_PLY, MAX_SEARCH_DEPTH)
        if self.search_depth != TWO_PLY and self.features != 2:
            raise ValueError(
                f"{owner} option 'search_depth' must be {TWO_PLY} unless features is 2, the feature set "
                f"whose columns hold a searched value (got search_depth {self.search_depth}, features "
                f"{self.features})"
            )

    def spec(self, trunk: Trunk) -> dict[str, Any]:
        spec: dict[str, Any] = {"channels": trunk.channels, "blocks": trunk.blocks}
        if self.features != 1:  # set 1: as specs before set 2
            spec["features"] = self.features
            if self.search_depth != TWO_PLY:  # the two-ply value: as specs before search_depth
                spec["search_depth"] = self.search_depth
        return spec

    @property
    def rule_value(self) -> bool:
        return self.features == 2


@dataclass(frozen=True)
class HivePiecesOptions(NetworkOptions):
    """``hive_pieces`` (`hive_envs.hive.agent.pieces_network`): ``width`` of every token, ``layers``
    of message passing and attention, attention ``heads`` (``width`` a multiple of them). The config's
    trunk keys (``hidden_sizes``, ``conv_*``) do not apply to it."""

    width: int = 32
    layers: int = 2
    heads: int = 1

    def __post_init__(self) -> None:
        owner = "network 'hive_pieces'"
        check_int(owner, "width", self.width, 4, 1024)
        check_int(owner, "layers", self.layers, 0, 16)
        check_int(owner, "heads", self.heads, 1, 64)
        if self.width % self.heads:
            raise ValueError(
                f"{owner} option 'width' ({self.width}) must be a multiple of 'heads' ({self.heads})"
            )

    def spec(self, trunk: Trunk) -> dict[str, Any]:
        return {"width": self.width, "layers": self.layers, "heads": self.heads}
