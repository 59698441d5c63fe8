"""Opponent strings: a checkpoint path works without `import hive_envs.agents`, and
`import hive_envs` (with every env made) never imports torch."""

import subprocess
import sys
import textwrap

import pytest


def run_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_import_hive_envs_and_making_envs_never_imports_torch():
    out = run_python(
        """
        import sys
        import gymnasium as gym
        import hive_envs
        from hive_envs import hive_v0, hoyito_v0
        for env_id in ("hive_envs/Hive-v0", "hive_envs/Hoyito-v0"):
            env = gym.make(env_id, opponent="greedy")
            env.reset(seed=0)
        hive_v0.env().reset(seed=0)
        hoyito_v0.env().reset(seed=0)
        gym.make("hive_envs/Hive-v0", rule_features=True, reward_shaping="queen_margin").reset(seed=0)
        print(sorted(m for m in sys.modules if m == "torch" or m.startswith(("torch.", "hive_envs.agents"))))
        """
    )
    assert out.strip() == "[]"


def test_checkpoint_path_opponent_works_without_importing_hive_envs_agents(tmp_path):
    pytest.importorskip("torch")
    path = tmp_path / "c.pt"
    run_python(
        f"""
        import gymnasium as gym
        import hive_envs
        from hive_envs.agents import save_checkpoint
        from hive_envs.agents.network_kinds import build_network
        env = gym.make("hive_envs/Hoyito-v0")
        shape, n = env.observation_space.shape, int(env.action_space.n)
        net = {{"kind": "mlp", "hidden_sizes": [8]}}
        save_checkpoint({str(path)!r}, {{
            "game": "hoyito", "game_options": {{}}, "encoding_version": "v0",
            "observation_shape": shape, "num_actions": n, "network": net,
            "model": build_network(net, shape, n).state_dict(), "global_step": 0, "update": 0,
        }})
        """
    )
    out = run_python(
        f"""
        import sys
        import gymnasium as gym
        import hive_envs
        assert "hive_envs.agents" not in sys.modules
        env = gym.make("hive_envs/Hoyito-v0", opponent={str(path)!r}, learner_seat=1)
        obs, info = env.reset(seed=0)
        mask = env.unwrapped.action_masks()
        env.step(int(mask.nonzero()[0][0]))
        print("ok")
        """
    )
    assert out.strip() == "ok"
