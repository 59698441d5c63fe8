"""The script's bad-input paths with Ray installed: an unreachable --address fails fast, bad game
options fail before any Ray process starts."""

import time

import pytest

pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed (pip install 'hive_envs[rllib]')")

import ray

from hive_envs.training import rllib_selfplay
from hive_envs.training.rllib.config import RLlibConfig
from tests.rllib.test_without_ray import closed_port


def test_unreachable_address_fails_fast_with_one_clear_line(capsys, tmp_path):
    port = closed_port()
    started = time.time()
    code = rllib_selfplay.main(
        ["--address", f"127.0.0.1:{port}", "--iterations", "1", "--runs_dir", str(tmp_path)]
    )
    assert code == 2
    assert time.time() - started < 10
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: cannot reach a Ray cluster at '127.0.0.1:{port}'") and "\n" not in err
    assert not ray.is_initialized()


def test_bad_game_options_are_refused_before_building_anything():
    with pytest.raises(ValueError, match="holes_per_row"):
        rllib_selfplay.build_algorithm(RLlibConfig(game_options={"holes_per_row": 1}))
    assert not ray.is_initialized()


def test_bad_game_options_through_the_script_leave_no_ray_running(capsys, tmp_path):
    code = rllib_selfplay.main(["--game_options", "{holes_per_row: 1}", "--runs_dir", str(tmp_path)])
    assert code == 2
    assert "holes_per_row" in capsys.readouterr().err
    assert not ray.is_initialized()


def test_a_run_folder_in_use_is_refused_before_ray_starts(tmp_path):
    from hive_envs.training.run_dir import LOCK, run_lock

    config = RLlibConfig(runs_dir=str(tmp_path), iterations=1)
    run = tmp_path / config.name
    with run_lock(run):  # held by a live process (this one): a twin run of the folder
        with pytest.raises(ValueError, match="is in use by"):
            rllib_selfplay.train(config)
        assert sorted(path.name for path in run.iterdir()) == [LOCK]  # the twin wrote nothing
    assert not ray.is_initialized()
