"""The batched search is the one-game search run on many games at once: the same visits per game
(differential check against `hive_envs.agents.search`), its Hive evaluator reads the engine state and
gives the features the observation path gives, and its limits and noise behave as documented."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from hive_envs.agents.batch_evaluators import ViewEvaluator, make_batch_evaluator
from hive_envs.agents.batched_search import RootNoise, batched_search
from hive_envs.agents.checkpoint import load_checkpoint, network_from_checkpoint
from hive_envs.agents.search import NetworkEvaluator, SearchConfig, search
from hive_envs.agents.views import view_for_checkpoint
from hive_envs.hive.agent.evaluator import HiveStateEvaluator
from hive_envs.pretrained import pretrained_path
from tests.agents.test_rule_value import random_positions


def pretrained(name: str):
    data = load_checkpoint(pretrained_path(name))
    return network_from_checkpoint(data), view_for_checkpoint(data)


def visits_by_move(moves: np.ndarray, visits: np.ndarray) -> dict[int, int]:
    return dict(zip(moves.tolist(), visits.tolist()))


@pytest.mark.parametrize(
    "name, config, share",
    [
        ("hive_base", SearchConfig(simulations=24, prior_temperature=3.0), 1.0),
        ("hive_base", SearchConfig(simulations=16, max_depth=2), 0.0),
        ("hoyito_2x6", SearchConfig(simulations=48), 0.0),
    ],
)
def test_each_game_gets_the_visits_of_the_one_game_search(name, config, share):
    torch.manual_seed(0)
    network, view = pretrained(name)
    games = random_positions(view, 3, seed=5)
    one = NetworkEvaluator(network, view, name, share)
    expected = [visits_by_move(*search(game.copy(), one, config)[:2]) for game in games]
    many = make_batch_evaluator(network, view, name, share)
    alone = [batched_search([game.copy()], many, config)[0] for game in games]
    assert [visits_by_move(r.moves, r.visits) for r in alone] == expected
    together = batched_search([game.copy() for game in games], many, config)
    assert [visits_by_move(r.moves, r.visits) for r in together] == expected
    assert all(r.simulations == config.simulations for r in together)


def test_the_games_are_left_as_found():
    network, view = pretrained("hive_base")
    games = random_positions(view, 2, seed=1)
    records = [game.record() for game in games]
    batched_search(games, make_batch_evaluator(network, view), SearchConfig(simulations=8))
    assert [game.record() for game in games] == records


def test_hive_leaves_are_read_from_the_state_with_the_observation_paths_features():
    network, view = pretrained("hive_base")
    games = random_positions(view, 4, seed=2)
    assert isinstance(make_batch_evaluator(network, view), HiveStateEvaluator)
    from_states = HiveStateEvaluator(network)(games)
    from_view = ViewEvaluator(network, view)(games)
    for i, game in enumerate(games):
        observation, moves, _ = view.encode(game)
        assert np.array_equal(from_states.observations[i].numpy(), observation)
        assert sorted(from_states.moves[i].tolist()) == sorted(moves.tolist())
        order_s, order_v = np.argsort(from_states.moves[i]), np.argsort(from_view.moves[i])
        assert np.array_equal(from_states.actions[i][order_s], from_view.actions[i][order_v])
        np.testing.assert_allclose(from_states.priors[i][order_s], from_view.priors[i][order_v], atol=1e-5)
    np.testing.assert_allclose(from_states.values, from_view.values, atol=1e-5)


def test_a_time_limit_starts_no_step_that_would_end_after_it():
    network, view = pretrained("hoyito_2x6")
    games = random_positions(view, 2, seed=3)
    evaluator = make_batch_evaluator(network, view)
    now = [0.0]

    def one_second_per_call(leaves):  # a fake clock: each network call takes 1 s
        now[0] += 1.0
        return evaluator(leaves)

    config = SearchConfig(simulations=50, time_s=4.5)
    results = batched_search(games, one_second_per_call, config, clock=lambda: now[0])
    assert now[0] == 4.0  # the roots, then steps ending at 2, 3 and 4 s; one more would end at 5 s
    assert [r.simulations for r in results] == [3, 3]
    assert [int(r.visits.sum()) for r in results] == [3, 3]


def test_root_noise_changes_the_root_priors_and_keeps_them_a_distribution():
    network, view = pretrained("hoyito_2x6")
    games = random_positions(view, 2, seed=4)
    evaluator = make_batch_evaluator(network, view)
    plain = batched_search(games, evaluator, SearchConfig(simulations=0))
    noisy = batched_search(
        games, evaluator, SearchConfig(simulations=0), noise=RootNoise(0.3, 0.5), rng=np.random.default_rng(0)
    )
    for a, b in zip(plain, noisy):
        assert not np.allclose(a.priors, b.priors)
        assert b.priors.sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="rng"):
        batched_search(games, evaluator, SearchConfig(simulations=1), noise=RootNoise())


def test_a_finished_game_is_refused():
    network, view = pretrained("hoyito_2x6")
    game = view.new_game()
    while not game.is_terminal:
        game.play_id(int(game.legal_move_ids()[0]))
    with pytest.raises(ValueError, match="over"):
        batched_search([game], make_batch_evaluator(network, view), SearchConfig(simulations=4))
