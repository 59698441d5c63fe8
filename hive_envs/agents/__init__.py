"""Trained agents: policy-value networks, checkpoint files, PUCT search, checkpoint views of games.

This subpackage imports torch; `import hive_envs` never imports it (install the `train`
extra to use it). A checkpoint plays as a player through `hive_envs.players` (spec ``PATH`` or
``PATH@N``), e.g. `gym.make("hive_envs/Hoyito-v0", opponent="runs/x/checkpoints/latest.pt")`; the
agents shipped with the package load with `load_pretrained("hive_base")` or play as the spec
``pretrained:hive_base`` (`hive_envs.pretrained`).
"""

from hive_envs.agents.checkpoint import load_checkpoint, network_from_checkpoint, save_checkpoint
from hive_envs.agents.distributions import MaskedCategorical, mask_logits
from hive_envs.agents.networks import build_network
from hive_envs.agents.policy import load_policy, load_pretrained, policy_actions

__all__ = [
    "MaskedCategorical",
    "build_network",
    "load_checkpoint",
    "load_policy",
    "load_pretrained",
    "mask_logits",
    "network_from_checkpoint",
    "policy_actions",
    "save_checkpoint",
]
