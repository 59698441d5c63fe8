"""Training on Hive: a tiny run of each network writes a checkpoint that plays legal moves only,
and the hexconv policy head lines up with the encoder's action layout."""

import pytest
import torch

from hive_envs.agents.networks import HexConvPolicy
from hive_envs.hive.batch import HiveBatch
from tests.training.test_train_smoke import play_legal_moves_only, tiny_config
from training import ppo_selfplay

OPTIONS = {"expansions": "", "max_turns": 16}


@pytest.mark.parametrize(
    ("network", "sizes"),
    [("hexconv", {"conv_channels": 4, "conv_blocks": 1}), ("mlp", {"hidden_sizes": [8]})],
)
def test_tiny_hive_run_writes_a_checkpoint_that_plays_legal_moves(tmp_path, network, sizes):
    config = tiny_config(
        tmp_path,
        game="hive",
        game_options=OPTIONS,
        network=network,
        num_games=4,
        rollout_steps=4,
        total_steps=48,
        eval_games=2,
        final_eval_games=2,
        **sizes,
    )
    summary = ppo_selfplay.train(config)
    assert summary["global_step"] == 48
    play_legal_moves_only(tmp_path / "tiny" / "checkpoints" / "latest.pt", "hive", OPTIONS, games=2, plies=20)


def test_hexconv_gives_one_logit_per_tile_slot_and_cell_plus_pass():
    batch = HiveBatch(1, **OPTIONS)
    slots_cells = batch.num_actions - 1
    _, height, width = batch.observation_shape
    network = HexConvPolicy(batch.observation_shape, batch.num_actions, channels=4, blocks=1)
    assert network.slots * height * width == slots_cells
    with torch.no_grad():
        logits, value = network(torch.as_tensor(batch.observation))
    assert logits.shape == (1, batch.num_actions) and value.shape == (1,)


def test_hexconv_mixes_only_hex_neighbours():
    """A single stem convolution: an input at (q, r) reaches the six axial neighbours and itself,
    not the two corners (q-1, r-1), (q+1, r+1) that are not adjacent on the hex grid."""
    from hive_envs.agents.networks import HexConv

    conv = HexConv(1, 1)
    torch.nn.init.ones_(conv.weight)
    torch.nn.init.zeros_(conv.bias)
    x = torch.zeros(1, 1, 6, 6)
    x[0, 0, 2, 2] = 1.0
    reached = {(int(q), int(r)) for q, r in (conv(x)[0, 0] != 0).nonzero()}
    assert reached == {(2, 2), (1, 2), (3, 2), (2, 1), (2, 3), (1, 3), (3, 1)}
