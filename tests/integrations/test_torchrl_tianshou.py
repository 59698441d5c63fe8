"""Our AEC envs work as-is under TorchRL's and Tianshou's PettingZoo wrappers: a whole game of
masked random play ends normally (no illegal move) with zero-sum final rewards. Skipped where the
library is not installed (neither is a dependency of the project)."""

import numpy as np
import pytest

from hive_envs import hoyito_v0


def test_torchrl_pettingzoo_wrapper_plays_a_hoyito_game_with_masks():
    pytest.importorskip("torchrl", reason="torchrl is not installed")
    from torchrl.envs import PettingZooWrapper

    env = PettingZooWrapper(env=hoyito_v0.env(), use_mask=True, categorical_actions=True)
    assert env.group_map == {"player_0": ["player_0"], "player_1": ["player_1"]}
    env.set_seed(0)
    rollout = env.rollout(2000, break_when_any_done=True)  # random actions drawn from the masked spec
    for group in ("player_0", "player_1"):
        acted = rollout[group, "mask"].squeeze(-1)  # the agent to move at each step
        actions = rollout[group, "action"].squeeze(-1)
        masks = rollout[group, "action_mask"].squeeze(1)
        assert masks[acted, :].gather(-1, actions[acted].unsqueeze(-1)).all()  # only legal moves played
    assert rollout["next", "done"].any()
    final = [float(rollout["next", group, "reward"][-1].sum()) for group in ("player_0", "player_1")]
    assert sorted(final) in ([-1.0, 1.0], [0.0, 0.0])


def test_tianshou_pettingzoo_env_plays_a_hoyito_game_with_masks():
    pytest.importorskip("tianshou", reason="tianshou is not installed")
    from tianshou.env import PettingZooEnv

    env = PettingZooEnv(hoyito_v0.env())
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    plies, terminated, truncated = 0, False, False
    while not (terminated or truncated):
        legal = np.flatnonzero(obs["mask"])
        assert legal.size, "the agent to move always has a legal move"
        obs, rewards, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        plies += 1
    assert plies > 10
    assert sorted(np.asarray(rewards, dtype=float).tolist()) in ([-1.0, 1.0], [0.0, 0.0])
