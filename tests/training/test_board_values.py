"""Learned board values (`hive_envs.hoyito.agent.board_values`): the fit, the self-play positions, the
network that carries them and the run that learns them."""

import json

import numpy as np
import pytest
import torch

from hive_envs.agents.checkpoint import load_checkpoint
from hive_envs.agents.network_kinds import build_network
from hive_envs.hoyito.agent import board_values_screen
from hive_envs.hoyito.agent.board_values import (
    VALUE_WEIGHT,
    fit_board_values,
    mover_rings,
    predicted_gains,
    self_play_positions,
    to_score_units,
)
from hive_envs.hoyito.search.alphabeta import BOARD_BUCKETS, COUNTER
from hive_envs.training import ppo_selfplay
from hive_envs.training.config import config_from_dict
from tests.training.test_hoyito_training import extractor, positions
from tests.training.test_train_smoke import play_legal_moves_only, tiny_config

RULES = {"seeds_per_hole": 4, "max_laps": 1000, "no_capture_limit": 600}


def test_rings_start_at_the_movers_first_hole():
    boards = np.arange(24).reshape(2, 12)
    rings = mover_rings(boards, np.array([0, 1]), 6)
    assert rings[0].tolist() == list(range(12))
    assert rings[1].tolist() == [18, 19, 20, 21, 22, 23, 12, 13, 14, 15, 16, 17]


def one_hot(rings):
    """The fit's design matrix written out: a column per table entry, 1 where a position reads it."""
    x = np.zeros((len(rings), rings.shape[1] * BOARD_BUCKETS))
    for hole in range(rings.shape[1]):
        x[np.arange(len(rings)), hole * BOARD_BUCKETS + np.minimum(rings[:, hole], BOARD_BUCKETS - 1)] = 1.0
    return x


def test_the_fit_recovers_a_table_that_explains_the_gains():
    rng = np.random.default_rng(0)
    rings = rng.integers(0, 20, size=(20_000, 12))
    truth = rng.normal(size=(12, BOARD_BUCKETS))
    gains = one_hot(rings) @ truth.reshape(-1) + 3.0  # an intercept the fit spreads over the rows
    fitted = fit_board_values(rings, gains, ridge=1e-6)
    assert np.allclose(one_hot(rings) @ fitted.reshape(-1), gains, atol=1e-6)
    assert np.allclose(predicted_gains(fitted, rings), gains, atol=1e-6)  # the summary's lookup
    assert to_score_units(fitted).dtype == np.int32
    assert np.array_equal(to_score_units(fitted), np.rint(fitted * VALUE_WEIGHT * COUNTER))


def test_the_counted_normal_equations_are_the_dense_ridge_fit():
    rng = np.random.default_rng(1)
    rings = rng.integers(0, 8, size=(3_000, 8))  # counts up to 7: some entries never read
    gains = rng.normal(size=3_000) * 5.0 + rings[:, 0]
    x = np.concatenate([one_hot(rings), np.ones((len(rings), 1))], axis=1)
    penalty = 2.0 * np.eye(x.shape[1])
    penalty[-1, -1] = 0.0
    weights = np.linalg.solve(x.T @ x + penalty, x.T @ gains)
    dense = weights[:-1].reshape(8, BOARD_BUCKETS) + weights[-1] / 8
    assert np.allclose(fit_board_values(rings, gains, ridge=2.0), dense, atol=1e-9)


def test_self_play_positions_hold_every_decision_and_what_the_mover_gained():
    rings, gains = self_play_positions({"holes_per_row": 6}, games=3, seed=0)
    assert rings.shape == (len(gains), 12) and len(gains) > 30
    assert (rings >= 0).all() and (rings.sum(axis=1) <= 48).all()
    assert (np.abs(gains) <= 48).all() and (gains == np.rint(gains)).all()
    again = self_play_positions({"holes_per_row": 6}, games=3, seed=0)
    assert np.array_equal(again[0], rings) and np.array_equal(again[1], gains)  # seeded


def lookahead(with_table, depth=2):
    spec = {"kind": "hoyito_lookahead", "hidden_sizes": [8], "rules": RULES, "features": 2,
            "search_depth": depth, "board_values": with_table}  # fmt: skip
    return build_network(spec, (16,), 6)


def test_the_networks_features_search_with_its_board_values():
    """Feature 6 (the searched value after each move) follows the network's table: equal to the
    table-free extractor's with a zero table, different with a nonzero one, and equal again to an
    extractor given the same table (the table is read from the buffer at each call)."""
    batch = positions(6, games=32, plies=20, seed=1)
    obs = torch.as_tensor(batch.observation)
    network = lookahead(True)
    plain = extractor(batch, 2)(batch.observation)
    assert np.array_equal(network.rule_features(obs)[1].numpy(), plain)
    table = np.zeros((12, BOARD_BUCKETS), dtype=np.int32)
    table[6:, 4:] = 300
    network.set_board_values(table)
    tabled = network.rule_features(obs)[1].numpy()
    assert not np.array_equal(tabled[..., 6], plain[..., 6])
    reference = extractor(batch, 2)
    reference.board_values = table
    assert np.array_equal(tabled, reference(batch.observation))
    copy = lookahead(True)
    copy.load_state_dict(network.state_dict())  # a checkpoint's weights carry the table
    assert np.array_equal(copy.rule_features(obs)[1].numpy(), tabled)


def test_bad_board_values_are_refused():
    with pytest.raises(ValueError, match="no board values"):
        lookahead(False).set_board_values(np.zeros((12, BOARD_BUCKETS), dtype=np.int32))
    with pytest.raises(ValueError, match="shape"):
        lookahead(True).set_board_values(np.zeros((24, BOARD_BUCKETS), dtype=np.int32))
    with pytest.raises(ValueError, match="feature set 2"):
        spec = {"kind": "hoyito_lookahead", "hidden_sizes": [8], "rules": RULES, "board_values": True}
        build_network(spec, (16,), 6)
    with pytest.raises(ValueError, match="network 'mlp' has no option 'board_values_games'"):
        config_from_dict({"game": "hoyito", "network": "mlp", "network_options": {"board_values_games": 8}})
    with pytest.raises(ValueError, match="option 'board_values_games' is for features 2"):
        config_from_dict(
            {"game": "hoyito", "network": "hoyito_lookahead", "network_options": {"board_values_games": 8}}
        )


def test_a_run_learns_its_board_values_first_and_its_checkpoint_keeps_them(tmp_path):
    config = tiny_config(
        tmp_path, game="hoyito", game_options={"holes_per_row": 6}, network="hoyito_lookahead",
        network_options={"features": 2, "search_depth": 2, "board_values_games": 4}, init_from_rule=True,
        final_eval_games=0,
    )  # fmt: skip
    ppo_selfplay.train(config)
    path = tmp_path / "tiny" / "checkpoints" / "latest.pt"
    data = load_checkpoint(path)
    assert data["network"]["board_values"] is True
    table = data["model"]["board_values"]
    assert table.shape == (12, BOARD_BUCKETS) and table.abs().sum() > 0
    play_legal_moves_only(path, "hoyito", {"holes_per_row": 6})
    longer = tiny_config(
        tmp_path, game="hoyito", game_options={"holes_per_row": 6}, network="hoyito_lookahead",
        network_options={"features": 2, "search_depth": 2, "board_values_games": 4}, init_from_rule=True,
        final_eval_games=0, total_steps=2 * config.total_steps, seed=config.seed + 1,
    )  # fmt: skip
    ppo_selfplay.train(longer, resume=True)  # a resumed run keeps the table it was fitted with
    resumed = load_checkpoint(path)
    assert resumed["global_step"] == 2 * config.total_steps
    assert torch.equal(resumed["model"]["board_values"], table)


def test_the_screen_plays_the_table_and_the_hand_evaluation_from_the_same_book(tmp_path):
    out = tmp_path / "screen.json"
    assert (
        board_values_screen.main(
            ["--games", "4", "--depths", "2", "--pairs", "3", "--workers", "1", "--out", str(out)]
        )
        == 0
    )
    report = json.loads(out.read_text())
    tabled, plain = report["matches"]
    assert (tabled["player"], plain["player"]) == ("alphabeta:2+board_values", "alphabeta:2")
    assert tabled["opponent"] == plain["opponent"] == "alphabeta:6"
    assert tabled["games"] == plain["games"] == 6
    assert np.array(report["board_values"]).shape == (12, BOARD_BUCKETS)


@pytest.mark.parametrize("flags", [["--games", "0"], ["--pairs", "0"], ["--depths", "0"], ["--workers", "0"]])
def test_the_screen_refuses_bad_flags(flags, capsys):
    with pytest.raises(SystemExit):
        board_values_screen.main(flags)
    assert "must be" in capsys.readouterr().err
