"""The SB3 Hive example (examples/sb3_maskable_ppo_hive.py): MaskablePPO trains a few thousand steps
on the rule-feature observation with reward shaping, never plays an illegal move, and its
evaluation plays whole games; the policy's logits do not depend on how a batch is padded."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (pip install 'hive_envs[sb3]')")

import torch
from stable_baselines3.common.vec_env import DummyVecEnv

from tests.integrations.test_sb3_maskable_ppo import LegalityAudit, load_example


@pytest.fixture
def one_torch_thread():
    """Small networks on a shared 2-core CI machine: a second thread only waits for the first."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.slow  # run alone with -m slow: minutes of the default suite
def test_maskable_ppo_trains_a_few_thousand_steps_on_hive_and_evaluates(one_torch_thread):
    example = load_example("sb3_maskable_ppo_hive")
    envs = [LegalityAudit(example.make_env(seed=i)) for i in range(2)]
    model = example.build(DummyVecEnv([lambda e=e: e for e in envs]), seed=0, n_steps=512)
    model.learn(total_timesteps=2048)
    assert sum(e.steps for e in envs) >= 2048
    assert sum(e.illegal for e in envs) == 0
    (result,) = example.evaluate(model, example.make_env(seed=1), games=2, seed=1, opponents=("random",))
    assert result.games == 2 and result.wins + result.draws + result.losses == 2


def test_logits_of_a_position_do_not_depend_on_the_batch_padding():
    example = load_example("sb3_maskable_ppo_hive")
    env = example.make_env(seed=3)
    extractor = example.RuleFeatureExtractor(env.observation_space)
    rng = np.random.default_rng(3)
    observations = []
    obs, _ = env.reset(seed=3)
    for _ in range(12):  # positions with different numbers of legal moves
        observations.append(obs)
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.unwrapped.action_masks()))))
        if done:
            obs, _ = env.reset()
    batch = {k: torch.as_tensor(np.stack([o[k] for o in observations])).float() for k in observations[0]}
    with torch.no_grad():
        together = extractor(batch)
        alone = torch.cat([extractor({k: v[i : i + 1] for k, v in batch.items()}) for i in range(12)])
    torch.testing.assert_close(together, alone)
    widths = {int((o["action_features"][:, 0] > 0).sum()) for o in observations}
    assert len(widths) > 1
