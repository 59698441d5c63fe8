"""The Hive trunk's sparse paths against the dense ones they replace: `HexConv.convolve_planes` (the
stem over observation planes) against `HexConv.forward`, and `HexConvPolicy.action_logits` against
`forward`'s logits at those actions (for a trunk without blocks, from the cells the entries reach
alone: `HexConvPolicy.shallow_features`), in values and in gradients, on real observations of every
expansion set and on planes that are not sparse."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from hive_envs.agents.network_kinds import build_network
from hive_envs.agents.networks import HexConv, HexConvPolicy, plane_entries
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


@pytest.mark.parametrize(
    ("dtype", "side"), [(torch.float32, 6), (torch.uint8, 6), (torch.uint8, 8), (torch.bool, 8)]
)  # byte planes of 8 x 8 are read as 8-byte words, the others entry by entry
def test_planes_that_are_not_sparse_give_the_same_values(dtype, side):
    conv = noisy(HexConv(5, 3))
    planes = (torch.rand(4, 5, side, side) * 3 + 1).to(dtype)  # every entry non-zero: the dense way
    planes[:, 1] = 0
    planes[:, 3] = torch.rand(4, side, side) > 0.5  # not constant, also as booleans
    torch.testing.assert_close(conv.convolve_planes(planes), conv(planes.float()))
    sparse = torch.zeros(4, 5, side, side, dtype=dtype)  # two entries and a constant plane: the sparse way
    sparse[0, 0, 0, side - 1] = 2
    sparse[3, 4, side - 1, 0] = 1
    sparse[1, 4, 2, 3] = 1
    sparse[:, 2] = 3
    sparse[2, 3, 0, 0] = 1  # a corner that differs from the rest of its plane: not a constant plane
    assert plane_entries(planes) is None and plane_entries(sparse) is not None
    torch.testing.assert_close(conv.convolve_planes(sparse), conv(sparse.float()))
    assert conv.convolve_planes(torch.zeros(0, 5, side, side, dtype=dtype)).shape == (0, 3, side, side)


@pytest.mark.parametrize(("blocks", "planes"), [(0, "observations"), (1, "observations"), (0, "dense")])
def test_action_logits_are_forwards_logits_at_those_actions(blocks, planes):
    obs, batch = observations("")
    if planes == "dense":  # every entry non-zero: the trunk is computed whole
        obs = torch.rand(obs.shape) + 0.5
    network = noisy(
        HexConvPolicy(tuple(batch.observation_shape), batch.num_actions, channels=4, blocks=blocks)
    )
    rng = np.random.default_rng(0)
    legal = [rng.choice(np.flatnonzero(mask), size=10) for mask in batch.action_mask]  # cells entries reach
    far = rng.integers(0, batch.num_actions, size=(len(obs), 10))  # mostly cells no entry reaches
    actions = torch.as_tensor(np.concatenate([np.stack(legal), far], axis=1))
    actions[:, -1] = batch.num_actions - 1  # the pass action
    shallow = network.shallow_features(obs, actions % (obs.shape[2] * obs.shape[3]))
    assert (shallow is not None) == (planes == "observations")  # the path taken when blocks == 0
    logits, value = network(obs)
    picked, picked_value = network.action_logits(obs, actions)
    torch.testing.assert_close(picked, logits.gather(1, actions), rtol=1e-4, atol=1e-3)
    torch.testing.assert_close(picked_value, value)
    weights = torch.randn(actions.shape)
    sparse = gradients(network, (picked * weights).sum() + picked_value.sum())
    dense = gradients(network, (logits.gather(1, actions) * weights).sum() + value.sum())
    for a, b in zip(sparse, dense):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-2)


def padded_legal_policy(network, observation, rule_features):
    """`HiveLookaheadPolicy.legal_policy` as it was written before it ran on the legal entries only:
    the per-action part over every padded entry, multiplied by 0 on padding."""
    actions, features, position = rule_features
    real = features[..., 0:1]
    trunk, value = network.board.action_logits(observation, actions.clamp(max=network.num_actions - 1))
    hidden = network.action_embed(features) * real
    logits = (trunk + network.action_logit(hidden).squeeze(-1)) * real.squeeze(-1)
    mean = hidden.sum(dim=1) / real.sum(dim=1).clamp(min=1.0)
    value = value + network.value_net(torch.cat([mean, hidden.amax(dim=1), position], dim=1)).squeeze(-1)
    return logits, value


@pytest.mark.parametrize("plies", [0, 30])  # 0: empty boards, no entry reaches any cell
def test_the_per_action_part_on_legal_entries_is_the_padded_one(plies):
    obs, batch = observations("", plies=plies)
    network = lookahead_network(0, batch)
    actions, features, position = network.rule_features(obs)
    extra = torch.zeros(len(obs), 7, features.shape[2])  # wider padding than any row needs
    rule_features = (
        torch.cat([actions, torch.full((len(obs), 7), batch.num_actions)], dim=1),
        torch.cat([features, extra], dim=1),
        position,
    )
    logits, value = network.legal_policy(obs, rule_features)
    reference, reference_value = padded_legal_policy(network, obs, rule_features)
    torch.testing.assert_close(logits, reference)
    torch.testing.assert_close(value, reference_value)
    assert bool((logits[:, -7:] == 0).all())
    weights = torch.randn(logits.shape)
    packed = gradients(network, (logits * weights).sum() + value.sum())
    padded = gradients(network, (reference * weights).sum() + reference_value.sum())
    for a, b in zip(packed, padded):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-3)


def lookahead_network(blocks: int, batch: HiveBatch):
    spec = {"kind": "hive_lookahead", "channels": 4, "blocks": blocks, "features": 2}
    spec["rules"] = {"expansions": "", "tournament_opening": False, "max_turns": 300}
    return noisy(build_network(spec, tuple(batch.observation_shape), batch.num_actions))


def test_rows_taken_from_plane_entries_are_those_rows_planes():
    obs, batch = observations("", plies=30)
    network = lookahead_network(0, batch)
    entries = network.plane_entries(obs)
    assert entries is not None and entries.shape == tuple(obs.shape)
    index = torch.tensor([5, 0, 11, 5, 3])  # any order, a row twice
    rule_features = tuple(x.index_select(0, index) for x in network.rule_features(obs))
    taken = entries.take(index)
    assert taken.shape == (5, *obs.shape[1:])
    logits, value = network.legal_policy(taken, rule_features)
    reference, reference_value = network.legal_policy(obs[index], rule_features)
    torch.testing.assert_close(logits, reference)
    torch.testing.assert_close(value, reference_value)
    weights = torch.randn(logits.shape)
    from_entries = gradients(network, (logits * weights).sum() + value.sum())
    from_planes = gradients(network, (reference * weights).sum() + reference_value.sum())
    for a, b in zip(from_entries, from_planes):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-3)


def test_a_trunk_with_blocks_reads_planes_not_entries():
    obs, batch = observations("", plies=10)
    network = lookahead_network(1, batch)
    assert network.plane_entries(obs) is None
    entries = lookahead_network(0, batch).plane_entries(obs)
    with pytest.raises(ValueError, match="residual blocks"):
        network.legal_policy(entries, network.rule_features(obs))
