"""The games of the package by name: their options, protocol game, encoder and batch class.

    entry = game_entry("hoyito")
    options = entry.parse_options({"holes_per_row": 12})   # the validated options value object
    game = entry.new_game(options)                      # a protocol game (`hive_envs.core.game`)
    encoder = entry.encoder(options)                    # its encoder (`hive_envs.core.game_env`)
    new_game("hive", {"expansions": "MLP"})            # the same from a name and an options dict

Configs and checkpoints name a game ("hive", "hoyito", or "aec": any PettingZoo AEC env through
`hive_envs.core.aec_batch`, its options the env's name and keyword options) and give its options as a dict; the tools
that need a game, an encoder or a batch from those (the arena, the checkpoint players, the terminal
front end, training) look them up here. A third game adds one entry.

Option names are checked here too (`check_option_names`): an unknown key in an options dict, or in
the keyword options of ``env()``, ``gym.make`` and ``gym.make_vec``, raises ValueError naming it and
the game's options, instead of a TypeError from deep inside a constructor.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hive_envs.core.aec_game import AecEncoder, AecGame
from hive_envs.core.aec_source import AecOptions
from hive_envs.core.game import Game
from hive_envs.hive.encoding import make_encoding
from hive_envs.hive.engine.game import HiveGame
from hive_envs.hive.engine.options import HiveOptions
from hive_envs.hoyito.encoding import HoyitoEncoding
from hive_envs.hoyito.engine.game import HoyitoGame
from hive_envs.hoyito.engine.options import HoyitoOptions


def check_names(owner: str, options, known: Sequence[str]) -> None:
    """ValueError unless ``options`` is a dict whose keys are all in ``known``, naming ``owner``, the
    unknown keys and the known ones."""
    if not isinstance(options, dict):
        raise ValueError(f"{owner} options must be a dict, got {options!r}")
    unknown = sorted(repr(key) for key in options if key not in known)
    if unknown:
        raise ValueError(f"{owner} has no option {', '.join(unknown)}; its options are {', '.join(known)}")


@dataclass(frozen=True)
class GameEntry:
    name: str
    options: type  # the options dataclass (HiveOptions, HoyitoOptions): validates on construction
    new_game: Callable[[Any], Game]  # options object -> a game at the start position
    encoder: Callable[[Any], Any]  # options object -> the game's encoder
    batch: str  # "module:Class" of the game's batched stepper (imported on use)

    @property
    def option_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(self.options))

    def check_option_names(self, options, extra: tuple[str, ...] = ()) -> None:
        """ValueError naming the keys of ``options`` that are neither options of the game nor ``extra``
        (the caller's own keywords, such as ``render_mode``)."""
        check_names(self.name, options, self.option_names + tuple(extra))

    def parse_options(self, options: dict | None = None) -> Any:
        """The options object of a dict of keyword options; ValueError naming unknown keys."""
        options = dict(options or {})
        self.check_option_names(options)
        return self.options(**options)

    def game(self, options: dict | None = None) -> Game:
        return self.new_game(self.parse_options(options))


GAMES = {
    "hive": GameEntry(
        "hive",
        HiveOptions,
        HiveGame.from_options,
        lambda o: make_encoding(o.expansions),
        "hive_envs.hive:HiveBatch",
    ),
    "hoyito": GameEntry(
        "hoyito", HoyitoOptions, HoyitoGame.from_options, HoyitoEncoding, "hive_envs.hoyito:HoyitoBatch"
    ),
    # any PettingZoo AEC env, options {"env": NAME, "env_options": {...}} (hive_envs.core.aec_source)
    "aec": GameEntry(
        "aec", AecOptions, AecGame.from_options, AecEncoder, "hive_envs.core.aec_batch:AecBatch"
    ),
}


def game_entry(name: str) -> GameEntry:
    """The entry of a game name; ValueError naming the known games otherwise."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(sorted(GAMES))}")
    return GAMES[name]


def check_option_names(name: str, options, extra: tuple[str, ...] = ()) -> None:
    """`GameEntry.check_option_names` of the game called ``name``."""
    game_entry(name).check_option_names(options, extra)


def new_game(name: str, options: dict | None = None) -> Game:
    """A new game of ``name`` with keyword ``options`` (validated by the game's options object)."""
    return game_entry(name).game(options)
