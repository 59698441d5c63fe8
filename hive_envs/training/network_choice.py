"""The network a training config asks for, checked: its kind, trunk and the kind's own options.

A config names a network kind (``network:``, `hive_envs.agents.network_kinds`: a generic one or one
a game's definition declares), gives the trunk's widths as top-level keys (``hidden_sizes``,
``conv_channels``, ``conv_blocks``: `hive_envs.core.network_kind.Trunk`) and the kind's own options as
a mapping (``network_options:``), which the kind's options class checks (ValueError naming
``network_options``). `TrainConfig` (hive_envs/training/config.py) and `RLlibConfig`
(hive_envs/training/rllib/config.py) share these checks.

Earlier versions had the kinds' options as top-level keys named after their game (a kind's
``legacy_keys``: ``hive_features``, ``hoyito_search_depth``, ...). `read_legacy_keys` reads them once
more: each moves into ``network_options`` with a DeprecationWarning that names its new place (for
a config of another network it is dropped, as it had no effect there). The warning is shown by
default (a filter for this module's own warnings): a config is read for a person's command, whose
file is what has to change.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any

from hive_envs.agents.network_kinds import game_of_kind, network_kind, network_kinds
from hive_envs.core.network_kind import NetworkOptions, Trunk
from hive_envs.core.short_repr import short_repr
from hive_envs.training.config_keys import ConfigKeys, Rule, reject

warnings.filterwarnings("default", category=DeprecationWarning, module=__name__)

NETWORK = Rule(
    "a network kind: " + ", ".join(network_kinds()) + " (or one a game added with register_game declares)",
    lambda value: value in network_kinds(),
)
"""The ``network`` key's values: the kinds known when the value is checked (the text: those known now)."""


def network_options(config: Any) -> NetworkOptions:
    """The config's ``network_options`` parsed by its kind's options class; ValueError naming the key."""
    try:
        return network_kind(config.network).parse_options(config.network_options)
    except ValueError as error:
        raise ValueError(f"config key 'network_options' has an invalid value: {error}") from None


def trunk(config: Any) -> Trunk:
    return Trunk(tuple(config.hidden_sizes), config.conv_channels, config.conv_blocks)


def config_network_spec(config: Any) -> dict[str, Any]:
    """The network spec of a config, without the game's ``rules`` (`game_lookup.network_spec` adds
    them): the kind's entries for its options on the config's trunk."""
    return network_kind(config.network).spec(network_options(config), trunk(config))


def check_network(config: Any) -> None:
    """The checks every trainer's config runs on its network: the options, and ``init_from_rule`` only
    for a network whose options give it a rule value."""
    options = network_options(config)
    if config.init_from_rule and not options.rule_value:
        reject(
            config,
            "init_from_rule",
            config.init_from_rule,
            f"false unless the network has a rule value (network {config.network!r} with network_options "
            f"{short_repr(config.network_options)} has none; its kind's options say when it has one)",
        )


def check_network_game(config: Any) -> None:
    """A game's own network kind only for that game (RLlib's configs; the native trainer's batch
    checks it when the spec takes the game's rules, `game_lookup.network_rules`)."""
    owner = game_of_kind(config.network)
    if owner is not None and owner.name != config.game:
        reject(
            config,
            "network",
            config.network,
            f"a generic network or one of game {config.game!r} (this one is game {owner.name!r}'s)",
        )


def read_legacy_keys(values: dict[str, Any], default_network: str) -> dict[str, Any]:
    """``values`` with the game-named keys of earlier versions moved into ``network_options`` (module
    doc); a key given both ways is refused (ValueError)."""
    legacy = {
        old: (kind, option) for kind in network_kinds().values() for old, option in kind.legacy_keys.items()
    }
    found = [key for key in values if key in legacy]
    if not found:
        return values
    values = dict(values)
    network = values.get("network", default_network)
    given = values.get("network_options", {})
    options = dict(given) if isinstance(given, dict) else given  # a bad value: the key's own check names it
    for old in found:
        kind, option = legacy[old]
        value = values.pop(old)
        if kind.name != network:
            warnings.warn(
                f"config key {old!r} is deprecated and, with network {network!r}, ignored: it is "
                f"network_options {option!r} of network {kind.name!r}",
                DeprecationWarning,
                stacklevel=1,
            )
            continue
        if isinstance(options, dict) and option in options:
            raise ValueError(
                f"config key {old!r} and network_options {option!r} are one setting given twice; keep "
                f"network_options"
            )
        warnings.warn(
            f"config key {old!r} is deprecated: write it as network_options: {{{option}: {short_repr(value)}}} "
            f"(read this once more)",
            DeprecationWarning,
            stacklevel=1,
        )
        if isinstance(options, dict):
            options[option] = value
    values["network_options"] = options
    return values


def describe_network_kinds() -> str:
    """The ``--help`` lines of the kinds known now: each one's summary and ``network_options``."""
    lines = ["network kinds (network:) and their network_options:"]
    for name, kind in network_kinds().items():
        fields = dataclasses.fields(kind.options)
        options = ", ".join(f"{f.name} (default {f.default!r})" for f in fields) or "none"
        lines.append(f"  {name}: {kind.summary}; network_options: {options}")
    return "\n".join(lines)


def network_config_keys(cls: Any) -> ConfigKeys:
    """The `ConfigKeys` of a config with the network keys: the game-named keys of earlier versions are
    read once more (`read_legacy_keys`, warning), and ``--help`` lists the network kinds and their
    options after the keys."""
    return ConfigKeys(
        cls, legacy=lambda values: read_legacy_keys(values, cls.network), more_help=describe_network_kinds
    )
