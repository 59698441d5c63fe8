"""Smoke tests of expert iteration: a tiny run on each game writes checkpoints in the PPO trainer's
format (they load and play as PATH@N), --resume continues the step count, the targets are the
search's visit distributions, and a network without a legal-action form is refused."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from hive_envs.agents import build_network, load_checkpoint
from hive_envs.agents.batched_search import batched_search
from hive_envs.agents.search import SearchConfig
from hive_envs.players import PlayerContext, make_player
from hive_envs.training import expert_iteration
from hive_envs.training.config import config_from_dict, load_config
from hive_envs.training.game_lookup import make_batch
from hive_envs.training.run import network_spec


def tiny(tmp_path, config_file: str, **overrides):
    values = load_config(config_file).to_dict()
    values.update(
        runs_dir=str(tmp_path), num_games=4, rollout_steps=6, total_steps=4 * 6 * 2, exit_simulations=4,
        exit_batch_size=8, checkpoint_every=1, eval_every=2, eval_games=2, eval_opponents=["random"],
        final_eval_games=2, num_threads=1, device="cpu", time_limit_minutes=0.0,
    )  # fmt: skip
    values.update(overrides)
    return config_from_dict(values)


def test_a_tiny_hoyito_run_trains_saves_resumes_and_plays(tmp_path):
    config = tiny(tmp_path, "configs/hoyito_2x6_exit.yaml", rollout_steps=20, total_steps=4 * 20 * 2)
    summary = expert_iteration.train(config)
    assert summary["global_step"] == 160 and summary["update"] == 2
    latest = tmp_path / "hoyito_2x6_exit" / "checkpoints" / "latest.pt"
    data = load_checkpoint(latest)
    assert data["global_step"] == 160 and data["network"]["kind"] == "hoyito_lookahead"
    player = make_player(f"{latest}@4", PlayerContext("hoyito", 0))
    game = player.view.new_game()
    assert player.choose(game) in game.legal_move_ids()
    longer = tiny(tmp_path, "configs/hoyito_2x6_exit.yaml", rollout_steps=20, total_steps=4 * 20 * 3)
    assert expert_iteration.train(longer, resume=True)["global_step"] == 240
    with pytest.raises(ValueError, match="already holds a run"):
        expert_iteration.train(config)


def test_a_tiny_hive_run_trains_from_the_rule(tmp_path):
    config = tiny(tmp_path, "configs/hive_base_exit.yaml", num_games=2, rollout_steps=3, total_steps=6)
    summary = expert_iteration.train(config)
    assert summary["global_step"] == 6
    assert load_checkpoint(tmp_path / "hive_base_exit" / "checkpoints" / "latest.pt")["search"] == {
        "prior_temperature": 3.0,
        "rule_value_share": 1.0,
    }


def test_the_targets_are_the_visit_distributions():
    config = load_config("configs/hoyito_2x6_exit.yaml", {"num_games": 3})
    spaces = make_batch(config.game, 1, config.game_options)
    network = build_network(network_spec(config, spaces), spaces.observation_shape, spaces.num_actions)
    play = expert_iteration.SelfPlay(config, network, np.random.default_rng(0))
    for game in play.games[1:]:
        game.play_id(int(game.legal_move_ids()[-1]))  # different positions
    roots = play.evaluator(play.games)
    results = batched_search(play.games, play.evaluator, SearchConfig(simulations=12), roots)
    examples = expert_iteration.examples_of(roots, results, [g.to_move for g in play.games])
    for example, result, actions in zip(examples, results, roots.actions):
        expected = dict(zip(actions.tolist(), (result.visits / 12).tolist()))
        legal = example.features[:, 0] > 0
        assert dict(zip(example.actions[legal].tolist(), example.target[legal].tolist())) == pytest.approx(
            expected
        )
        assert legal.sum() == len(actions) and example.target[~legal].sum() == 0


def test_a_network_without_a_legal_action_form_is_refused(tmp_path):
    config = tiny(
        tmp_path,
        "configs/hoyito_2x6_exit.yaml",
        network="mlp",
        init_from_rule=False,
        search_rule_value_share=0.0,
    )
    with pytest.raises(ValueError, match="legal-action form"):
        expert_iteration.train(config)
    assert not (tmp_path / "hoyito_2x6_exit").exists()


def test_examples_learn_the_policy_at_once_and_the_outcome_when_the_game_ends():
    config = load_config("configs/hoyito_2x6_exit.yaml", {"num_games": 2, "exit_simulations": 2})
    spaces = make_batch(config.game, 1, config.game_options)
    network = build_network(network_spec(config, spaces), spaces.observation_shape, spaces.num_actions)
    play = expert_iteration.SelfPlay(config, network, np.random.default_rng(1))
    examples = []
    while not play.lengths:
        new = play.play(1)
        assert len(new) == 2
        examples.extend(new)
        if not play.lengths:  # no game has ended: no outcome yet
            assert all(example.outcome is None for example in examples)
    ended = [e for e in examples if e.outcome is not None]
    assert len(ended) == play.lengths[0]  # every position of the finished game, no other
    assert {e.outcome for e in ended} <= {-1.0, 0.0, 1.0}
    assert all(e.outcome == -f.outcome for e, f in itertools.pairwise(ended) if e.mover != f.mover)
