"""Which batch class plays which game, and the facts a checkpoint records about it.

A game is named in configs and checkpoints as 'hoyito', 'hive' (the games of `hive_envs.games`),
or 'module:Class' for any class implementing the batched contract of `hive_envs.core.batch`
(`Batch(num_games, **options)`, `reset`, `step`, in-place buffers). Tests use the last form for a
toy game.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from typing import Any

from hive_envs.games import GAMES, check_names, game_entry

LOOKAHEAD_GAMES = {"hoyito_lookahead": "hoyito", "hive_lookahead": "hive"}
"""The networks that simulate moves with a game's own kernels, and that game."""


def batch_class(game: str) -> type:
    target = GAMES[game].batch if game in GAMES else game
    if ":" not in target:
        raise ValueError(f"unknown game {game!r}; use one of {sorted(GAMES)} or 'module:Class'")
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
        return getattr(module, class_name)
    except (ImportError, AttributeError) as error:
        raise ValueError(f"game {game!r}: cannot import {target} ({error})") from None


def make_batch(game: str, num_games: int, options: dict[str, Any]):
    """A batch of `num_games` games; an unknown option name raises ValueError naming it and the batch's
    options (not a TypeError from the constructor), bad values the game's own ValueError."""
    cls = batch_class(game)
    parameters = list(inspect.signature(cls).parameters.values())[1:]  # the parameters after num_games
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):  # else the class checks them
        check_names(f"game {game!r}", options, [p.name for p in parameters])
    return cls(num_games, **options)


def encoding_version(batch) -> str:
    """The observation/action encoding version of the game's envs ('v0' unless the class says)."""
    return str(getattr(batch, "encoding_version", "v0"))


def lookahead_rules(network: str, game: str, options: Any) -> dict[str, Any]:
    """The rule options a lookahead network's spec carries (`rules`), from the game's parsed options
    object or a dict of its options; ValueError if the network is not for this game."""
    if LOOKAHEAD_GAMES[network] != game:
        raise ValueError(f"network {network!r} needs the {LOOKAHEAD_GAMES[network]} game")
    if isinstance(options, dict):
        options = game_entry(game).parse_options({k: v for k, v in options.items() if k != "parallel"})
    if network == "hoyito_lookahead":
        return {f.name: int(getattr(options, f.name)) for f in dataclasses.fields(options)}
    return {
        "expansions": options.expansions,
        "tournament_opening": options.tournament_opening,
        "max_turns": options.max_turns,
    }
