"""Registration of every environment id with Gymnasium and PettingZoo.

Entry points are strings, so registering imports no game code: `import hive_envs` stays
cheap and `gym.make("hive_envs:hive_envs/Hoyito-v0")` works without a prior import.
Environment modules add their ids to the tables below.
"""

from __future__ import annotations

import gymnasium
import pettingzoo

#: Gymnasium ids -> (entry point, vector entry point or None, default kwargs).
GYM_ENVS: dict[str, tuple[str, str | None, dict]] = {
    "hive_envs/Hoyito-v0": (
        "hive_envs.hoyito.gym_env:HoyitoEnv",
        "hive_envs.hoyito.gym_env:HoyitoVectorEnv",
        {},
    ),
    "hive_envs/Hoyito2x12-v0": (
        "hive_envs.hoyito.gym_env:HoyitoEnv",
        "hive_envs.hoyito.gym_env:HoyitoVectorEnv",
        {"holes_per_row": 12},
    ),
    "hive_envs/Hive-v0": ("hive_envs.hive.gym_env:HiveEnv", "hive_envs.hive.vector_env:HiveVectorEnv", {}),
    **{
        f"hive_envs/Hive{letters}-v0": (
            "hive_envs.hive.gym_env:HiveEnv",
            "hive_envs.hive.vector_env:HiveVectorEnv",
            {"expansions": letters},
        )
        for letters in ("M", "L", "P", "ML", "MP", "LP", "MLP")
    },
}

#: PettingZoo AEC ids -> entry point.
AEC_ENVS: dict[str, str] = {
    "hive_envs/hoyito-v0": "hive_envs.hoyito_v0:env",
    "hive_envs/hive-v0": "hive_envs.hive_v0:env",
}


def register_all() -> None:
    """Register every id once; calling it again is a no-op."""
    for env_id, (entry_point, vector_entry_point, kwargs) in GYM_ENVS.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point=entry_point,
            vector_entry_point=vector_entry_point,
            kwargs=dict(kwargs),
            disable_env_checker=False,
        )
    for env_id, entry_point in AEC_ENVS.items():
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point)
