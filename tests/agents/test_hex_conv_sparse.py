"""The Hive trunk's sparse paths against the dense ones they replace: `HexConv.convolve_planes` (the
stem over observation planes) against `HexConv.forward`, and `HexConvPolicy.action_logits` against
`forward`'s logits at those actions, in values and in gradients, on real observations of every
expansion set and on planes that are not sparse."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from hive_envs.agents.networks import HexConv, HexConvPolicy
from hive_envs.hive import HiveBatch


def observations(expansions: str, games: int = 12, plies: int = 30) -> tuple[torch.Tensor, HiveBatch]:
    batch = HiveBatch(games, expansions=expansions, max_turns=300)
    batch.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(plies):
        batch.step(np.array([rng.choice(np.flatnonzero(mask)) for mask in batch.action_mask]))
    return torch.as_tensor(batch.observation.copy()), batch


def noisy(module: torch.nn.Module) -> torch.nn.Module:
    torch.manual_seed(0)
    for parameter in module.parameters():
        torch.nn.init.normal_(parameter, std=0.3)
    return module


def gradients(module: torch.nn.Module, loss: torch.Tensor) -> list[torch.Tensor]:
    module.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in module.parameters()]


@pytest.mark.parametrize("expansions", ["", "M", "L", "P", "MLP"])
def test_the_stem_over_observations_is_the_dense_convolution(expansions):
    obs, _ = observations(expansions)
    conv = noisy(HexConv(obs.shape[1], 8))
    weights = torch.randn(8, *obs.shape[2:])  # a loss that weighs every output
    dense = conv(obs.float())
    sparse = conv.convolve_planes(obs)
    assert sparse.shape == dense.shape and sparse.is_contiguous(memory_format=torch.channels_last)
    torch.testing.assert_close(sparse, dense, rtol=1e-4, atol=1e-3)
    for a, b in zip(gradients(conv, (sparse * weights).sum()), gradients(conv, (dense * weights).sum())):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-2)


def test_planes_that_are_not_sparse_give_the_same_values():
    conv = noisy(HexConv(5, 3))
    planes = torch.rand(4, 5, 6, 6)  # every entry non-zero: the dense way
    planes[:, 1] = 0.0
    torch.testing.assert_close(conv.convolve_planes(planes), conv(planes))
    sparse = torch.zeros(4, 5, 6, 6)  # two entries and a constant plane: the sparse way
    sparse[0, 0, 0, 5] = 2.0
    sparse[3, 4, 5, 0] = 1.0
    sparse[:, 2] = 3.0
    torch.testing.assert_close(conv.convolve_planes(sparse), conv(sparse))
    assert conv.convolve_planes(torch.zeros(0, 5, 6, 6)).shape == (0, 3, 6, 6)


@pytest.mark.parametrize("blocks", [0, 1])
def test_action_logits_are_forwards_logits_at_those_actions(blocks):
    obs, batch = observations("")
    network = noisy(
        HexConvPolicy(tuple(batch.observation_shape), batch.num_actions, channels=4, blocks=blocks)
    )
    actions = torch.as_tensor(np.random.default_rng(0).integers(0, batch.num_actions, size=(len(obs), 20)))
    actions[:, -1] = batch.num_actions - 1  # the pass action
    logits, value = network(obs)
    picked, picked_value = network.action_logits(obs, actions)
    torch.testing.assert_close(picked, logits.gather(1, actions), rtol=1e-4, atol=1e-3)
    torch.testing.assert_close(picked_value, value)
    weights = torch.randn(actions.shape)
    sparse = gradients(network, (picked * weights).sum() + picked_value.sum())
    dense = gradients(network, (logits.gather(1, actions) * weights).sum() + value.sum())
    for a, b in zip(sparse, dense):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-2)
