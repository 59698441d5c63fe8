"""Trained agents: policy-value networks, checkpoint files, PUCT search, checkpoint views of games.

This subpackage's networks, checkpoints and search import torch (its names below are imported on
first read, so its torch-free modules, such as `network_kinds`, load none); `import hive_envs` never imports it (install the `train`
extra to use it). A checkpoint plays as a player through `hive_envs.players` (spec ``PATH`` or
``PATH@N``), e.g. `gym.make("hive_envs/Hoyito-v0", opponent="runs/x/checkpoints/latest.pt")`; the
agents shipped with the package load with `load_pretrained("hive_base")` or play as the spec
``pretrained:hive_base`` (`hive_envs.pretrained`).
"""

from typing import TYPE_CHECKING

from hive_envs.core.lazy import lazy_names

if TYPE_CHECKING:  # the names, imported on first read (a torch-free module of the package loads no torch)
    from hive_envs.agents.checkpoint import load_checkpoint as load_checkpoint
    from hive_envs.agents.checkpoint import network_from_checkpoint as network_from_checkpoint
    from hive_envs.agents.checkpoint import save_checkpoint as save_checkpoint
    from hive_envs.agents.distributions import MaskedCategorical as MaskedCategorical
    from hive_envs.agents.distributions import mask_logits as mask_logits
    from hive_envs.agents.network_kinds import build_network as build_network
    from hive_envs.agents.policy import load_policy as load_policy
    from hive_envs.agents.policy import load_pretrained as load_pretrained
    from hive_envs.agents.policy import policy_actions as policy_actions

__getattr__, __dir__, __all__ = lazy_names(__name__, __file__)
