"""The Gymnasium envs' ``rule_features=True`` observation (`hive_envs.hive.feature_observation`).

The env computes the features from its engine state; the network's extractor (`HiveRuleFeatures`)
from the decoded observation planes. Both must give the same (action -> features) map and the same
position features for every position of seeded games, and the listed actions must be exactly the
mask's legal ones.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import hive_envs  # noqa: F401
from hive_envs.hive.agent.features import HiveRuleFeatures
from hive_envs.hive.engine.movegen import MAX_MOVES
from hive_envs.hive.feature_observation import SLOTS

MAX_TURNS = 120


def as_map(actions: np.ndarray, features: np.ndarray) -> dict[int, tuple]:
    real = features[:, 0] > 0
    return dict(zip(actions[real].tolist(), map(tuple, features[real].tolist())))


def assert_matches_the_network_features(obs: dict, mask: np.ndarray, extractor: HiveRuleFeatures) -> None:
    actions, features, position = extractor(obs["observation"][None])
    got = as_map(obs["legal_actions"], obs["action_features"])
    assert got == as_map(actions[0], features[0])
    assert set(got) == set(np.flatnonzero(mask).tolist())
    np.testing.assert_array_equal(obs["position_features"], position[0])
    count = len(got)
    assert (obs["legal_actions"][count:] == extractor.encoding.num_actions).all()
    assert not obs["action_features"][count:].any()


@pytest.mark.parametrize("expansions", ["", "MLP"])
def test_gym_features_equal_the_networks_on_every_position(expansions):
    env = gym.make(
        "hive_envs/Hive-v0", expansions=expansions, max_turns=MAX_TURNS, rule_features=True,
        opponent="greedy", learner_seat="random",
    )  # fmt: skip
    extractor = HiveRuleFeatures(expansions, tournament_opening=True, max_turns=MAX_TURNS)
    rng = np.random.default_rng(1)
    positions = 0
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            assert env.observation_space.contains(obs)
            mask = env.unwrapped.action_masks()
            assert_matches_the_network_features(obs, mask, extractor)
            positions += 1
            obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert (obs["legal_actions"] == env.action_space.n).all(), "a finished game: no decision"
        assert not obs["action_features"].any() and not obs["position_features"].any()
    assert positions > 50


def test_space_layout_and_check_env():
    env = gym.make("hive_envs/Hive-v0", rule_features=True)
    space = env.observation_space
    assert SLOTS == MAX_MOVES
    assert set(space.spaces) == {"observation", "legal_actions", "action_features", "position_features"}
    assert space["observation"] == gym.make("hive_envs/Hive-v0").observation_space
    assert space["legal_actions"].shape == (SLOTS,) and space["legal_actions"].dtype == np.int64
    assert space["action_features"].shape == (SLOTS, 11) and space["position_features"].shape == (5,)
    check_env(env.unwrapped, skip_render_check=True)


def test_make_vec_features_equal_the_networks_and_final_observations_are_dicts():
    n = 4
    vec = gym.make_vec(
        "hive_envs/HiveMLP-v0", num_envs=n, max_turns=MAX_TURNS, rule_features=True, opponent="greedy",
        learner_seat="random",
    )  # fmt: skip
    extractor = HiveRuleFeatures("MLP", tournament_opening=True, max_turns=MAX_TURNS)
    obs, _ = vec.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(80):
        masks = vec.unwrapped.action_masks()
        for g in range(n):
            assert_matches_the_network_features({k: v[g] for k, v in obs.items()}, masks[g], extractor)
        assert vec.observation_space.contains(obs)
        obs, _, terminated, _, info = vec.step((rng.random(masks.shape) * masks).argmax(axis=1))
        final = info["final_obs"]
        assert set(final) == set(obs) and (final["legal_actions"] == vec.single_action_space.n).all()
        ended += terminated.sum()
    assert ended > 0


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: gym.make("hive_envs/Hoyito-v0", rule_features=True), "rule_features"),
        (lambda: gym.make_vec("hive_envs/Hoyito-v0", num_envs=2, rule_features=True), "rule_features"),
        (lambda: gym.make("hive_envs/Hive-v0", rule_features="yes"), "rule_features"),
        (lambda: gym.make_vec("hive_envs/Hive-v0", num_envs=2, rule_features=1), "rule_features"),
    ],
)
def test_bad_rule_features_option_raises_naming_it(make, match):
    with pytest.raises(ValueError, match=match):
        make()
