"""The generic ``gridconv`` network: one logit per action and a value for boards in either layout,
a board's cells reach the policy through the convolutions, and bad shapes or options are refused."""

import pytest
import torch

from hive_envs.agents.network_kinds import build_network, network_kind

SPEC = {"kind": "gridconv", "channels": 4, "blocks": 1, "channels_last": True}


def test_a_channels_last_board_gives_a_logit_per_action_and_a_value():
    network = build_network(SPEC, (6, 7, 2), 7)
    logits, value = network(torch.zeros(3, 6, 7, 2))
    assert logits.shape == (3, 7) and value.shape == (3,)


def test_both_layouts_read_the_same_board_alike():
    last = build_network(SPEC, (6, 7, 2), 7)
    first = build_network({**SPEC, "channels_last": False}, (2, 6, 7), 7)
    first.load_state_dict(last.state_dict())
    board = torch.randint(0, 2, (4, 6, 7, 2))
    assert torch.allclose(last(board)[0], first(board.permute(0, 3, 1, 2))[0])


def test_a_stone_changes_the_logits():
    network = build_network(SPEC, (6, 7, 2), 7)
    with torch.no_grad():
        for parameter in network.parameters():
            parameter.normal_(std=0.5)
    board = torch.zeros(1, 6, 7, 2)
    played = board.clone()
    played[0, 5, 3, 0] = 1
    assert not torch.allclose(network(board)[0], network(played)[0])


def test_a_flat_observation_and_a_bad_option_are_refused():
    with pytest.raises(ValueError, match="needs a board observation"):
        build_network(SPEC, (42,), 7)
    with pytest.raises(ValueError, match="'channels_last' must be true or false"):
        network_kind("gridconv").parse_options({"channels_last": "yes"})
