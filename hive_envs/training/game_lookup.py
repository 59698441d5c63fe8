"""A game named in a config or checkpoint, looked up: its batch, and the facts a checkpoint records about it.

A game is named by its name in `hive_envs.games` ('hoyito', 'hive', or one added with
`hive_envs.register_game`); anything else is refused with a ValueError listing the games. A name is
only looked up in that table, never imported, so a config or checkpoint cannot name code to run.
"""

from __future__ import annotations

from typing import Any

from hive_envs.agents.network_kinds import game_of_kind, network_kind
from hive_envs.core.aec_definition import AEC
from hive_envs.core.aec_source import AecOptions, own_env_names
from hive_envs.core.network_kind import NetworkKind
from hive_envs.games import game_entry, own_game


def make_batch(game: str, num_games: int, options: dict[str, Any]):
    """A batch of `num_games` games of the game called `game` (`GameDefinition.make_batch`)."""
    return game_entry(game).make_batch(num_games, options)


def encoding_version(batch) -> str:
    """The observation/action encoding version of the game's envs ('v0' unless the class says)."""
    return str(getattr(batch, "encoding_version", "v0"))


def network_rules(kind: NetworkKind, game: str | None, options: Any) -> dict[str, Any]:
    """The rule options the spec of a network of ``kind`` that simulates moves (its ``rules``) carries,
    from the game's parsed options object or a dict of its options; ValueError if the kind is not for
    this game.

    Over the ``aec`` game (``options``: `AecOptions` or its dict) the network is for the game whose own
    PettingZoo env the options name (`games.own_game`): a rule network computes its features
    from the observation alone (`LegalActionNetwork.rule_features`), and a game's own env gives the
    observations of its batch (the lock-step tests of hive_envs.core.aec_batch), so the network plays
    the same there; the rules are then the env's game options."""
    definition = game_of_kind(kind.name)
    if kind.rules is None or definition is None:
        raise ValueError(f"network {kind.name!r} simulates no game's moves")
    if game == AEC.name:
        aec = options if isinstance(options, AecOptions) else AecOptions(**options)
        own = own_game(aec)
        if own is None or own[0] is not definition:
            raise ValueError(
                f"network {kind.name!r} needs the {definition.name} game or its own PettingZoo env "
                f"({' or '.join(sorted(own_env_names(definition)))}), not the env {aec.label}"
            )
        return kind.rules(own[1])
    if definition.name != game:
        raise ValueError(f"network {kind.name!r} needs the {definition.name} game")
    if isinstance(options, dict):
        options = definition.parse_options({k: v for k, v in options.items() if k != "parallel"})
    return kind.rules(options)


def network_spec(config, batch) -> dict[str, Any]:
    """A training config's network spec, plus the game's rule options (from ``batch``: its validated
    options, and its ``game_name``, the config's game for a batch that does not say) for a network that
    simulates moves, as checkpoints record it."""
    spec = config.network_spec()
    kind = network_kind(spec["kind"])
    if kind.rules is not None:
        spec["rules"] = network_rules(kind, getattr(batch, "game_name", config.game), batch.options)
    return spec
