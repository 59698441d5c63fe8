"""The network kinds by name: the generic ones declared here, each game's own in its definition.

    network_kind("mlp")                          # a generic kind (`MLP`)
    network_kind("hive_lookahead")               # Hive's, from `hive_envs.hive.definition`
    build_network(spec, observation_shape, num_actions)   # the network a spec describes

A kind (`hive_envs.core.network_kind.NetworkKind`) is what a config's ``network:`` and a checkpoint's
network spec (``kind``) name. The generic kinds build the trunks of `hive_envs.agents.networks` and
play any game whose observations fit them; a game's own kinds (its definition's ``agents.networks``)
live in the game's folder and are looked up here through `hive_envs.games`, so no generic module
names them. A name is only looked up, never imported: a spec naming anything else is refused.

Torch-free: the kinds' code fields are ``"module:attribute"`` texts, imported when a network is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hive_envs.core.definition import GameDefinition
from hive_envs.core.network_kind import NetworkKind, NetworkOptions, Trunk
from hive_envs.games import GAMES


@dataclass(frozen=True)
class MLPOptions(NetworkOptions):
    """``mlp`` has no options of its own: its widths are the config's ``hidden_sizes``."""

    def spec(self, trunk: Trunk) -> dict[str, Any]:
        return {"hidden_sizes": list(trunk.hidden_sizes)}


@dataclass(frozen=True)
class HexConvOptions(NetworkOptions):
    """``hexconv`` has no options of its own: its trunk is the config's ``conv_channels`` and
    ``conv_blocks``."""

    def spec(self, trunk: Trunk) -> dict[str, Any]:
        return {"channels": trunk.channels, "blocks": trunk.blocks}


@dataclass(frozen=True)
class GridConvOptions(NetworkOptions):
    """``gridconv``'s trunk is the config's ``conv_channels`` and ``conv_blocks``; ``channels_last``:
    the observation is (H, W, C), as PettingZoo's classic boards give it (False: (C, H, W))."""

    channels_last: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.channels_last, bool):
            raise ValueError(
                f"network 'gridconv' option 'channels_last' must be true or false, got {self.channels_last!r}"
            )

    def spec(self, trunk: Trunk) -> dict[str, Any]:
        return {"channels": trunk.channels, "blocks": trunk.blocks, "channels_last": self.channels_last}


MLP = NetworkKind(
    name="mlp",
    summary="flattened observation -> hidden layers (hidden_sizes) -> policy and value heads; any game",
    options=MLPOptions,
    build="hive_envs.agents.networks:build_mlp",
)
HEXCONV = NetworkKind(
    name="hexconv",
    summary=(
        "planes (C, H, W) on a hex torus, actions slot x cell + pass (Hive's planes): hex convolutions "
        "(conv_channels, conv_blocks residual blocks) and a 1x1 policy head"
    ),
    options=HexConvOptions,
    build="hive_envs.agents.networks:build_hexconv",
)
GRIDCONV = NetworkKind(
    name="gridconv",
    summary=(
        "a square grid board, observation (H, W, C) or (C, H, W), any action space: 3x3 convolutions "
        "(conv_channels, conv_blocks residual blocks), policy and value heads over the whole board"
    ),
    options=GridConvOptions,
    build="hive_envs.agents.networks:build_gridconv",
)
GENERIC_KINDS = (MLP, HEXCONV, GRIDCONV)
"""The kinds every game may use."""


def network_kinds() -> dict[str, NetworkKind]:
    """Every kind by name: the generic ones, then each registered game's own."""
    kinds = {kind.name: kind for kind in GENERIC_KINDS}
    for definition in GAMES.values():
        for kind in definition.agents.networks:
            kinds.setdefault(kind.name, kind)
    return kinds


def network_kind(name: Any) -> NetworkKind:
    """The kind called ``name``; ValueError naming the known kinds otherwise."""
    kinds = network_kinds()
    if not isinstance(name, str) or name not in kinds:
        raise ValueError(f"unknown network kind {name!r}; allowed: {', '.join(kinds)}")
    return kinds[name]


def game_of_kind(name: str) -> GameDefinition | None:
    """The game whose definition declares the kind ``name``, None for a generic kind."""
    for definition in GAMES.values():
        if any(kind.name == name for kind in definition.agents.networks):
            return definition
    return None


def build_network(spec: dict[str, Any], observation_shape: tuple[int, ...], num_actions: int) -> Any:
    """The network a spec describes (its kind's ``build``), tagged with its kind (`kind_of`). A spec is
    a plain dict, such as a checkpoint's: ``{"kind": "mlp", "hidden_sizes": [...]}``,
    ``{"kind": "hexconv", "channels": C, "blocks": B}``, or a game's kind's entries."""
    kind = network_kind(spec.get("kind"))
    network = kind.build(spec, tuple(observation_shape), num_actions)
    network.network_kind = kind.name
    return network


def kind_of(network: Any) -> NetworkKind | None:
    """The kind a network was built as by `build_network` (None for one built otherwise)."""
    name = getattr(network, "network_kind", None)
    return None if name is None else network_kind(name)
