"""hive_envs: reinforcement-learning environments for Hive and the mancala Hoyito II.

Importing the package registers every environment id with Gymnasium
(`gym.make("hive_envs/Hoyito-v0")`) and PettingZoo (`pettingzoo.make("aec", "hive_envs/hoyito-v0")`).
The PettingZoo modules are `hive_envs.hoyito_v0` and `hive_envs.hive_v0`.
"""

from hive_envs.registration import register_all

__version__ = "0.1.0"

register_all()
