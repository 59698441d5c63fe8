"""RLlib self-play for hive_envs (the `rllib` extra). Entry point: `training/rllib_selfplay.py`.

Modules: `config` (options), `envs` (PettingZoo envs registered with RLlib), `module`
(masked RLModules over our networks), `league` (pairings, win rate, frozen snapshots),
`export` (RLlib module -> our checkpoint format), `cluster` (Ray start-up, fail-fast address
check). Importing this package does not import Ray; `require_ray()` checks it is installed.
"""

from __future__ import annotations

import importlib.util

RAY_HINT = "Ray RLlib is not installed; install the extra: pip install 'hive_envs[rllib]' (or -e '.[rllib]')"


def require_ray() -> None:
    """ImportError with a one-line install hint unless `ray.rllib` can be imported."""
    try:
        missing = importlib.util.find_spec("ray") is None or importlib.util.find_spec("ray.rllib") is None
    except ModuleNotFoundError:
        missing = True
    if missing:
        raise ImportError(RAY_HINT)
