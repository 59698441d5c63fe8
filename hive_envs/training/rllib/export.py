"""Export RLlib's `main` module into our own checkpoint format (`hive_envs.agents.checkpoint`).

`MaskedPolicyModule.net` is an instance of the same network class native training builds, so
the export is a copy of its state dict plus the facts a checkpoint records. `training/evaluate.py`,
`load_policy` and the Gymnasium envs' checkpoint opponents then read it like a native one.
"""

from __future__ import annotations

from pathlib import Path

from hive_envs.agents.checkpoint import save_checkpoint
from hive_envs.training.rllib.config import RLlibConfig
from hive_envs.training.rllib.envs import ENCODING_VERSION


def export_module(module, config: RLlibConfig, path: str | Path, global_step: int, update: int) -> Path:
    """Write `module` (a MaskedPolicyModule) as a hive_envs checkpoint at `path`."""
    inner = module.observation_space["observation"]
    payload = {
        "game": config.game,
        "game_options": dict(config.game_options),
        "encoding_version": ENCODING_VERSION,
        "observation_shape": tuple(int(n) for n in inner.shape),
        "num_actions": int(module.action_space.n),
        "network": config.network_spec(),
        "model": {key: value.detach().cpu().clone() for key, value in module.net.state_dict().items()},
        "config": {**config.to_dict(), "trainer": "rllib"},
        "global_step": int(global_step),
        "update": int(update),
    }
    return save_checkpoint(path, payload)
