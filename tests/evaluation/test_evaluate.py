"""evaluate.py: tables, JSON, Elo fit and plot on tiny matches of the toy game."""

import json
from pathlib import Path

import numpy as np
import pytest

from hive_envs.agents import save_checkpoint
from hive_envs.agents.network_kinds import build_network
from hive_envs.evaluation import evaluate
from hive_envs.evaluation.elo import fit_elo
from hive_envs.evaluation.match import wilson_interval
from tests.nim import NIM

TOY = NIM.name  # the toy game, added by its definition (the nim_registered fixture)
pytestmark = pytest.mark.usefixtures("nim_registered")


def toy_checkpoint(path, step, game=TOY, pile=10):
    network = build_network({"kind": "mlp", "hidden_sizes": [8]}, (pile + 1,), 3)
    return save_checkpoint(
        path,
        {
            "game": game,
            "game_options": {"pile": pile},
            "encoding_version": "v0",
            "observation_shape": (pile + 1,),
            "num_actions": 3,
            "network": {"kind": "mlp", "hidden_sizes": [8]},
            "model": network.state_dict(),
            "global_step": step,
            "update": 1,
        },
    )


def test_single_checkpoint_table_and_json(tmp_path, capsys):
    path = toy_checkpoint(tmp_path / "run" / "checkpoints" / "step_1.pt", 100)
    report = evaluate.evaluate([str(path)], ["random", "greedy"], games=10, out=str(tmp_path / "e.json"))
    out = capsys.readouterr().out
    assert "W/D/L as seat 0" in out and "win rate [95% CI]" in out
    saved = json.loads((tmp_path / "e.json").read_text())
    assert saved == json.loads(json.dumps(report))
    for match in saved["matches"]:
        assert match["games"] == 10
        assert sum(match["wins_by_seat"] + match["draws_by_seat"] + match["losses_by_seat"]) == 10
        assert match["wins_by_seat"][0] + match["draws_by_seat"][0] + match["losses_by_seat"][0] == 5
        low, high = match["win_rate_ci95"]
        assert low <= match["win_rate"] <= high
        assert match["mean_length"] >= 3  # Nim from 10 stones lasts at least 4 plies... 3 is safe
    assert [m["opponent"] for m in saved["matches"]] == ["random", "greedy"]


def test_list_of_checkpoints_gives_an_elo_table_and_plot(tmp_path, capsys):
    paths = [str(toy_checkpoint(tmp_path / "run" / "checkpoints" / f"step_{s}.pt", s)) for s in (100, 200)]
    report = evaluate.evaluate(
        paths, ["random"], games=10, out=str(tmp_path / "e.json"), plot=str(tmp_path / "elo.png")
    )
    assert "Elo (maximum likelihood, random = 0)" in capsys.readouterr().out
    elo = {row["player"]: row for row in report["elo"]}
    assert elo["random"]["elo"] == 0.0
    assert elo["run/step_200"]["global_step"] == 200
    assert len(report["matches"]) == 3  # each vs random, and the pair
    assert (tmp_path / "elo.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_checkpoints_of_different_games_are_refused(tmp_path):
    a = toy_checkpoint(tmp_path / "a.pt", 1)
    b = toy_checkpoint(tmp_path / "b.pt", 1, pile=12)
    with pytest.raises(ValueError, match="observation_shape"):
        evaluate.evaluate([str(a), str(b)], ["random"], games=4)


def test_command_line_reports_a_missing_checkpoint(tmp_path, capsys):
    assert evaluate.main([str(tmp_path / "none.pt")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_elo_fit_recovers_known_ratings():
    truth = {"random": 0.0, "a": 200.0, "b": 500.0}
    names = list(truth)
    matches = []
    for i, p in enumerate(names):
        for q in names[i + 1 :]:
            expected = 1 / (1 + 10 ** ((truth[q] - truth[p]) / 400))
            matches.append((p, q, expected * 100_000, 100_000))
    fitted = fit_elo(names, matches, "random")
    for name, rating in truth.items():
        assert abs(fitted[name][0] - rating) < 2.0


def test_wilson_interval_is_sane_at_the_edges():
    assert wilson_interval(0, 400)[0] == 0.0 and wilson_interval(400, 400)[1] == 1.0
    low, high = wilson_interval(380, 400)
    assert 0.92 < low < 0.95 < high < 0.97
    assert np.isclose(sum(wilson_interval(200, 400)), 1.0)


# -- arguments and outputs are checked before the first game (issue: found only after every game) ----
@pytest.fixture
def no_games(monkeypatch):
    """Fail the test if a game is played."""

    def refuse(*args, **kwargs):
        raise AssertionError("a match was played before the arguments were checked")

    monkeypatch.setattr(evaluate, "play_games_batched", refuse)


@pytest.mark.parametrize("flag", ["--out", "--plot"])
def test_an_unwritable_output_is_refused_before_playing(tmp_path, capsys, no_games, flag):
    paths = [str(toy_checkpoint(tmp_path / "run" / "checkpoints" / f"step_{s}.pt", s)) for s in (1, 2)]
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    bad = str(blocker / "inside.json")  # a folder that cannot be made: a file is in the way
    assert evaluate.main([*paths, "--games", "4", flag, bad]) == 2
    assert flag in capsys.readouterr().err
    assert evaluate.main([*paths, "--games", "4", flag, str(tmp_path)]) == 2  # a folder, not a file
    assert "is a folder" in capsys.readouterr().err


def test_a_list_without_random_is_refused_before_playing(tmp_path, capsys, no_games):
    paths = [str(toy_checkpoint(tmp_path / "run" / "checkpoints" / f"step_{s}.pt", s)) for s in (1, 2)]
    assert evaluate.main([*paths, "--opponents", "greedy", "--games", "4"]) == 2
    assert "needs 'random'" in capsys.readouterr().err


@pytest.mark.parametrize("flags, message", [(["--threads", "-1"], "--threads"), (["--games", "0"], "games")])
def test_bad_numbers_are_clear_errors(tmp_path, capsys, flags, message):
    path = str(toy_checkpoint(tmp_path / "run" / "checkpoints" / "step_1.pt", 1))
    assert evaluate.main([path, *flags]) == 2
    assert message in capsys.readouterr().err


def test_each_pair_of_games_starts_from_its_own_random_opening(tmp_path, monkeypatch):
    """Deterministic players (an argmax checkpoint, greedy) would replay one game per seat from the
    start position: evaluate gives each pair of games its own opening from the arena's book."""
    from hive_envs.pretrained import pretrained_path

    seen = []
    real_play = evaluate.play_games_batched

    def recording_play(a, b, schedule, *rest):
        seen.append(schedule)
        return real_play(a, b, schedule, *rest)

    monkeypatch.setattr(evaluate, "play_games_batched", recording_play)
    path = str(pretrained_path("hoyito_2x6"))
    evaluate.evaluate([path], ["greedy"], games=8, out=str(tmp_path / "a.json"), opening_plies=3)
    evaluate.evaluate([path], ["greedy"], games=8, out=str(tmp_path / "b.json"), opening_plies=0)
    with_openings, without = seen
    openings = [tuple(opening) for opening, _ in with_openings]
    assert len(openings) == 8 and len(set(openings)) == 4 and openings[:4] == openings[4:]
    assert [seat for _, seat in with_openings] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert all(len(o) == 3 for o in openings)
    assert all(opening == [] for opening, _ in without)
    assert json.loads((tmp_path / "a.json").read_text())["opening_plies"] == 3
    with pytest.raises(ValueError, match="opening-plies"):
        evaluate.evaluate([path], ["greedy"], games=8, out=str(tmp_path / "c.json"), opening_plies=-1)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--extend", "earlier.json"], "--extend apply to --ladder only"),
        (["--replay", "alphabeta:1"], "--replay apply to --ladder only"),
        (["--options", "holes_per_row=12"], "--options apply to --ladder only"),
        (["--workers", "2"], "--workers apply to --ladder only"),
        (["--plot", "elo.png"], "--plot draws Elo against training step: give two or more checkpoints"),
    ],
)
def test_flags_that_would_be_ignored_are_refused(tmp_path, capsys, no_games, flags, message):
    path = str(toy_checkpoint(tmp_path / "run" / "checkpoints" / "step_1.pt", 1))
    assert evaluate.main([path, "--games", "4", *flags]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "elo.png").exists()


def test_a_report_whose_folder_became_unwritable_is_saved_elsewhere_and_said_so(tmp_path, capsys):
    import shutil

    from hive_envs.evaluation.results_files import write_report

    out = tmp_path / "results" / "r.json"
    write_report(out, {"a": 1})
    shutil.rmtree(tmp_path / "results")  # the folder vanished mid-run: made again
    write_report(out, {"a": 2})
    assert json.loads(out.read_text()) == {"a": 2}
    shutil.rmtree(tmp_path / "results")
    (tmp_path / "results").write_text("")  # now a file is in the way
    with pytest.raises(ValueError, match=r"cannot write the report to .*; it was saved to '(.*)'") as error:
        write_report(out, {"a": 3})
    saved = str(error.value).rsplit("saved to ", 1)[1].strip("'")
    assert json.loads(Path(saved).read_text()) == {"a": 3}
    Path(saved).unlink()


def test_a_pretrained_agents_report_goes_to_runs_never_into_the_package(tmp_path, monkeypatch, capsys):
    from hive_envs.players import parse_spec

    monkeypatch.chdir(tmp_path)
    shipped = Path(parse_spec("pretrained:hoyito_2x6").checkpoint)
    evaluate.evaluate(["pretrained:hoyito_2x6"], ["random"], games=2)
    assert "wrote runs/pretrained/hoyito_2x6/evaluation.json" in capsys.readouterr().out
    assert json.loads((tmp_path / "runs/pretrained/hoyito_2x6/evaluation.json").read_text())["matches"]
    assert not (shipped.parent / "evaluation.json").exists()
    # a run's own checkpoint keeps its report beside it
    assert evaluate.default_report_path("runs/a/checkpoints/latest.pt") == Path(
        "runs/a/checkpoints/evaluation.json"
    )
