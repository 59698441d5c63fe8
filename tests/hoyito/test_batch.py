"""HoyitoBatch: the batched contract, agreement with the AEC env, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from hive_envs import hoyito_v0
from hive_envs.hoyito import HoyitoBatch


def random_actions(batch, rng):
    return (rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1)


def check_agreement(num_games, episodes, options, seed, parallel=False):
    """Same actions into HoyitoBatch and into one AEC env per game: identical everything."""
    batch = HoyitoBatch(num_games, parallel=parallel, **options)
    batch.reset(seed=seed)
    envs = [hoyito_v0.raw_env(**options) for _ in range(num_games)]
    for env in envs:
        env.reset()
    rng = np.random.default_rng(seed)
    finished = 0
    while finished < episodes:
        for g, env in enumerate(envs):
            obs = env.observe(env.agent_selection)
            assert np.array_equal(obs["observation"], batch.observation[g])
            assert np.array_equal(obs["action_mask"], batch.action_mask[g])
            assert env.agent_selection == f"player_{batch.to_move[g]}"
        actions = random_actions(batch, rng)
        batch.step(actions)
        for g, env in enumerate(envs):
            mover = env.agent_selection
            env.step(int(actions[g]))
            ended = all(env.terminations.values())
            assert ended == batch.terminated[g]
            assert (env.rewards["player_0"], env.rewards["player_1"]) == tuple(batch.rewards[g])
            if ended:
                assert np.array_equal(env.observe(mover)["observation"], batch.final_observation[g])
                assert env.game.ply == batch.episode_length[g]
                finished += 1
                env.reset()
    return finished


@pytest.mark.slow  # run alone with -m slow: minutes of the default suite
def test_batch_agrees_with_aec_env_over_thousands_of_random_games():
    assert check_agreement(64, 600, {}, seed=0) >= 600
    assert check_agreement(16, 120, {"holes_per_row": 12}, seed=1) >= 120
    assert check_agreement(16, 300, {"holes_per_row": 3, "no_capture_limit": 30}, seed=2) >= 300


def test_parallel_batch_agrees_too():
    assert check_agreement(16, 30, {}, seed=3, parallel=True) >= 30


@pytest.mark.slow
def test_batch_agrees_with_aec_env_over_many_games():
    assert check_agreement(128, 5000, {}, seed=4) >= 5000
    assert check_agreement(64, 2000, {"holes_per_row": 12}, seed=5) >= 2000


def test_contract_attributes_and_buffers():
    b = HoyitoBatch(5, holes_per_row=12)
    assert (b.num_games, b.num_actions, b.observation_shape, b.observation_dtype) == (
        5,
        12,
        (28,),
        np.float32,
    )
    assert b.action_mask.dtype == np.int8 and b.to_move.dtype == np.int8
    assert b.rewards.shape == (5, 2) and b.rewards.dtype == np.float32
    assert b.terminated.dtype == bool and b.episode_length.dtype == np.int32
    assert b.final_observation.shape == (5, 28)
    assert (b.action_mask == 1).all() and (b.to_move == 0).all()
    observation = b.observation
    b.step(np.zeros(5, np.int64))
    assert b.observation is observation  # overwritten in place
    assert (b.to_move == 1).all()


def test_reset_with_seed_is_reproducible():
    def run(seed):
        b = HoyitoBatch(8)
        b.reset(seed=seed)
        for _ in range(50):
            b.step(b.greedy_actions(np.arange(8), b.np_random))
        return b.observation.copy()

    assert np.array_equal(run(5), run(5))


def test_greedy_actions_take_the_largest_capture():
    from hive_envs.hoyito import HoyitoGame

    b = HoyitoBatch(2)
    g = HoyitoGame.from_position([1, 3, 0, 0, 0, 2, 1, 1, 1, 1, 1, 1], (36, 0), 0)
    b.states[0] = g.state
    rng = np.random.default_rng(0)
    picks = {int(b.greedy_actions(np.array([0]), rng)[0]) for _ in range(40)}
    assert picks == {0, 5}  # both capture 4: ties broken at random


@pytest.mark.parametrize(
    "actions, message",
    [
        (np.zeros(3, np.int64), r"shape \(4,\)"),
        (np.zeros(4, np.float32), "integer array"),
        (np.array([0, 0, 6, 0]), "game 2: action 6 is out of range"),
        (np.array([0, -1, 0, 0]), "game 1: action -1 is out of range"),
    ],
)
def test_bad_actions_raise_and_no_game_changes(actions, message):
    b = HoyitoBatch(4)
    states, obs = b.states.copy(), b.observation.copy()
    with pytest.raises(ValueError, match=message):
        b.step(actions)
    assert np.array_equal(b.states, states) and np.array_equal(b.observation, obs)


def test_illegal_action_in_one_game_raises_naming_it_and_no_game_changes():
    b = HoyitoBatch(3)
    b.step(np.array([0, 1, 2]))  # North to move everywhere; South's holes 0, 1, 2 emptied
    b.step(np.array([0, 0, 0]))
    states = b.states.copy()
    empty = [g for g in range(3) if 0 in b.action_mask[g]]
    assert empty
    g = empty[0]
    actions = np.array([int(np.flatnonzero(b.action_mask[i])[0]) for i in range(3)])
    actions[g] = int(np.flatnonzero(b.action_mask[g] == 0)[0])
    with pytest.raises(ValueError, match=rf"game {g}: action {actions[g]} is illegal"):
        b.step(actions)
    assert np.array_equal(b.states, states)


def test_active_rows_and_final_view():
    b = HoyitoBatch(2, no_capture_limit=1)
    before = b.observation.copy()
    b.step(np.array([0, 0]), active=np.array([True, False]), final_view=np.array([1, 1], np.int8))
    assert b.terminated.tolist() == [True, False]  # the stall limit of 1 ends game 0 at once
    assert np.array_equal(b.observation[1], before[1])
    assert b.final_observation[0][-1] == 0.0  # North's view: North did not move last
    with pytest.raises(ValueError, match="active"):
        b.step(np.array([0, 0]), active=np.array([1, 0]))
    with pytest.raises(ValueError, match="final_view"):
        b.step(np.array([0, 0]), final_view=np.array([2, 0]))


@pytest.mark.parametrize(
    "kwargs, name",
    [({"num_games": 0}, "num_games"), ({"holes_per_row": 1}, "holes_per_row"), ({"parallel": 1}, "parallel")],
)
def test_bad_options_raise(kwargs, name):
    kwargs = {"num_games": 2, **kwargs}
    with pytest.raises(ValueError, match=name):
        HoyitoBatch(**kwargs)
