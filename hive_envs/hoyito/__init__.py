"""Hoyito II, a Dominican two-row mancala: rules engine, environments and batched stepping.

`HoyitoGame` is the rules engine (`docs/rules/hoyito_ii.md`), `HoyitoBatch` steps thousands
of games in one compiled call (the batched contract), `HoyitoAlphaBeta` searches a position; all
run the kernels of `hive_envs.hoyito.engine.kernels`. The PettingZoo env is `hive_envs.hoyito_v0`, the Gymnasium env
`gym.make("hive_envs/Hoyito-v0")` (vector: `gym.make_vec`). This package imports no
gymnasium / pettingzoo / torch; the env modules (`env`, `gym_env`) do. The names are imported on
first use (PEP 562), so that importing a module of this package (such as `hive_envs.hoyito.definition`,
which `import hive_envs` reads) loads no engine or numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hive_envs.core.lazy import lazy_names

if TYPE_CHECKING:
    from hive_envs.hoyito.batch import HoyitoBatch as HoyitoBatch
    from hive_envs.hoyito.engine.game import HoyitoGame as HoyitoGame
    from hive_envs.hoyito.engine.options import HoyitoOptions as HoyitoOptions
    from hive_envs.hoyito.search.alphabeta import HoyitoAlphaBeta as HoyitoAlphaBeta


__getattr__, __dir__, __all__ = lazy_names(__name__, __file__)
