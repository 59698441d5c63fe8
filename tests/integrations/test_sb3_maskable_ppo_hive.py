"""The SB3 Hive example (examples/sb3_maskable_ppo_hive.py): MaskablePPO trains a few thousand steps
on the rule-feature observation with reward shaping, never plays an illegal move, and its
evaluation plays whole games; the policy's logits do not depend on how a batch is padded. On the
piece observation (``observation="pieces"``) it trains too, and the policy's logits and value are
the ``hive_pieces`` network's."""

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


def random_positions(env, count: int, plies_between: int, seed: int):
    """``count`` (observation, action mask) pairs of the learner's, ``plies_between`` random learner
    moves apart (new games as games end)."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    positions = []
    while len(positions) < count:
        for _ in range(plies_between):
            obs, _, terminated, truncated, _ = env.step(
                int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))
            )
            if terminated or truncated:
                obs, _ = env.reset()
        positions.append((obs, env.unwrapped.action_masks().astype(bool)))
    return positions


def test_maskable_ppo_trains_on_the_piece_observation_without_illegal_actions(one_torch_thread):
    example = load_example("sb3_maskable_ppo_hive")
    envs = [LegalityAudit(example.make_env(seed=i, observation="pieces")) for i in range(2)]
    assert envs[0].observation_space.shape == (23, 17) and "rule_features" not in envs[0].spec.kwargs
    model = example.build(
        DummyVecEnv([lambda e=e: e for e in envs]), seed=0, n_steps=256, observation="pieces"
    )
    model.learn(total_timesteps=1024)
    assert sum(e.steps for e in envs) >= 1024
    assert sum(e.illegal for e in envs) == 0
    (result,) = example.evaluate(
        model, example.make_env(seed=1, observation="pieces"), games=2, seed=1, opponents=("random",)
    )
    assert result.games == 2 and result.wins + result.draws + result.losses == 2


def test_pieces_policy_logits_and_value_are_the_hive_pieces_networks():
    example = load_example("sb3_maskable_ppo_hive")
    env = example.make_env(seed=4, observation="pieces")
    policy = example.build(env, seed=0, observation="pieces").policy
    generator = torch.Generator().manual_seed(4)
    with torch.no_grad():  # weights far from the near-uniform start: logits of order 1, all different
        for parameter in policy.network.parameters():
            parameter.copy_(torch.randn(parameter.shape, generator=generator) * 0.3)
    observations, masks = zip(*random_positions(env, count=8, plies_between=5, seed=4))
    masks = np.stack(masks)
    sb3_obs, _ = policy.obs_to_tensor(np.stack(observations))  # as SB3 hands them over: int16
    with torch.no_grad():
        dense, value = policy.network(torch.as_tensor(np.stack(observations)))  # the env's arrays as they are
        unmasked, unmasked_value = policy.logits_and_values(sb3_obs)
        listed, listed_value = policy.logits_and_values(sb3_obs, masks)
        probabilities = policy.get_distribution(sb3_obs, masks).distribution.probs
        predicted = policy.predict_values(sb3_obs)
    legal = torch.as_tensor(masks)
    assert dense[legal].std() > 0.5
    torch.testing.assert_close(unmasked, dense)
    torch.testing.assert_close(listed[legal], dense[legal])
    torch.testing.assert_close(probabilities, torch.softmax(dense.masked_fill(~legal, -torch.inf), dim=1))
    for values in (unmasked_value, listed_value, predicted):
        torch.testing.assert_close(values, value.unsqueeze(1))
