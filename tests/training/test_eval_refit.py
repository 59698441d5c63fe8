"""A learned evaluation fitted afresh to a run's stored data (`hive_envs.training.eval_refit`): the file
it writes plays, records what it was fitted to, and bad input changes nothing."""

from __future__ import annotations

import pytest

from hive_envs.agents.eval_checkpoint import load_eval_checkpoint
from hive_envs.hive import HiveGame
from hive_envs.hive.search.eval_features import HIVE_FEATURES
from hive_envs.players import PlayerContext, make_player
from hive_envs.training import eval_refit, eval_training
from hive_envs.training.eval_config import load_config
from tests.training.test_eval_training import TINY


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("refit")
    eval_training.train(
        load_config(
            "experiments/hive_eval", {**TINY, "generations": 2, "runs_dir": str(folder), "name": "tiny"}
        )
    )
    return folder / "tiny"


def test_a_refit_writes_a_playable_file_that_records_its_data_and_passes(run, tmp_path):
    out = tmp_path / "refit.pt"
    assert eval_refit.main([str(run), "--generations", "0-1", "--out", str(out), "--epochs", "3"]) == 0
    data = load_eval_checkpoint(out, game="hive", features=HIVE_FEATURES)
    record = data["config"]["refit"]
    assert record["data_generations"] == [0, 1] and len(record["passes"]) == 3
    assert record["score_weight"] == data["config"]["score_weight"] == 0.7
    assert data["generation"] == 2 and data["positions"] == record["positions"] > 0
    assert "train_state" not in data  # a file to play, not a run to resume
    generation_one = load_eval_checkpoint(run / "checkpoints" / "gen_0001.pt")
    assert not all(
        (data["evaluation"][key] == generation_one["evaluation"][key]).all() for key in data["evaluation"]
    )
    player = make_player(f"alphabeta:1,eval=learned:{out}", PlayerContext("hive"))
    game = HiveGame()
    assert player.choose(game) in game.legal_move_ids()


def test_the_same_seed_fits_the_same_weights(run, tmp_path):
    files = [tmp_path / "a.pt", tmp_path / "b.pt"]
    for out in files:
        eval_refit.refit(run, [0, 1], out, epochs=1, num_threads=1)
    first, second = (load_eval_checkpoint(path)["evaluation"] for path in files)
    assert all((first[key] == second[key]).all() for key in first)


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--generations", "0-5"], "cannot read the self-play data"),
        (["--generations", "1-0"], "needs 0 <= A <= B"),
        (["--generations", "x"], "--generations takes A-B"),
        (["--generations", "0", "--epochs", "0"], "--epochs must be >= 1"),
        (["--generations", "0", "--num_threads", "-1"], "--num_threads >= 0"),
        (["--generations", "0", "--score_weight", "1.5"], "score_weight"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(run, tmp_path, capsys, arguments, message):
    out = tmp_path / "refit.pt"
    assert eval_refit.main([str(run), "--out", str(out), *arguments]) == 2
    assert message in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize("name", ["latest.pt", "gen_0001.pt"])
def test_the_run_s_own_checkpoints_are_never_overwritten(run, capsys, name):
    path = run / "checkpoints" / name
    before = path.read_bytes()
    assert eval_refit.main([str(run), "--generations", "0", "--out", str(path)]) == 2
    assert "would replace the run's own checkpoint" in capsys.readouterr().err and path.read_bytes() == before


def test_a_folder_without_a_run_is_refused(tmp_path, capsys):
    assert eval_refit.main([str(tmp_path), "--generations", "0", "--out", str(tmp_path / "x.pt")]) == 2
    assert "holds no learned-evaluation run" in capsys.readouterr().err


def test_the_rate_falls_from_the_first_to_near_zero_along_a_half_cosine():
    rates = [eval_refit.cosine_rate(1e-3, epoch, 4) for epoch in range(4)]
    assert rates[0] == pytest.approx(1e-3) and rates == sorted(rates, reverse=True) and rates[-1] > 0
    assert rates[2] == pytest.approx(0.5e-3)
