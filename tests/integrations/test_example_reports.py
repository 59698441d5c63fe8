"""The examples' shared reporting (examples/sb3_evaluation.py): `PlyCounter` counts every ply played
through a Gymnasium env, the learner's and the opponent's, as the games themselves number them."""

import gymnasium as gym
import numpy as np
import pytest

from tests.integrations.test_sb3_maskable_ppo import load_example


@pytest.mark.parametrize("env_id", ["hive_envs/Hive-v0", "hive_envs/Hoyito-v0"])
def test_ply_counter_counts_the_plies_the_games_played(env_id):
    evaluation = load_example("sb3_evaluation")
    env = evaluation.PlyCounter(gym.make(env_id, opponent="random", learner_seat="random"))
    rng = np.random.default_rng(0)
    plies_of_games = steps = 0
    for game in range(4):
        env.reset(seed=game)
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(env.unwrapped.action_masks()))
            _, _, terminated, truncated, _ = env.step(action)
            steps += 1
            done = terminated or truncated
        plies_of_games += env.unwrapped.aec.game.ply
    assert env.plies == plies_of_games
    assert steps < env.plies  # the opponent's replies are counted too
