"""Our PettingZoo AEC envs as RLlib multi-agent envs, through RLlib's own `PettingZooEnv` wrapper.

No adapter of ours is needed: the wrapper returns the observation of the agent to move only,
which fits turn-based games, including Hoyito's extra turn after a capture (the same agent is
selected again and simply gets the next observation) and automatic passes; at the end it steps
the dead agents, so both seats receive their final reward (+1 / -1 / 0).
"""

from __future__ import annotations

from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env

from hive_envs.games import GAMES, game_entry

ENCODING_VERSION = "v0"  # the envs used are hoyito_v0 / hive_v0


def env_name(game: str) -> str:
    """The RLlib env id of a game: ``hive_envs_<game>_v0``."""
    return f"hive_envs_{game}_{ENCODING_VERSION}"


def make_aec(game: str, options: dict):
    """The wrapped AEC env (`env()`: illegal moves lose, call order enforced) of `game`."""
    return game_entry(game).make_aec(options)


def _creator(game: str):
    def create(env_config) -> PettingZooEnv:
        return PettingZooEnv(make_aec(game, dict(env_config)))

    return create


def register_envs() -> None:
    """Register every game with a PettingZoo env under its `env_name` (env_config = the env's options:
    the game's, and the opt-in reward shaping's when on)."""
    for game, definition in GAMES.items():
        if definition.aec_env is not None:
            register_env(env_name(game), _creator(game))
