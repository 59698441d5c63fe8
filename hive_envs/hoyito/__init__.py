"""Hoyito II, a Dominican two-row mancala: rules engine, environments and batched stepping.

`HoyitoGame` is the rules engine (`docs/rules/hoyito_ii.md`), `HoyitoBatch` steps thousands
of games in one compiled call (the batched contract), `HoyitoAlphaBeta` searches a position; all
run the kernels of `hive_envs.hoyito.engine.kernels`. The PettingZoo env is `hive_envs.hoyito_v0`, the Gymnasium env
`gym.make("hive_envs/Hoyito-v0")` (vector: `gym.make_vec`). This package imports no
gymnasium / pettingzoo / torch; the env modules (`env`, `gym_env`) do.
"""

from hive_envs.hoyito.batch import HoyitoBatch
from hive_envs.hoyito.engine.alphabeta import HoyitoAlphaBeta
from hive_envs.hoyito.engine.game import HoyitoGame
from hive_envs.hoyito.engine.options import HoyitoOptions

__all__ = ["HoyitoAlphaBeta", "HoyitoBatch", "HoyitoGame", "HoyitoOptions"]
