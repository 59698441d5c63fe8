"""The games of the package by name: each game's `GameDefinition` (`hive_envs.core.definition`).

    definition = game_entry("hoyito")
    options = definition.parse_options({"holes_per_row": 12})   # the validated options value object
    game = definition.new_game(options)                      # a protocol game (`hive_envs.core.game`)
    encoder = definition.encoder(options)                    # its encoder (`hive_envs.core.game_env`)
    new_game("hive", {"expansions": "MLP"})                  # the same from a name and an options dict

Configs and checkpoints name a game and give its options as a dict; every tool that needs a game,
an encoder, a batch, a searcher, a drawing or a ladder looks up the game's definition here and loops
over `GAMES`, never asking for a game by name. Each definition is declared in its game's folder
(`hive_envs/hive/definition.py`, `hive_envs/hoyito/definition.py`); ``aec`` stands for any PettingZoo
AEC env, named by its options (`hive_envs/core/aec_definition.py`); a further game is added with
`add_game` (`hive_envs.register_game` also registers its env ids). A name is only ever looked up in
this table, so a config or checkpoint naming anything else is refused: it never names code to run.

Option names are checked here too (`check_option_names`): an unknown key in an options dict, or in
the keyword options of ``env()``, ``gym.make`` and ``gym.make_vec``, raises ValueError naming it and
the game's options, instead of a TypeError from deep inside a constructor.
"""

from __future__ import annotations

from typing import Any

from hive_envs.core.aec_definition import AEC
from hive_envs.core.aec_source import AecOptions, own_env_names, register_env_id
from hive_envs.core.definition import GameDefinition
from hive_envs.core.game import Game
from hive_envs.hive.definition import HIVE
from hive_envs.hoyito.definition import HOYITO

GAMES: dict[str, GameDefinition] = {}
"""Every game by name: the package's own, then those added with `add_game`."""


def add_game(definition: GameDefinition) -> None:
    """Add a game to `GAMES`; adding the same definition again does nothing, another definition
    under a name already taken raises ValueError."""
    if not isinstance(definition, GameDefinition):
        raise ValueError(f"a game is added as a GameDefinition, got {type(definition).__name__}")
    known = GAMES.get(definition.name)
    if known is not None and known is not definition:
        raise ValueError(f"a game named {definition.name!r} is already registered")
    GAMES[definition.name] = definition
    entry_point = definition.ref("aec_env")
    if definition.aec_id is not None and isinstance(entry_point, str):  # its id names an env by text
        register_env_id(definition.aec_id, entry_point)


for _definition in (HIVE, HOYITO, AEC):
    add_game(_definition)


def game_entry(name: str) -> GameDefinition:
    """The definition of a game name; ValueError naming the known games otherwise."""
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(sorted(GAMES))}")
    return GAMES[name]


def own_game(options: AecOptions) -> tuple[GameDefinition, Any] | None:
    """(definition, its parsed options) of the game of this package whose own env ``options`` names (its
    ``aec_id`` after ``pettingzoo:``, or the module of its ``aec_env``); None for any other env.

    The env's keywords that are not the game's options (``render_mode``, reward shaping) change no
    observation and are left out; a bad value of a game option raises the game's own ValueError."""
    for definition in GAMES.values():
        if options.env in own_env_names(definition):
            game_options = {k: v for k, v in options.env_options.items() if definition.has_option(k)}
            return definition, definition.parse_options(game_options)
    return None


def check_option_names(name: str, options, extra: tuple[str, ...] = ()) -> None:
    """`GameDefinition.check_option_names` of the game called ``name``."""
    game_entry(name).check_option_names(options, extra)


def new_game(name: str, options: dict | None = None) -> Game:
    """A new game of ``name`` with keyword ``options`` (validated by the game's options object)."""
    return game_entry(name).game(options)
