"""Our PettingZoo AEC envs as RLlib multi-agent envs, through RLlib's own `PettingZooEnv` wrapper.

No adapter of ours is needed: the wrapper returns the observation of the agent to move only,
which fits turn-based games, including Hoyito's extra turn after a capture (the same agent is
selected again and simply gets the next observation) and automatic passes; at the end it steps
the dead agents, so both seats receive their final reward (+1 / -1 / 0).
"""

from __future__ import annotations

from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env

ENCODING_VERSION = "v0"  # the envs used are hoyito_v0 / hive_v0
ENV_NAMES = {"hoyito": "hive_envs_hoyito_v0", "hive": "hive_envs_hive_v0"}


def make_aec(game: str, options: dict):
    """The wrapped AEC env (`env()`: illegal moves lose, call order enforced) of `game`."""
    if game == "hoyito":
        from hive_envs import hoyito_v0

        return hoyito_v0.env(**options)
    if game == "hive":
        from hive_envs import hive_v0

        return hive_v0.env(**options)
    raise ValueError(f"unknown game {game!r}; RLlib self-play supports {sorted(ENV_NAMES)}")


def _creator(game: str):
    def create(env_config) -> PettingZooEnv:
        return PettingZooEnv(make_aec(game, dict(env_config)))

    return create


def register_envs() -> None:
    """Register every game under its `ENV_NAMES` id (env_config = the env's options: the game's, and
    the opt-in reward shaping's when on)."""
    for game, name in ENV_NAMES.items():
        register_env(name, _creator(game))
