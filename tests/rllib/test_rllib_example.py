"""examples/rllib_ppo_hive.py: the flattened, masked observation RLlib's action-masking module reads,
and that module's argmax playing whole legal games through the examples' evaluation (no Ray started);
the whole script, training included, under ``-m slow``."""

import json

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed (pip install 'hive_envs[rllib]')")
pytest.importorskip("sb3_contrib", reason="the examples' evaluation is shared with the SB3 examples")

from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

from tests.integrations.test_sb3_maskable_ppo import load_example


@pytest.fixture(scope="module")
def example():
    return load_example("rllib_ppo_hive")


def test_observation_holds_the_planes_and_the_mask_of_each_position(example):
    env = example.make_env(seed=0)
    inner = env.unwrapped
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    for _ in range(60):
        assert env.observation_space.contains(obs)
        mask = inner.action_masks()
        np.testing.assert_array_equal(obs["action_mask"], mask.astype(np.float32))
        planes = inner.observation_of(inner.aec.game)
        np.testing.assert_allclose(
            obs["observations"], planes.reshape(-1) / inner.observation_space.high.reshape(-1)
        )
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            obs, _ = env.reset()


def test_the_default_module_argmax_plays_whole_legal_games(example):
    env = example.make_env(seed=1)
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        observation_space=env.observation_space,
        action_space=env.action_space,
    ).build()
    policy = example.ModulePolicy(module, env)
    (result,) = example.evaluate(policy, env, games=2, seed=1, opponents=("random",), name="rllib")
    assert result.games == 2 and result.wins + result.draws + result.losses == 2
    assert list(result.forfeits) == [0, 0]  # an illegal move would forfeit


@pytest.mark.slow
def test_the_script_trains_evaluates_and_writes_its_report(example, tmp_path):
    out = tmp_path / "report.json"
    assert example.main(["--minutes", "0.01", "--eval-games", "2", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["learner_steps"] >= 2048 and report["plies"] > report["learner_steps"]
    assert [m["opponent"] for m in report["evaluation"]["matches"]] == ["random", "greedy"]
