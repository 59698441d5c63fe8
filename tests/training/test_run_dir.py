"""Training runs are never lost: a run folder is never reused silently, --resume needs a full
checkpoint, killed writes leave nothing behind on the next start, checkpoints get the user's umask."""

import os
import shutil
import stat

import pytest
import torch

from hive_envs.agents import load_checkpoint, save_checkpoint
from hive_envs.training import ppo_selfplay
from tests.agents.crafted import write_crafted_checkpoint
from tests.agents.test_checkpoint import assert_same
from tests.training.test_train_smoke import tiny_config

pytestmark = pytest.mark.usefixtures("nim_registered")


def run_files(run):
    return sorted(str(p.relative_to(run)) for p in run.rglob("*") if p.is_file())


@pytest.fixture
def finished_run(tmp_path):
    ppo_selfplay.train(tiny_config(tmp_path))
    return tmp_path / "tiny"


def test_rerunning_a_name_without_resume_is_refused_and_changes_nothing(finished_run, tmp_path):
    before = {name: (finished_run / name).read_bytes() for name in run_files(finished_run)}
    with pytest.raises(
        ValueError, match=r"already holds a run \(checkpoints/latest.pt, .*--resume.*--overwrite"
    ):
        ppo_selfplay.train(tiny_config(tmp_path, seed=2))
    assert {name: (finished_run / name).read_bytes() for name in run_files(finished_run)} == before


def test_overwrite_replaces_the_old_runs_checkpoints_and_logs(finished_run, tmp_path):
    (finished_run / "checkpoints" / "step_0000999999.pt").write_bytes(b"old")
    (finished_run / "notes.txt").write_text("mine")
    ppo_selfplay.train(tiny_config(tmp_path, total_steps=16 * 8), overwrite=True)
    names = run_files(finished_run)
    assert [n for n in names if n.startswith("checkpoints/")] == [
        "checkpoints/latest.pt",
        "checkpoints/step_0000000128.pt",
    ]
    assert len([n for n in names if n.startswith("events.out.tfevents")]) == 1
    assert "notes.txt" in names  # not a training output: kept
    assert load_checkpoint(finished_run / "checkpoints" / "latest.pt")["global_step"] == 128


def test_resume_and_overwrite_together_are_refused(finished_run, tmp_path):
    with pytest.raises(ValueError, match="--resume and --overwrite exclude each other"):
        ppo_selfplay.train(tiny_config(tmp_path), resume=True, overwrite=True)


def test_command_line_refuses_a_second_run_then_overwrites(tmp_path, capsys):
    args = ["--game", "nim", "--runs_dir", str(tmp_path), "--total_steps", "64"]
    args += ["--num_games", "8", "--final_eval_games", "0", "--eval_every", "0", "--hidden_sizes", "[8]"]
    assert ppo_selfplay.main(args) == 0
    capsys.readouterr()
    assert ppo_selfplay.main(args) == 2
    assert "already holds a run" in capsys.readouterr().err
    assert ppo_selfplay.main([*args, "--overwrite"]) == 0


def test_a_run_dir_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "tiny").write_text("")
    with pytest.raises(ValueError, match="is a file"):
        ppo_selfplay.train(tiny_config(tmp_path))


def rewrite_latest(run, change):
    latest = run / "checkpoints" / "latest.pt"
    data = load_checkpoint(latest)
    change(data)
    save_checkpoint(latest, data)
    return latest


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("train_state"), "has no train_state"),
        (lambda d: d["train_state"].pop("optimizer"), r"its train_state lacks \['optimizer'\]"),
        (lambda d: d["train_state"].update(pool=[{"x": torch.zeros(1)}]), "does not fit the network"),
        (
            lambda d: d["train_state"]["optimizer"]["param_groups"][0].update(params=[0]),
            "does not fit the network",
        ),
    ],
)
def test_resume_from_an_incomplete_checkpoint_is_a_clear_error(finished_run, tmp_path, change, message):
    latest = rewrite_latest(finished_run, change)
    before = run_files(finished_run)
    with pytest.raises(ValueError, match=f"cannot resume '{latest}': .*{message}"):
        ppo_selfplay.train(tiny_config(tmp_path, total_steps=16 * 8 * 5), resume=True)
    assert run_files(finished_run) == before


def test_resume_refuses_a_crafted_checkpoint_and_runs_nothing(finished_run, tmp_path):
    marker = tmp_path / "marker"
    write_crafted_checkpoint(finished_run / "checkpoints" / "latest.pt", marker)
    with pytest.raises(ValueError, match="was refused"):
        ppo_selfplay.train(tiny_config(tmp_path, total_steps=16 * 8 * 5), resume=True)
    assert not marker.exists()


def test_two_resumes_from_one_checkpoint_train_the_same_weights(finished_run, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(finished_run, copy / "tiny")
    for runs_dir in (tmp_path, copy):
        ppo_selfplay.train(tiny_config(runs_dir, total_steps=16 * 8 * 5), resume=True)
    a = load_checkpoint(finished_run / "checkpoints" / "latest.pt")
    b = load_checkpoint(copy / "tiny" / "checkpoints" / "latest.pt")
    assert a["update"] == b["update"] == 5
    assert_same(a["model"], b["model"])  # the whole payload differs only in runs_dir and wall time
    assert_same(a["train_state"]["optimizer"], b["train_state"]["optimizer"])
    assert_same(a["train_state"]["pool"], b["train_state"]["pool"])


@pytest.mark.parametrize("resume", [False, True])
def test_stale_temporary_files_are_removed_on_start(tmp_path, resume):
    if resume:
        ppo_selfplay.train(tiny_config(tmp_path))
    checkpoints = tmp_path / "tiny" / "checkpoints"
    checkpoints.mkdir(parents=True, exist_ok=True)
    stale = checkpoints / ".latest.pt.3f9a01b2c4d5.tmp"
    stale.write_bytes(b"\0" * 1000)
    ppo_selfplay.train(tiny_config(tmp_path, total_steps=16 * 8 * (5 if resume else 1)), resume=resume)
    assert not stale.exists()
    assert not [p for p in checkpoints.iterdir() if p.name.endswith(".tmp")]


def test_training_checkpoints_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        ppo_selfplay.train(tiny_config(tmp_path, total_steps=16 * 8))
    finally:
        os.umask(old)
    for path in (tmp_path / "tiny" / "checkpoints").iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path


def test_rllib_run_refuses_an_existing_run_before_starting_ray(tmp_path):
    pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed")
    import ray

    from hive_envs.training import rllib_selfplay
    from hive_envs.training.rllib.config import config_from_dict

    (tmp_path / "r" / "checkpoints").mkdir(parents=True)
    (tmp_path / "r" / "checkpoints" / "latest.pt").write_bytes(b"earlier run")
    config = config_from_dict({"name": "r", "runs_dir": str(tmp_path)})
    with pytest.raises(ValueError, match="already holds a run"):
        rllib_selfplay.train(config)
    assert not ray.is_initialized()
    assert (tmp_path / "r" / "checkpoints" / "latest.pt").read_bytes() == b"earlier run"


# -- every setting checked before the first write; one process per run folder ----------------------


def test_a_bad_eval_opponent_with_overwrite_is_refused_before_anything_is_deleted(finished_run, tmp_path):
    before = {name: (finished_run / name).read_bytes() for name in run_files(finished_run)}
    with pytest.raises(ValueError, match="nonsense"):
        ppo_selfplay.train(tiny_config(tmp_path, eval_opponents=["[nonsense]"]), overwrite=True)
    assert {name: (finished_run / name).read_bytes() for name in run_files(finished_run)} == before


def test_a_bad_eval_opponent_of_a_new_run_writes_nothing(tmp_path):
    with pytest.raises(ValueError, match="nonsense"):
        ppo_selfplay.train(tiny_config(tmp_path, eval_opponents=["random", "nonsense"]))
    assert not (tmp_path / "tiny").exists()


def test_a_run_folder_in_use_by_a_live_process_is_refused_and_left_alone(tmp_path):
    import subprocess
    import sys

    from hive_envs.training.run_dir import LOCK

    run = tmp_path / "tiny"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from pathlib import Path; from hive_envs.training.run_dir import run_lock\n"
            + f"with run_lock(Path({str(run)!r})):\n    print('held', flush=True); input()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(ValueError, match=rf"is in use by process {holder.pid} \(lock file"):
            ppo_selfplay.train(tiny_config(tmp_path))
        assert run_files(run) == [LOCK]  # the twin wrote nothing
    finally:
        holder.communicate("\n", timeout=30)
    assert run_files(run) == []  # released at the end of the holder's block
    ppo_selfplay.train(tiny_config(tmp_path, total_steps=16 * 8))


def test_a_stale_lock_of_a_dead_process_is_taken_over(tmp_path):
    import socket
    import subprocess
    import sys

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    )
    run = tmp_path / "tiny"
    run.mkdir()
    (run / ".lock").write_text(f"{dead.stdout.strip()} {socket.gethostname()}\n")
    ppo_selfplay.train(tiny_config(tmp_path, total_steps=16 * 8))
    assert not (run / ".lock").exists()
    assert load_checkpoint(run / "checkpoints" / "latest.pt")["global_step"] == 128


@pytest.mark.parametrize(
    ("content", "message"),
    [("1 another-host\n", r"process 1 on host 'another-host'"), ("", "an unreadable lock")],
)
def test_a_lock_that_cannot_be_checked_is_refused(tmp_path, content, message):
    run = tmp_path / "tiny"
    run.mkdir()
    (run / ".lock").write_text(content)
    with pytest.raises(ValueError, match=f"is in use by {message}"):
        ppo_selfplay.train(tiny_config(tmp_path))
    assert run_files(run) == [".lock"]


# -- a config file runs no command unless the user says so -----------------------------------------


@pytest.mark.parametrize("key", ["teacher", "pool_players", "eval_opponents"])
def test_a_config_file_naming_a_command_is_refused_unless_trusted(tmp_path, capsys, key):
    config = tmp_path / "c.yaml"
    value = "'uhp:touch MARKER'" if key == "teacher" else "['random', 'uhp:touch MARKER']"
    config.write_text(f"game: hoyito\nruns_dir: {tmp_path}\n{key}: {value}\n")
    assert ppo_selfplay.main(["--config", str(config)]) == 2
    assert (
        f"config key {key!r} names the player 'uhp:touch MARKER', which runs a command"
        in capsys.readouterr().err
    )
    assert not (tmp_path / "run").exists()
    for trusted in (
        ["--trust-commands"],
        [f"--{key}", "uhp:touch MARKER" if key == "teacher" else "[uhp:touch MARKER]"],
    ):
        assert ppo_selfplay.main(["--config", str(config), *trusted]) == 2
        err = capsys.readouterr().err
        assert "UHP engines play Hive" in err and "runs a command" not in err  # past the trust check
