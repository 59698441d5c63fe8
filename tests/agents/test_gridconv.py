"""The generic `gridconv` network over image-like (H, W, C) observations (channels last, as PettingZoo's
classic board games give them)."""

from __future__ import annotations

import pytest
import torch

from hive_envs.agents.networks import GridConvPolicy, build_network

CONNECT_FOUR = (6, 7, 2)  # connect_four_v3's observation: rows, columns, one plane per player


def test_gridconv_gives_one_logit_per_action_and_one_value_per_row():
    network = build_network({"kind": "gridconv", "channels": 4, "blocks": 1}, CONNECT_FOUR, 7)
    with torch.no_grad():
        logits, value = network(torch.zeros((3, *CONNECT_FOUR), dtype=torch.int8))
    assert logits.shape == (3, 7) and value.shape == (3,)


def test_gridconv_reads_the_last_axis_as_channels_and_mixes_only_the_3x3_neighbourhood():
    """One stem convolution: a stone at row 2, column 3 of plane 1 reaches rows 1-3 x columns 2-4 only,
    and plane 0 alone reaches nothing (its weights are zero here)."""
    network = GridConvPolicy(CONNECT_FOUR, 7, channels=1, blocks=0)
    with torch.no_grad():
        network.stem.weight.zero_()
        network.stem.weight[0, 1] = 1.0
        network.stem.bias.zero_()
        x = torch.zeros((1, *CONNECT_FOUR))
        x[0, 2, 3, 1] = 1.0
        reached = network.stem(x.permute(0, 3, 1, 2))[0, 0] != 0
        assert {(int(r), int(c)) for r, c in reached.nonzero()} == {
            (r, c) for r in (1, 2, 3) for c in (2, 3, 4)
        }
        x[0, 2, 3] = torch.tensor([1.0, 0.0])
        assert not network.stem(x.permute(0, 3, 1, 2)).any()


@pytest.mark.parametrize("shape", [(84,), (6, 7)])
def test_gridconv_refuses_observations_that_are_not_image_like(shape):
    with pytest.raises(ValueError, match=r"network 'gridconv' needs \(H, W, C\) observations"):
        build_network({"kind": "gridconv", "channels": 4, "blocks": 1}, shape, 7)
