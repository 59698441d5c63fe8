"""A network's masked policy as actions: `policy_actions` for a batch of rows, `load_policy(path)`,
a checkpoint as a plain callable ``(observation, action_mask) -> action``, and `load_pretrained(name)`,
the same for an agent shipped with the package (`hive_envs.pretrained`).

The callable is the form the Gymnasium envs take as `opponent=` and a user's own loop can call. Play
is sampled from the masked policy by default; `greedy=True` picks the most probable legal action.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np
import torch

from hive_envs.agents.checkpoint import load_checkpoint, network_from_checkpoint
from hive_envs.agents.distributions import MaskedCategorical, check_finite_outputs
from hive_envs.agents.views import view_for_checkpoint
from hive_envs.games import GAMES

Policy = Callable[[np.ndarray, np.ndarray], int]


@torch.no_grad()
def policy_actions(
    network: torch.nn.Module,
    observations: torch.Tensor,
    masks: torch.Tensor,
    sample: bool,
    generator: torch.Generator,
    source: str = "the network",
) -> torch.Tensor:
    """One action per row: the most probable legal action, or a sample of the masked policy.

    ValueError naming ``source`` when the network's logits for legal actions are NaN or infinite."""
    logits, _ = network(observations)
    check_finite_outputs(source, logits, masks)
    dist = MaskedCategorical(logits, masks)
    return dist.sample(generator) if sample else dist.mode()


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
    checkpoint when given; the callable checks each observation's shape and mask length, and
    raises ValueError naming the checkpoint if the network's logits are NaN or infinite. Its
    ``check_game(game)`` raises ValueError unless the checkpoint was trained on ``game``'s game
    and options (the Gym envs call it when the callable is an ``opponent``).
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
    source = f"checkpoint {str(path)!r}"  # named in errors
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
        obs, mask = torch.as_tensor(observation).unsqueeze(0), torch.as_tensor(action_mask).unsqueeze(0)
        return int(policy_actions(network, obs, mask, not greedy, generator, source).item())

    def check_game(played) -> None:
        if played.game_name != data["game"]:
            raise ValueError(f"{source} is a {data['game']} agent; this game is {played.game_name}")
        if data["game"] in GAMES:
            view_for_checkpoint(data).check_game(played)

    policy.check_game = check_game  # type: ignore[attr-defined]
    policy.network = network  # type: ignore[attr-defined]  # the torch module it runs
    policy.checkpoint = data  # type: ignore[attr-defined]  # for callers that want game/step info
    return policy


def load_pretrained(name: str, *, greedy: bool = True, seed: int | None = None) -> Policy:
    """A pretrained policy agent of the package (`hive_envs.pretrained.pretrained_names(POLICY)`) as a
    policy callable ``(observation, action_mask) -> action`` (argmax play by default). ValueError naming
    the agent for an unknown name (the known ones are listed), a learned evaluation (it has no policy:
    the message says how to play it), a missing or a corrupt file."""
    from hive_envs.pretrained import EVALUATION, evaluation_usage, pretrained_kind, pretrained_path

    if pretrained_kind(name) == EVALUATION:
        raise ValueError(
            f"pretrained agent {name!r} is a learned evaluation for the alpha-beta search, not a policy: "
            f"load_pretrained has nothing to load; {evaluation_usage(name)}"
        )
    path = pretrained_path(name)
    try:
        return load_policy(path, greedy=greedy, seed=seed)
    except ValueError as error:
        raise ValueError(f"pretrained agent {name!r}: {error}") from None
