"""A checkpoint as a plain player: `load_policy(path)(observation, action_mask) -> action`.

This is the form the Gymnasium envs take as `opponent=` (a callable), and what tools such as
the UHP engine use to let a trained agent pick moves. Play is sampled from the masked policy
by default; `greedy=True` picks the most probable legal action.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np
import torch

from hive_envs.agents.checkpoint import load_checkpoint, network_from_checkpoint
from hive_envs.agents.distributions import MaskedCategorical

Policy = Callable[[np.ndarray, np.ndarray], int]


def load_policy(
    path: str | os.PathLike,
    *,
    greedy: bool = False,
    seed: int | None = None,
    game: str | None = None,
    encoding_version: str | None = None,
    observation_shape: tuple[int, ...] | None = None,
    num_actions: int | None = None,
) -> Policy:
    """Load a checkpoint and return a callable that picks one legal action.

    The keyword expectations (game, encoding version, spaces) are checked against the
    checkpoint when given; the callable checks each observation's shape and mask length.
    """
    data = load_checkpoint(
        path,
        game=game,
        encoding_version=encoding_version,
        observation_shape=observation_shape,
        num_actions=num_actions,
    )
    network = network_from_checkpoint(data)
    expected_shape = tuple(data["observation_shape"])
    expected_actions = int(data["num_actions"])
    generator = torch.Generator()
    if seed is None:
        generator.seed()
    else:
        generator.manual_seed(seed)

    def policy(observation: np.ndarray, action_mask: np.ndarray) -> int:
        observation = np.asarray(observation)
        action_mask = np.asarray(action_mask)
        if observation.shape != expected_shape:
            raise ValueError(
                f"observation has shape {observation.shape}; the checkpoint expects {expected_shape}"
            )
        if action_mask.shape != (expected_actions,):
            raise ValueError(
                f"action_mask has shape {action_mask.shape}; the checkpoint expects ({expected_actions},)"
            )
        if not action_mask.any():
            raise ValueError("action_mask has no legal action")
        with torch.no_grad():
            logits, _ = network(torch.as_tensor(observation).unsqueeze(0))
            dist = MaskedCategorical(logits, torch.as_tensor(action_mask).unsqueeze(0))
            action = dist.mode() if greedy else dist.sample(generator)
        return int(action.item())

    policy.checkpoint = data  # type: ignore[attr-defined]  # for callers that want game/step info
    return policy


def checkpoint_opponent_loader(spec: str) -> Policy | None:
    """The envs' opponent loader (`hive_envs.core.opponents`): a '.pt' path becomes a sampled
    policy; any other string is not ours (None). Registered on `import hive_envs.agents`."""
    if not str(spec).endswith(".pt"):
        return None
    return load_policy(spec)
