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
    config = tiny(tmp_path, "experiments/hoyito_2x6_exit", rollout_steps=20, total_steps=4 * 20 * 2)
    summary = expert_iteration.train(config)
    assert summary["global_step"] == 160 and summary["update"] == 2
    latest = tmp_path / "hoyito_2x6_exit" / "checkpoints" / "latest.pt"
    data = load_checkpoint(latest)
    assert data["global_step"] == 160 and data["network"]["kind"] == "hoyito_lookahead"
    player = make_player(f"{latest}@4", PlayerContext("hoyito", 0))
    game = player.view.new_game()
    assert player.choose(game) in game.legal_move_ids()
    longer = tiny(tmp_path, "experiments/hoyito_2x6_exit", rollout_steps=20, total_steps=4 * 20 * 3)
    assert expert_iteration.train(longer, resume=True)["global_step"] == 240
    with pytest.raises(ValueError, match="already holds a run"):
        expert_iteration.train(config)


def test_a_tiny_hive_run_trains_from_the_rule(tmp_path):
    config = tiny(tmp_path, "experiments/hive_base_exit", num_games=2, rollout_steps=3, total_steps=6)
    summary = expert_iteration.train(config)
    assert summary["global_step"] == 6
    assert load_checkpoint(tmp_path / "hive_base_exit" / "checkpoints" / "latest.pt")["search"] == {
        "prior_temperature": 3.0,
        "rule_value_share": 1.0,
    }


def test_a_tiny_hive_run_with_the_alphabeta_expert_trains(tmp_path):
    """the experiments/hive_base_exit_alphabeta config (here at depth 2, to stay quick) trains from the rule, its
    expert in two worker processes (stopped when the run ends)."""
    config = tiny(
        tmp_path, "experiments/hive_base_exit_alphabeta", exit_expert_depth=2, num_games=2, rollout_steps=3,
        total_steps=6, exit_expert_workers=2,
    )  # fmt: skip
    assert expert_iteration.train(config)["global_step"] == 6
    data = load_checkpoint(tmp_path / "hive_base_exit_alphabeta" / "checkpoints" / "latest.pt")
    assert data["config"]["exit_expert"] == "alphabeta" and data["network"]["kind"] == "hive_lookahead"


def test_the_targets_are_the_visit_distributions():
    config = load_config("experiments/hoyito_2x6_exit", {"num_games": 3})
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
        "experiments/hoyito_2x6_exit",
        network="mlp",
        network_options={},
        init_from_rule=False,
        search_rule_value_share=0.0,
    )
    with pytest.raises(
        ValueError, match="legal-action form: 'hive_lookahead', 'hive_pieces', 'hoyito_lookahead'"
    ):
        expert_iteration.train(config)
    assert not (tmp_path / "hoyito_2x6_exit").exists()


def test_examples_learn_the_policy_at_once_and_the_outcome_when_the_game_ends():
    config = load_config("experiments/hoyito_2x6_exit", {"num_games": 2, "exit_simulations": 2})
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


def random_positions(count: int, seed: int, plies: int = 60) -> list:
    """Unfinished Hoyito 2x6 positions with two or more legal moves, after 0 to ``plies`` random plies."""
    from hive_envs.hoyito.engine.game import HoyitoGame

    rng = np.random.default_rng(seed)
    positions = []
    while len(positions) < count:
        game = HoyitoGame(holes_per_row=6)
        for _ in range(int(rng.integers(0, plies))):
            if game.is_terminal:
                break
            game.play_id(int(rng.choice(game.legal_move_ids())))
        if not game.is_terminal and len(game.legal_move_ids()) > 1:
            positions.append(game)
    return positions


def test_the_alphabeta_experts_best_move_is_the_root_searchs():
    from hive_envs.hoyito.search.alphabeta import HoyitoAlphaBeta
    from hive_envs.training.alphabeta_expert import AlphaBetaExpert

    # depth 3: proven results found inside the searches, not only moves that end the game; the root
    # search's table can carry a deeper result from one move to another, which these seeded
    # positions do not hit (alphabeta_expert's docstring)
    expert, root = AlphaBetaExpert("hoyito", 3, 8.0), HoyitoAlphaBeta(depth=3)
    proven = 0
    for game in random_positions(100, seed=3, plies=200):
        record = game.record()
        moves = game.legal_move_ids()
        scores = expert.scores(game, moves)
        found = root.search(game)
        assert game.record() == record  # the game is left as found
        assert scores.max() == found.score  # proven results too: the same plies from the root
        assert found.move_id in moves[scores == scores.max()]
        proven += found.is_proven_win or found.is_proven_loss
    assert proven  # the positions include proven results
    assert expert.nodes > 0


def test_the_alphabeta_target_is_a_softmax_of_the_scores_shared_by_equal_moves():
    from hive_envs.training.alphabeta_expert import AlphaBetaExpert

    expert = AlphaBetaExpert("hoyito", 4, 8.0)
    target = expert.target(np.array([16.0, 16.0, 0.0, 1e6]))
    assert target == pytest.approx([0, 0, 0, 1])
    target = expert.target(np.array([16.0, 16.0, 0.0]))
    assert target.sum() == pytest.approx(1) and target[0] == target[1]
    assert target[2] / target[0] == pytest.approx(np.exp(-2))
    sharper = AlphaBetaExpert("hoyito", 4, 2.0).target(np.array([16.0, 16.0, 0.0]))
    assert sharper[2] < target[2]


def test_worker_processes_give_the_same_scores_as_one():
    """``exit_expert_workers`` 2: the games shared out over two processes get exactly the scores (and
    node counts) of the trainer's own searcher, on Hive as on Hoyito."""
    from hive_envs.hive.engine.game import HiveGame
    from hive_envs.training.alphabeta_expert import AlphaBetaExpert

    rng = np.random.default_rng(5)
    hive = [HiveGame() for _ in range(6)]
    for ply, game in enumerate(hive):
        for _ in range(4 + 2 * ply):
            game.play_id(int(rng.choice(game.legal_move_ids())))
    for name, games in (("hoyito", random_positions(6, seed=4, plies=30)), ("hive", hive)):
        moves = [game.legal_move_ids() for game in games]
        alone, shared = AlphaBetaExpert(name, 3, 8.0), AlphaBetaExpert(name, 3, 8.0, workers=2)
        try:
            expected = alone.scores_of(games, moves)
            for _ in range(2):  # the pool started once serves every later call
                got = shared.scores_of(games, moves)
                assert all(np.array_equal(a, b) for a, b in zip(got, expected))
            assert shared.nodes == 2 * alone.nodes > 0
        finally:
            shared.close()
        assert shared._pool is None


@pytest.mark.parametrize(
    ("game", "depth", "temperature", "message"),
    [("aec", 4, 8.0, "no alpha-beta searcher"), ("hoyito", 22, 8.0, r"2\.\.21"),
     ("hoyito", 1, 8.0, r"2\.\.21"), ("hoyito", 4, 0.0, "temperature")],
)  # fmt: skip
def test_a_bad_alphabeta_expert_is_refused(game, depth, temperature, message):
    from hive_envs.training.alphabeta_expert import AlphaBetaExpert

    with pytest.raises(ValueError, match=message):
        AlphaBetaExpert(game, depth, temperature)
    with pytest.raises(ValueError, match="exit_expert_workers"):
        AlphaBetaExpert("hoyito", 4, 8.0, workers=0)


def test_the_expert_keys_are_checked_before_the_run_folder_is_made(tmp_path):
    with pytest.raises(ValueError, match="exit_expert"):
        tiny(tmp_path, "experiments/hoyito_2x6_exit", exit_expert="minimax")
    with pytest.raises(ValueError, match="exit_expert_depth"):
        tiny(tmp_path, "experiments/hoyito_2x6_exit", exit_expert="alphabeta", exit_expert_depth=1)
    config = tiny(tmp_path, "experiments/hoyito_2x6_exit", exit_expert="alphabeta", exit_expert_depth=22)
    with pytest.raises(ValueError, match="exit_expert_depth"):
        expert_iteration.train(config)
    assert not (tmp_path / "hoyito_2x6_exit").exists()


def test_with_the_alphabeta_expert_the_targets_are_its_softmax_and_it_plays_a_best_move():
    from hive_envs.training.alphabeta_expert import AlphaBetaExpert

    config = load_config(
        "experiments/hoyito_2x6_exit",
        {"num_games": 6, "exit_expert": "alphabeta", "exit_expert_depth": 4, "exit_sample_plies": 0},
    )
    spaces = make_batch(config.game, 1, config.game_options)
    network = build_network(network_spec(config, spaces), spaces.observation_shape, spaces.num_actions)
    play = expert_iteration.SelfPlay(config, network, np.random.default_rng(0))
    play.games = random_positions(6, seed=5)
    before = [game.copy() for game in play.games]
    expert = AlphaBetaExpert("hoyito", 4, config.exit_expert_temperature)
    examples = play.play(1)
    assert play.simulations > 0  # the alpha-beta nodes
    for g, (example, game) in enumerate(zip(examples, before)):
        moves = game.legal_move_ids()
        scores = expert.scores(game, moves)
        legal = example.features[:, 0] > 0
        actions = moves - game.to_move * 6  # Hoyito's action: the mover's hole from their left
        assert dict(zip(example.actions[legal].tolist(), example.target[legal].tolist())) == pytest.approx(
            dict(zip(actions.tolist(), expert.target(scores).tolist()))
        )
        assert example.target[~legal].sum() == 0
        children = {int(m): game.copy() for m in moves}
        for move, child in children.items():
            child.play_id(move)
        if not play.pending[g]:  # the game ended and a new one began
            continue
        played = [m for m, child in children.items() if child.record() == play.games[g].record()]
        assert scores[list(moves).index(played[0])] == scores.max()


def test_a_tiny_hoyito_run_with_the_alphabeta_expert_trains_and_saves(tmp_path):
    config = tiny(
        tmp_path, "experiments/hoyito_2x6_exit_alphabeta", exit_expert_depth=3, rollout_steps=10,
        total_steps=4 * 10 * 2,
    )  # fmt: skip
    summary = expert_iteration.train(config)
    assert summary["global_step"] == 80 and summary["update"] == 2
    data = load_checkpoint(tmp_path / "hoyito_2x6_exit_alphabeta" / "checkpoints" / "latest.pt")
    assert data["config"]["exit_expert"] == "alphabeta" and data["config"]["exit_expert_depth"] == 3
