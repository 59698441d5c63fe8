"""Play a `HiveBatch` and one AEC env per game in lockstep, asserting every buffer agrees.

The AEC env (`hive_envs.hive.env.raw_env`) is the reference: per game, the batch's observation,
mask, player to move, rewards, termination, final observation and episode length must equal what
the AEC env reports for the same actions.
"""

from __future__ import annotations

import numpy as np

from hive_envs.hive import HiveBatch
from hive_envs.hive.env import raw_env


def play_lockstep(num_games: int, steps: int, seed: int, parallel=False, **options) -> int:
    """Random legal actions for ``steps`` batch steps; returns the number of games finished."""
    batch = HiveBatch(num_games, parallel=parallel, **options)
    batch.reset(seed=seed)
    envs = [raw_env(**options) for _ in range(num_games)]
    for env in envs:
        env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    finished = 0
    _assert_current(batch, envs)
    for step in range(steps):
        actions = (rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1)
        movers = [env.agent_selection for env in envs]
        batch.step(actions)
        for g, env in enumerate(envs):
            env.step(int(actions[g]))
            where = f"step {step}, game {g}"
            over = all(env.terminations.values())
            assert batch.terminated[g] == over, where
            expected = (env.rewards["player_0"], env.rewards["player_1"]) if over else (0.0, 0.0)
            assert tuple(batch.rewards[g].tolist()) == expected, where
            if over:
                final = env.observe(movers[g])["observation"]
                np.testing.assert_array_equal(batch.final_observation[g], final, err_msg=where)
                assert batch.episode_length[g] == env.game.ply, where
                finished += 1
                env.reset()
        _assert_current(batch, envs, f"after step {step}")
    return finished


def _assert_current(batch, envs, where="after reset") -> None:
    for g, env in enumerate(envs):
        agent = env.agent_selection
        obs = env.observe(agent)
        assert batch.to_move[g] == env.possible_agents.index(agent), f"{where}, game {g}"
        np.testing.assert_array_equal(
            batch.action_mask[g], obs["action_mask"], err_msg=f"{where}, game {g} mask"
        )
        np.testing.assert_array_equal(
            batch.observation[g], obs["observation"], err_msg=f"{where}, game {g} obs"
        )
