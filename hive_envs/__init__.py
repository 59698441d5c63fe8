"""hive_envs: reinforcement-learning environments for Hive and the mancala Hoyito II.

Importing the package registers every environment id with Gymnasium
(`gym.make("hive_envs/Hoyito-v0")`) and PettingZoo (`pettingzoo.make("aec", "hive_envs/hoyito-v0")`).
The PettingZoo modules are `hive_envs.hoyito_v0` and `hive_envs.hive_v0`. A game of one's own is
added with `register_game(definition)` (a `hive_envs.core.definition.GameDefinition`); the
`hive_envs.testing` checks tell whether its parts agree.

The layers below the envs (the engines, encoders, batches, players; docs/architecture.md) need
neither Gymnasium nor PettingZoo: where those are not installed, the package still imports, only
without the registered ids.
"""

from hive_envs.version import __version__ as __version__

try:
    from hive_envs.registration import register_all
    from hive_envs.registration import register_game as register_game
except ModuleNotFoundError as error:  # the engines and encoders work without the env libraries
    if error.name not in ("gymnasium", "pettingzoo"):
        raise
else:
    register_all()
