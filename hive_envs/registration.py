"""Registration of every game's environment ids with Gymnasium and PettingZoo.

The ids and entry points are those of each game's definition (`hive_envs.core.definition`:
``gym_envs``, ``gym_entry_point``, ``vector_entry_point``, ``aec_id``, ``aec_env``). The package's entry
points are ``"module:attribute"`` texts, handed over as written (`GameDefinition.ref`), so registering
imports no env, engine or numba code and
`gym.make("hive_envs:hive_envs/Hoyito-v0")` works without a prior import.

`register_game(definition)` adds a game of the user's (or the tests' Nim): it joins `hive_envs.games`
(so configs, checkpoints, the arena, ladder, players and play CLI know it) and its ids are registered.
"""

from __future__ import annotations

import gymnasium
import pettingzoo

from hive_envs.core.definition import GameDefinition
from hive_envs.games import GAMES, add_game


def _register(definition: GameDefinition) -> None:
    for env_id, kwargs in definition.gym_envs.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point=definition.gym_entry_point,
            vector_entry_point=definition.vector_entry_point,
            kwargs=dict(kwargs),
            disable_env_checker=False,
        )
    if definition.aec_id is not None and definition.aec_id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", definition.aec_id, definition.ref("aec_env"))


def register_game(definition: GameDefinition) -> None:
    """Add ``definition`` to the games and register its env ids (again: no-op; a name already taken
    by another definition: ValueError)."""
    add_game(definition)
    _register(definition)


def register_all() -> None:
    """Register every id once; calling it again is a no-op."""
    for definition in list(GAMES.values()):
        _register(definition)
