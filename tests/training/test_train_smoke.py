"""Smoke tests of the training script: tiny runs write checkpoints that load and play legal
moves, --resume continues the step count, and PPO really learns the toy game (Nim)."""

import json
import sys

import numpy as np
import pytest
import torch

from hive_envs.agents import load_checkpoint, load_policy
from hive_envs.training import ppo_selfplay
from hive_envs.training.config import config_from_dict
from hive_envs.training.game_lookup import make_batch
from tests.nim import NIM

TOY = NIM.name  # the toy game, added by its definition (the nim_registered fixture)
pytestmark = pytest.mark.usefixtures("nim_registered")


def tiny_config(tmp_path, **overrides):
    values = {
        "name": "tiny",
        "runs_dir": str(tmp_path),
        "game": TOY,
        "num_games": 16,
        "rollout_steps": 8,
        "total_steps": 16 * 8 * 3,
        "hidden_sizes": [16],
        "checkpoint_every": 2,
        "eval_every": 2,
        "eval_games": 8,
        "final_eval_games": 8,
        "pool_add_every": 1,
        "pool_share": 0.25,
        "num_threads": 1,
        "device": "cpu",
    }
    values.update(overrides)
    return config_from_dict(values)


def play_legal_moves_only(path, game, game_options, games=8, plies=200):
    """Let the checkpoint pick every move in a batch of games; each pick must be legal."""
    policy = load_policy(path, seed=0)
    batch = make_batch(game, games, game_options)
    batch.reset(seed=0)
    for _ in range(plies):
        actions = np.array([policy(batch.observation[g], batch.action_mask[g]) for g in range(games)])
        assert batch.action_mask[np.arange(games), actions].all()
        batch.step(actions)


def test_tiny_run_writes_checkpoints_that_play_legal_moves(tmp_path):
    summary = ppo_selfplay.train(tiny_config(tmp_path))
    run = tmp_path / "tiny"
    names = sorted(p.name for p in (run / "checkpoints").iterdir())
    assert names == ["latest.pt", "step_0000000256.pt", "step_0000000384.pt"]
    data = load_checkpoint(run / "checkpoints" / "latest.pt", game=TOY)
    assert (data["global_step"], data["update"]) == (384, 3)
    assert data["config"]["num_games"] == 16 and data["encoding_version"] == "v0"
    assert json.loads((run / "final_eval.json").read_text())["final_eval"][0]["games"] == 8
    assert summary["global_step"] == 384
    assert any(p.name.startswith("events.out.tfevents") for p in run.iterdir())
    play_legal_moves_only(run / "checkpoints" / "latest.pt", TOY, {})


def test_resume_continues_the_step_count(tmp_path):
    ppo_selfplay.train(tiny_config(tmp_path))
    summary = ppo_selfplay.train(tiny_config(tmp_path, total_steps=16 * 8 * 5), resume=True)
    assert (summary["global_step"], summary["update"]) == (640, 5)
    data = load_checkpoint(tmp_path / "tiny" / "checkpoints" / "latest.pt")
    assert (data["global_step"], data["update"]) == (640, 5)


def test_resume_refuses_a_different_network(tmp_path):
    ppo_selfplay.train(tiny_config(tmp_path))
    with pytest.raises(ValueError, match="cannot resume"):
        ppo_selfplay.train(tiny_config(tmp_path, hidden_sizes=[32]), resume=True)


def test_resume_without_a_checkpoint_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        ppo_selfplay.train(tiny_config(tmp_path), resume=True)


def test_command_line_reports_a_bad_key_and_writes_nothing(tmp_path, capsys):
    code = ppo_selfplay.main(["--runs_dir", str(tmp_path), "--num_gmes", "3"])
    assert code == 2
    assert "unknown config key 'num_gmes'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_ppo_learns_nim(tmp_path):
    """Perfect Nim play leaves a multiple of 4; after a short run the argmax policy does so
    from (nearly) every winning position and beats random nearly always."""
    torch.manual_seed(0)
    config = tiny_config(
        tmp_path,
        num_games=64,
        rollout_steps=16,
        total_steps=50_000,
        hidden_sizes=[64, 64],
        learning_rate=0.003,
        eval_every=0,
        checkpoint_every=100,
        final_eval_games=200,
        pool_add_every=5,
    )
    summary = ppo_selfplay.train(config)
    policy = load_policy(tmp_path / "tiny" / "checkpoints" / "latest.pt", greedy=True)
    winning = [s for s in range(1, 11) if s % 4 != 0]
    correct = sum(policy(np.eye(11, dtype=np.uint8)[s], np.arange(1, 4) <= s) == s % 4 - 1 for s in winning)
    assert correct >= len(winning) - 1
    vs_random = summary["final_eval"][0]
    assert vs_random["opponent"] == "random" and vs_random["win_rate"] >= 0.85


def test_script_runs_from_the_command_line(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["ppo_selfplay.py"])
    assert (
        ppo_selfplay.main(
            [
                "--game",
                TOY,
                "--runs_dir",
                str(tmp_path),
                "--total_steps",
                "64",
                "--num_games",
                "8",
                "--final_eval_games",
                "4",
                "--eval_games",
                "4",
                "--hidden_sizes",
                "[8]",
                "--device",
                "cpu",
            ]
        )
        == 0
    )
    assert (tmp_path / "run" / "checkpoints" / "latest.pt").is_file()


def test_shaping_on_a_game_without_potentials_is_refused_before_anything_is_written(tmp_path):
    with pytest.raises(ValueError, match="reports potentials"):
        ppo_selfplay.train(tiny_config(tmp_path, shaping_coef=1.0))
    assert not (tmp_path / "tiny").exists()


def test_the_time_budget_stops_before_an_update_that_would_cross_it(tmp_path, monkeypatch):
    """Each update is made to look an hour long: with a 60-minute budget the first runs (no update
    timed yet) and the second would end past the budget, so the run stops after one."""
    from hive_envs.training.budget import TimeBudget

    record = TimeBudget.record
    monkeypatch.setattr(TimeBudget, "record", lambda self, kind, seconds: record(self, kind, 3600.0))
    summary = ppo_selfplay.train(tiny_config(tmp_path, time_limit_minutes=60.0, final_eval_games=0))
    assert summary["update"] == 1 and summary["train_seconds"] < 3600.0


def test_a_run_ends_with_its_folder_and_the_next_commands_and_a_full_bar(tmp_path, capsys):
    ppo_selfplay.train(tiny_config(tmp_path))
    captured = capsys.readouterr()
    run = tmp_path / "tiny"
    last = captured.out.rstrip("\n").splitlines()[-4:]
    assert last[0] == f"Run folder: {run}/ (checkpoints/, final_eval.json, TensorBoard logs); next:"
    assert last[1] == f"  evaluate:    hive-evaluate {run}/checkpoints/latest.pt --games 400"
    assert last[2] == f"  play:        hive-play {TOY} --agent {run}/checkpoints/latest.pt"
    assert last[3] == f"  TensorBoard: tensorboard --logdir {run}"
    assert "100%" in captured.err.replace("\r", "\n").splitlines()[-1]  # the bar's last state


def test_a_time_limited_run_ends_its_bar_at_100_percent(tmp_path, capsys, monkeypatch):
    from hive_envs.training.budget import TimeBudget

    record = TimeBudget.record
    monkeypatch.setattr(TimeBudget, "record", lambda self, kind, seconds: record(self, kind, 3600.0))
    ppo_selfplay.train(tiny_config(tmp_path, time_limit_minutes=60.0, final_eval_games=0))
    bar = capsys.readouterr().err.replace("\r", "\n").splitlines()[-1]
    assert "100%" in bar and "128/128" in bar  # one update of 128 steps, of total_steps 384


def test_resume_says_what_is_left_and_refuses_when_nothing_is(tmp_path, capsys):
    ppo_selfplay.train(tiny_config(tmp_path, time_limit_minutes=600.0))
    ppo_selfplay.train(tiny_config(tmp_path, time_limit_minutes=600.0, total_steps=16 * 8 * 4), resume=True)
    assert "resuming at step 384: " in capsys.readouterr().out
    latest = tmp_path / "tiny" / "checkpoints" / "latest.pt"
    before = latest.read_bytes()
    code = ppo_selfplay.main(
        [
            "--runs_dir",
            str(tmp_path),
            "--name",
            "tiny",
            "--game",
            TOY,
            "--resume",
            "--num_games",
            "16",
            "--rollout_steps",
            "8",
            "--total_steps",
            "512",
            "--hidden_sizes",
            "[16]",
            "--device",
            "cpu",
        ]
    )
    assert code == 2
    assert "nothing left to train: the run is at step 512 of total_steps 512" in capsys.readouterr().err
    assert latest.read_bytes() == before
