"""Hoyito II, a Dominican two-row mancala: rules engine, environments and batched stepping.

`HoyitoGame` is the rules engine (`shared/rules/hoyito_ii.md`); the PettingZoo env is
`hive_envs.hoyito_v0`, the Gymnasium env `gym.make("hive_envs/Hoyito-v0")`.
"""

from hive_envs.hoyito.batch import HoyitoBatch
from hive_envs.hoyito.game import HoyitoGame
from hive_envs.hoyito.options import HoyitoOptions

__all__ = ["HoyitoBatch", "HoyitoGame", "HoyitoOptions"]
