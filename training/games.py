"""Which batch class plays which game, and the facts a checkpoint records about it.

A game is named in configs and checkpoints as 'hoyito', 'hive' (the games of `hive_envs.games`),
or 'module:Class' for any class implementing the batched contract of `hive_envs.core.batch`
(`Batch(num_games, **options)`, `reset`, `step`, in-place buffers). Tests use the last form for a
toy game.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from hive_envs.games import GAMES, check_names


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
