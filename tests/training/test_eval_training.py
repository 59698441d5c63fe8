"""The learned-evaluation trainer (`hive_envs.training.eval_training`) with a tiny config: its outputs,
--resume, the run lock, a failed start taken back; its targets and config checks."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hive_envs.agents.eval_checkpoint import load_eval_checkpoint
from hive_envs.core.alphabeta import WIN_SCORE
from hive_envs.evaluation.provenance import git_commit
from hive_envs.hive import HiveGame
from hive_envs.hive.search.eval_features import HIVE_FEATURES
from hive_envs.hoyito import HoyitoGame
from hive_envs.players import PlayerContext, make_player
from hive_envs.training import eval_curve, eval_training
from hive_envs.training.eval_config import config_from_dict, load_config
from hive_envs.training.eval_targets import fit_scale, score_probability, targets
from hive_envs.training.run_dir import run_lock

TINY = {
    "generations": 1,
    "games_per_generation": 2,
    "play_depth": 1,
    "opening_plies_min": 4,
    "opening_plies_max": 6,
    "workers": 1,
    "epochs": 1,
    "batch_size": 64,
    "eval_games": 0,
    "time_limit_minutes": 0,
    "game_options": {"max_turns": 60},
}


def tiny(tmp_path, **keys):
    return load_config("experiments/hive_eval", {**TINY, "runs_dir": str(tmp_path), "name": "tiny", **keys})


def test_a_run_writes_checkpoints_data_and_progress_that_a_player_reads(tmp_path):
    summary = eval_training.train(tiny(tmp_path))
    run = tmp_path / "tiny"
    assert summary["generations"] == 1 and summary["positions"] > 0
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["gen_0001.pt", "latest.pt"]
    assert (run / "data" / "gen_0000.npz").is_file()
    assert list(run.glob("events.out.tfevents.*"))
    (line,) = [json.loads(text) for text in (run / "progress.jsonl").read_text().splitlines()]
    assert line["generation"] == 1 and line["positions"] == summary["positions"]
    assert {"train", "validation", "validation_hand", "scale", "mean_plies", "draws"} <= line.keys()
    assert line["code_commit"] == git_commit()[0]  # the code the generation ran
    assert line["mean_plies"] > line["positions"] / 2  # the openings' plies counted too
    data = load_eval_checkpoint(run / "checkpoints" / "latest.pt", game="hive", features=HIVE_FEATURES)
    assert data["generation"] == 1 and data["config"]["play_depth"] == 1
    player = make_player(
        f"alphabeta:1,eval=learned:{run / 'checkpoints' / 'latest.pt'}", PlayerContext("hive")
    )
    game = HiveGame()
    assert player.choose(game) in game.legal_move_ids()
    assert not (run / ".lock").exists()
    out, picture = tmp_path / "curve.json", tmp_path / "curve.png"
    arguments = [str(run), "--games", "2", "--move-time", "0", "--depth", "1", "--workers", "1"]
    assert eval_curve.main([*arguments, "--out", str(out), "--plot", str(picture)]) == 0
    (point,) = json.loads(out.read_text())["points"]
    assert point["generation"] == 1 and point["wins"] + point["draws"] + point["losses"] == 2
    assert point["training_seconds"] == line["elapsed_s"] and picture.stat().st_size > 0


def test_resume_continues_with_the_next_generation_and_a_used_folder_needs_resume_or_overwrite(tmp_path):
    eval_training.train(tiny(tmp_path))
    with pytest.raises(ValueError, match="already holds a run"):
        eval_training.train(tiny(tmp_path, generations=2))
    summary = eval_training.train(tiny(tmp_path, generations=2, score_weight=0.4), resume=True)
    run = tmp_path / "tiny"
    assert summary["generations"] == 2
    lines = [json.loads(text) for text in (run / "progress.jsonl").read_text().splitlines()]
    assert [line["generation"] for line in lines] == [1, 2]
    assert [line["score_weight"] for line in lines] == [0.7, 0.4]  # each generation's targets' mix
    assert sorted(p.name for p in (run / "data").iterdir()) == ["gen_0000.npz", "gen_0001.npz"]
    assert load_eval_checkpoint(run / "checkpoints" / "latest.pt")["generation"] == 2
    with pytest.raises(ValueError, match="width 8"):  # another network cannot continue this one
        eval_training.train(tiny(tmp_path, generations=3, width=8), resume=True)
    eval_training.train(tiny(tmp_path), overwrite=True)
    assert [json.loads(t)["generation"] for t in (run / "progress.jsonl").read_text().splitlines()] == [1]
    assert sorted(p.name for p in (run / "data").iterdir()) == ["gen_0000.npz"]


def test_a_locked_run_folder_is_refused(tmp_path):
    with run_lock(tmp_path / "tiny"), pytest.raises(ValueError, match="is in use by"):
        eval_training.train(tiny(tmp_path))
    assert not (tmp_path / "tiny" / "checkpoints").exists()


def test_a_start_that_fails_before_its_first_generation_ends_leaves_no_run(tmp_path, monkeypatch):
    def fails(*args, **kwargs):
        raise RuntimeError("the machine went away")

    monkeypatch.setattr(eval_training, "train_generation", fails)
    with pytest.raises(RuntimeError, match="went away"):
        eval_training.train(tiny(tmp_path))
    assert not (tmp_path / "tiny").exists()


def test_main_reports_a_bad_key_as_an_error_line(tmp_path, capsys):
    assert eval_training.main(["--config", "experiments/hive_eval", "--score_weight", "2"]) == 2
    assert "score_weight" in capsys.readouterr().err


@pytest.mark.parametrize(
    "keys, message",
    [
        ({"opening_plies_min": 5, "opening_plies_max": 4}, "opening_plies_max"),
        ({"eval_games": 3}, "an even number"),
        ({"game": "chess"}, "game"),
        ({"play_depth": 0}, "play_depth"),
    ],
)
def test_bad_config_values_are_refused_naming_the_key(keys, message):
    with pytest.raises(ValueError, match=message):
        config_from_dict(keys)


def test_a_game_without_a_learned_evaluation_is_refused_before_anything_is_written(tmp_path):
    config = config_from_dict({"game": "aec", "runs_dir": str(tmp_path), "name": "x"})
    with pytest.raises(ValueError, match="aec has no alpha-beta search with a learned evaluation"):
        eval_training.train(config)
    assert not (tmp_path / "x").exists()


def test_hoyito_trains_by_the_same_method(tmp_path):
    config = load_config(
        "experiments/hoyito_eval",
        {
            **TINY,
            "runs_dir": str(tmp_path),
            "name": "h",
            "games_per_generation": 4,
            "game_options": {"holes_per_row": 6},
        },
    )
    summary = eval_training.train(config)
    latest = tmp_path / "h" / "checkpoints" / "latest.pt"
    assert summary["generations"] == 1 and load_eval_checkpoint(latest)["features"] == "hoyito/holes-v1"
    player = make_player(f"alphabeta:4,eval=learned:{latest}", PlayerContext("hoyito"))
    assert player.choose(HoyitoGame()) in HoyitoGame().legal_move_ids()


def test_the_fitted_scale_recovers_the_one_that_made_the_results():
    rng = np.random.default_rng(0)
    score = rng.integers(-600, 600, 20000)
    won = rng.random(score.size) < 1 / (1 + np.exp(-0.5 * score / 100))
    result = np.where(won, 1, -1).astype(np.int8)
    assert fit_scale(score, result) == pytest.approx(0.5, rel=0.1)


def test_the_target_mixes_the_score_s_probability_with_the_result():
    score = np.array([0, 0, WIN_SCORE - 3, -(WIN_SCORE - 5)])
    result = np.array([1, -1, 0, 0], dtype=np.int8)
    np.testing.assert_allclose(score_probability(score, 1.0), [0.5, 0.5, 1.0, 0.0])
    np.testing.assert_allclose(targets(score, result, 1.0, 0.7), [0.65, 0.35, 0.85, 0.15])
