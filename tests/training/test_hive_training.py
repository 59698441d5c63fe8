"""Training on Hive: a tiny run of each network writes a checkpoint that plays legal moves only,
the hexconv policy head lines up with the encoder's action layout, and the hive_lookahead
network's legal-action form (used in training) is its dense form (used by every player)."""

import numpy as np
import pytest
import torch

from hive_envs.agents.distributions import MaskedCategorical
from hive_envs.agents.network_kinds import build_network
from hive_envs.agents.networks import HexConvPolicy
from hive_envs.hive.batch import HiveBatch
from hive_envs.training import ppo_selfplay
from hive_envs.training.game_lookup import make_batch
from hive_envs.training.run import network_spec
from tests.training.test_train_smoke import play_legal_moves_only, tiny_config

OPTIONS = {"expansions": "", "max_turns": 16}
PIECES = {**OPTIONS, "observation": "pieces"}


@pytest.mark.parametrize(
    ("network", "sizes", "options"),
    [
        ("hexconv", {"conv_channels": 4, "conv_blocks": 1}, OPTIONS),
        ("mlp", {"hidden_sizes": [8]}, OPTIONS),
        (
            "hive_lookahead",
            {"conv_channels": 4, "conv_blocks": 0, "shaping_coef": 1.0, "eval_sample": True},
            OPTIONS,
        ),
        (
            "hive_pieces",  # its action lists in the rollouts, a player in the pool
            {"network_options": {"width": 8, "layers": 1, "heads": 2}, "pool_players": ["greedy"]},
            PIECES,
        ),
    ],
)
def test_tiny_hive_run_writes_a_checkpoint_that_plays_legal_moves(tmp_path, network, sizes, options):
    config = tiny_config(
        tmp_path,
        game="hive",
        game_options=options,
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
    play_legal_moves_only(tmp_path / "tiny" / "checkpoints" / "latest.pt", "hive", options, games=2, plies=20)


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


def lookahead_network(batch):
    rules = {
        "expansions": batch.options.expansions,
        "tournament_opening": True,
        "max_turns": batch.options.max_turns,
    }
    spec = {"kind": "hive_lookahead", "channels": 4, "blocks": 1, "rules": rules}
    return build_network(spec, batch.observation_shape, batch.num_actions)


def test_hive_lookahead_dense_logits_are_its_legal_action_logits_in_the_action_layout():
    batch = HiveBatch(8, expansions="P", max_turns=60)
    batch.reset(seed=2)
    network = lookahead_network(batch)
    rng = np.random.default_rng(3)
    for _ in range(25):
        obs = torch.as_tensor(batch.observation)
        mask = torch.as_tensor(batch.action_mask)
        with torch.no_grad():
            features = network.rule_features(obs)
            legal_logits, legal_value = network.legal_policy(obs, features)
            dense_logits, dense_value = network(obs)
        actions, legal = features[0], network.legal_mask(features)
        assert torch.equal(legal.sum(dim=1), mask.sum(dim=1).to(legal.sum(dim=1).dtype))
        assert mask.gather(1, actions.clamp(max=batch.num_actions - 1))[legal].all()
        torch.testing.assert_close(dense_logits.gather(1, actions.clamp(max=batch.num_actions - 1))[legal],
                                   legal_logits[legal])  # fmt: skip
        torch.testing.assert_close(dense_value, legal_value)
        dense = MaskedCategorical(dense_logits, mask)
        sparse = MaskedCategorical(legal_logits, legal)
        torch.testing.assert_close(dense.entropy(), sparse.entropy(), rtol=1e-5, atol=1e-5)
        keys = rng.random(batch.action_mask.shape) * (batch.action_mask > 0)
        batch.step(keys.argmax(axis=1))


def test_hive_lookahead_refuses_another_games_observations(tmp_path):
    batch = HiveBatch(1)
    with pytest.raises(ValueError, match="hive_lookahead"):
        build_network(
            {"kind": "hive_lookahead", "channels": 4, "blocks": 0,
             "rules": {"expansions": "MLP", "tournament_opening": True, "max_turns": 300}},
            batch.observation_shape, batch.num_actions,
        )  # fmt: skip
    config = tiny_config(tmp_path, game="hoyito", game_options={}, network="hive_lookahead")
    with pytest.raises(ValueError, match="needs the hive game"):
        network_spec(config, make_batch("hoyito", 1, {}))


def test_rollout_keeps_the_rule_features_of_exactly_its_trained_decisions():
    """PPO reuses the rollout's rule features: they must be those of the trained observations, in
    the flattened (step, game) order, here with pool games where only the learner's seat trains."""
    from hive_envs.training.selfplay import SelfPlayCollector

    batch = HiveBatch(6, max_turns=40)
    network = lookahead_network(batch)
    collector = SelfPlayCollector(batch, network, torch.device("cpu"), seed=4)
    rollout = collector.collect(12, opponent=lookahead_network(batch), pool_games=3)
    keep = rollout.trained.reshape(-1)
    assert 0 < keep.sum() < keep.size
    observations = torch.as_tensor(rollout.observations.reshape(-1, *batch.observation_shape)[keep])
    expected = network.rule_features(observations)
    got = rollout.rule_features
    width = expected[0].shape[1]
    assert (got[0][:, width:] == batch.num_actions).all() and (got[1][:, width:] == 0).all()
    for want, have in zip(expected, (got[0][:, :width], got[1][:, :width], got[2])):
        assert torch.equal(want, have)
