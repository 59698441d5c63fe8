"""The ``hive_pieces`` network over Hive's piece observation: its two forms give the same logits, the
trainers' action lists are the mask's legal actions, its options are checked, a checkpoint of it plays
searched, and expert iteration trains it (PPO: tests/training/test_hive_training.py)."""

import numpy as np
import pytest
import torch

from hive_envs.agents import save_checkpoint
from hive_envs.agents.batch_evaluators import listed_rows
from hive_envs.agents.network_kinds import build_network, network_kind
from hive_envs.agents.networks import action_lists
from hive_envs.games import new_game
from hive_envs.hive.batch import HiveBatch
from hive_envs.players.checkpoint import AgentPlayer
from hive_envs.training import expert_iteration
from tests.training.test_expert_iteration import tiny
from tests.training.test_train_smoke import play_legal_moves_only

OPTIONS = {"expansions": "", "max_turns": 16, "observation": "pieces"}
SPEC = {"kind": "hive_pieces", "width": 8, "layers": 1, "heads": 2}


def played_batch(expansions: str, games: int, plies: int, seed: int = 0) -> HiveBatch:
    """A batch of piece observations after ``plies`` random plies (games that end start again)."""
    batch = HiveBatch(games, expansions=expansions, observation="pieces")
    batch.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        batch.step(np.array([rng.choice(np.flatnonzero(mask)) for mask in batch.action_mask]))
    return batch


def randomised(network: torch.nn.Module, seed: int) -> torch.nn.Module:
    """Weights far from the near-uniform start, so that logits differ from move to move."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for parameter in network.parameters():
            parameter.copy_(torch.randn(parameter.shape, generator=generator) * 0.3)
    return network


@pytest.mark.parametrize("expansions", ["", "MLP"])
def test_the_listed_form_gives_the_every_action_forms_logits_and_value(expansions):
    batch = played_batch(expansions, games=50, plies=30)
    network = randomised(build_network(SPEC, batch.observation_shape, batch.num_actions), seed=1)
    obs = torch.as_tensor(batch.observation)
    listed = action_lists(batch.action_mask)
    with torch.no_grad():
        dense, dense_value = network(obs)
        logits, value = network.legal_policy(obs, listed)
    real = listed[0] < batch.num_actions
    expected = dense.gather(1, listed[0].clamp(max=batch.num_actions - 1))
    assert dense.shape == (50, batch.num_actions)
    assert torch.allclose(logits[real], expected[real], atol=1e-5)
    assert torch.allclose(value, dense_value)
    assert expected[real].std() > 0.1  # the check compares logits that differ


def test_action_lists_are_each_rows_legal_actions_ascending_then_padding():
    batch = played_batch("", games=20, plies=15, seed=4)
    ids, flags, position = action_lists(batch.action_mask)
    for row, mask in enumerate(batch.action_mask):
        legal = np.flatnonzero(mask)
        assert ids[row, : len(legal)].tolist() == legal.tolist()
        assert (ids[row, len(legal) :] == batch.num_actions).all()
        assert flags[row, :, 0].sum() == len(legal)
    assert position.shape == (20, 0)


def test_listed_rows_keep_each_rows_order():
    ids, flags, _ = listed_rows([np.array([5, 2]), np.array([7])], num_actions=9, device="cpu")
    assert ids.tolist() == [[5, 2], [7, 9]] and flags[..., 0].tolist() == [[1, 1], [1, 0]]


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"width": 10, "heads": 3}, "multiple of 'heads'"),
        ({"width": 2}, "'width' must be an int in 4..1024"),
        ({"layers": True}, "'layers' must be an int"),
        ({"depth": 2}, "depth"),
    ],
)
def test_bad_options_are_refused_by_name(values, message):
    with pytest.raises(ValueError, match=message):
        network_kind("hive_pieces").parse_options(values)


def test_the_planes_observation_is_refused_with_the_option_to_set():
    batch = HiveBatch(1)
    with pytest.raises(ValueError, match="observation='pieces'"):
        build_network(SPEC, batch.observation_shape, batch.num_actions)


def test_a_checkpoint_of_it_plays_searched(tmp_path):
    """``PATH@N``: the PUCT search evaluates its leaves through the listed form."""
    batch = HiveBatch(1, **OPTIONS)
    network = randomised(build_network(SPEC, batch.observation_shape, batch.num_actions), seed=5)
    payload = {
        "game": "hive",
        "game_options": OPTIONS,
        "encoding_version": "v0",
        "observation_shape": batch.observation_shape,
        "num_actions": batch.num_actions,
        "network": SPEC,
        "model": network.state_dict(),
        "global_step": 0,
        "update": 0,
    }
    searcher = AgentPlayer.load(save_checkpoint(tmp_path / "pieces.pt", payload), simulations=4)
    game = new_game("hive", {"expansions": "", "max_turns": 16})
    for _ in range(6):
        move = searcher.choose(game)
        assert move in game.legal_move_ids_view()
        game.play_id(move)


def test_a_tiny_expert_iteration_run_trains_it(tmp_path):
    config = tiny(
        tmp_path, "experiments/hive_base_exit", game_options=OPTIONS, network="hive_pieces",
        network_options={"width": 8, "layers": 1, "heads": 2}, init_from_rule=False,
        search_rule_value_share=0.0, num_games=2, rollout_steps=3, total_steps=6,
    )  # fmt: skip
    assert expert_iteration.train(config)["global_step"] == 6
    play_legal_moves_only(tmp_path / "hive_base_exit" / "checkpoints" / "latest.pt", "hive", OPTIONS, 1, 10)
