"""SB3-contrib's MaskablePPO trains on `Hoyito-v0` through `action_masks()`, never playing an
illegal move, and the example's evaluation plays its games (examples/sb3_maskable_ppo_hoyito.py)."""

import importlib.util
from pathlib import Path

import gymnasium as gym
import pytest

pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (pip install 'hive_envs[sb3]')")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str = "sb3_maskable_ppo_hoyito"):
    """The script examples/<name>.py as a module."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class LegalityAudit(gym.Wrapper):
    """Counts the actions stepped and those the env's mask called illegal when they were chosen."""

    def __init__(self, env):
        super().__init__(env)
        self.steps = 0
        self.illegal = 0

    def action_masks(self):
        return self.env.unwrapped.action_masks()

    def step(self, action):
        self.steps += 1
        self.illegal += int(not self.env.unwrapped.action_masks()[int(action)])
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.illegal += int(bool(info.get("illegal_action")))
        return obs, reward, terminated, truncated, info


def test_maskable_ppo_trains_a_few_thousand_steps_without_illegal_actions():
    example = load_example()
    env = LegalityAudit(example.make_env(seed=0))
    model = example.build(seed=0, n_steps=512, env=env)
    model.learn(total_timesteps=3072)
    assert env.steps >= 3072
    assert env.illegal == 0
    results = example.evaluate(model, example.make_env(seed=1), games=4, seed=1)
    assert [r.opponent for r in results] == ["random", "greedy"]
    assert all(r.wins + r.draws + r.losses == 4 for r in results)
