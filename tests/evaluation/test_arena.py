"""Matches against UHP engine processes (evaluate.py --opponent uhp:...), refereed by our engine."""

from __future__ import annotations

import gc
import json
import sys
import time
from pathlib import Path

import pytest

from hive_envs.evaluation import arena, evaluate
from hive_envs.evaluation.results_files import read_records
from hive_envs.hive import HiveGame
from hive_envs.players import register_player_kind, split_checkpoint_spec
from hive_envs.players import specs as player_specs
from hive_envs.uhp_client import UHPClient, UHPEngineError, UHPTimeout
from tests.play.helpers import tiny_hoyito_checkpoint
from tests.play.oscillator import Oscillator

FAKE = f"{sys.executable} {Path(__file__).with_name('fake_uhp_engine.py')}"
OUR_ENGINE = f"{sys.executable} -m hive_envs.uhp"


def test_evaluate_plays_two_of_our_engine_processes_with_correct_wdl(tmp_path, capsys):
    out = tmp_path / "uhp.json"
    code = evaluate.main(
        [
            f"uhp:{OUR_ENGINE} --player greedy --seed 1",
            "--opponent",
            f"uhp:{OUR_ENGINE} --player random --seed 2",
            "--games",
            "2",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    assert "W/D/L as seat 0" in capsys.readouterr().out
    match = read_records(out)["matches"][0]  # the report with its games (the summary has none)
    assert match["games"] == 2 and match["wins"] + match["draws"] + match["losses"] == 2
    for seat in (0, 1):
        assert match["wins_by_seat"][seat] + match["draws_by_seat"][seat] + match["losses_by_seat"][seat] == 1
    expected = {"wins": 0, "draws": 0, "losses": 0}
    for game in match["games_played"]:
        assert game["reason"] == ""  # both engines played legal moves to the end
        final = HiveGame.from_gamestring(game["record"])  # the referee's record replays to its result
        assert final.is_terminal
        white = {"WhiteWins": 1, "BlackWins": -1, "Draw": 0}[final.outcome]
        result_for_a = white if game["seat_of_a"] == 0 else -white
        assert result_for_a == game["result_for_a"]
        expected[{1: "wins", 0: "draws", -1: "losses"}[result_for_a]] += 1
    assert {k: match[k] for k in expected} == expected


@pytest.mark.parametrize("mode", ["garbage", "die", "hang"])
def test_a_misbehaving_engine_forfeits_every_game_and_that_is_no_win(mode):
    settings = arena.Settings(game="hive", opening_plies=0, move_timeout_s=1.0)
    result, records = arena.play_match("greedy", f"uhp:{FAKE} {mode}", 4, settings)
    assert (result.wins, result.draws, result.losses, result.forfeits) == (0, 0, 0, [0, 4])
    assert all(r.forfeit == "B" and r.result_for_a is None and "forfeits" in r.reason for r in records)
    if mode == "hang":
        assert "no answer" in records[0].reason
    with pytest.raises(ValueError, match="every game was forfeited"):
        arena.check_not_all_forfeited(result, records)


@pytest.mark.parametrize("mode", ["start-exit", "start-silent"])
def test_an_engine_that_cannot_start_is_an_error_not_a_win(mode, tmp_path, capsys):
    started = time.perf_counter()
    argv = [
        "greedy",
        f"uhp:{FAKE} {mode}",
        "--games",
        "2",
        "--move-timeout",
        "1",
        "--out",
        str(tmp_path / "a.json"),
    ]
    assert arena.main(argv) == 2
    assert time.perf_counter() - started < 30  # the start-up waits --move-timeout, not a fixed minute
    error = capsys.readouterr().err
    assert "cannot be used" in error and ("exited" in error or "no answer" in error)
    assert not (tmp_path / "a.json").exists()
    argv = ["greedy", "--opponents", f"uhp:{FAKE} {mode}", "--games", "2", "--move-timeout", "1"]
    assert evaluate.main(argv) == 2


def test_a_match_that_only_forfeits_exits_with_an_error(tmp_path, capsys):
    out = tmp_path / "a.json"
    argv = ["greedy", f"uhp:{FAKE} garbage", "--games", "2", "--opening-plies", "0", "--out", str(out)]
    assert arena.main(argv) == 2
    captured = capsys.readouterr()
    assert "every game was forfeited" in captured.err and "forfeits A/B" in captured.out
    assert json.loads(out.read_text())["matches"][0]["forfeits"] == [0, 2]  # the report is still written


@pytest.fixture
def oscillator_kind(monkeypatch):
    """Register ``oscillator`` (`Oscillator`: its Queen back and forth) for one test."""
    monkeypatch.setattr(player_specs, "_KINDS", dict(player_specs._KINDS))
    register_player_kind("oscillator", lambda _, context: Oscillator(context.seed), argument=False)


@pytest.mark.parametrize("mode", ["repetition", "repetition-err"])
def test_an_engine_applying_the_repetition_draw_is_scored_right(oscillator_kind, mode):
    """The engine ends each game at the third repetition. With the rule on (the default against an
    external engine) the referee agrees: draws. With it off, the engine's game-over is reported as
    such, apart from the results, never as a win (it was 6 of 10 'wins' against nokamute)."""
    engine = f"uhp:{FAKE} {mode}"
    settings = arena.Settings(game="hive", opening_plies=2, move_timeout_s=10.0)
    assert settings.repetition_for(("oscillator", engine)) and not settings.repetition_for(
        ("oscillator", "greedy")
    )
    result, records = arena.play_match("oscillator", engine, 4, settings)
    assert (result.wins, result.draws, result.losses, result.forfeits) == (0, 4, 0, [0, 0])
    assert all(HiveGame.from_gamestring(r.record, repetition_draw=True).outcome == "Draw" for r in records)

    settings = arena.Settings(game="hive", opening_plies=2, move_timeout_s=10.0, repetition_draw=False)
    result, records = arena.play_match("oscillator", engine, 4, settings)
    assert (result.wins, result.draws, result.losses, result.forfeits) == (0, 0, 0, [0, 4])
    assert all("the engine's game is over (Draw)" in r.reason for r in records)


def test_a_match_whose_games_end_by_repetition_is_reported_with_queen_margins(
    oscillator_kind, tmp_path, capsys
):
    """The report replays each record for its Queen margins; it did so without the repetition rule, so a
    game the referee drew by repetition ('Draw' after moves that are no draw without the rule) raised
    and the whole match was lost with no report (seen against a real engine)."""
    out = tmp_path / "report.json"
    settings = arena.Settings(game="hive", opening_plies=2, move_timeout_s=10.0, log_games=True)
    arena.run(["oscillator"], [f"uhp:{FAKE} repetition"], 2, settings, out=str(out))
    match = read_records(out)["matches"][0]
    assert match["repetition_draw"] and [g["result_for_a"] for g in match["games_played"]] == [0.0, 0.0]
    assert all(isinstance(g["queen_margin_for_a"], int) for g in match["games_played"])
    assert capsys.readouterr().err.count("queen_margin_for_a=") == 2  # the per-game log replays too


class WarmedGreedy:
    """Greedy Hive moves that log ``warm`` and each ``move`` into a shared list."""

    def __init__(self, events: list[str], seed: int | None):
        from hive_envs.players import GreedyPlayer

        self.name, self.events, self.greedy = "warmed", events, GreedyPlayer(seed)

    def warm_up(self) -> None:
        self.events.append("warm")

    def choose(self, game, limits=None) -> int:
        self.events.append("move")
        return self.greedy.choose(game, limits)

    def seed(self, seed) -> None:
        self.greedy.seed(seed)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("move_time_s, warmed", [(None, 0), (5.0, 1)])
def test_timed_matches_warm_each_player_before_its_first_move(monkeypatch, move_time_s, warmed):
    """With ``--move-time`` each chunk's players load their kernels before play, not in a first timed
    move (a fresh worker's first move took 14.6 s of 1 s); untimed matches are played as they were."""
    events: list[str] = []
    monkeypatch.setattr(player_specs, "_KINDS", dict(player_specs._KINDS))
    register_player_kind("warmed", lambda _, context: WarmedGreedy(events, context.seed), argument=False)
    settings = arena.Settings(game="hive", opening_plies=2, max_turns=4, move_time_s=move_time_s)
    arena.play_match("warmed", "greedy", 2, settings)
    assert events.count("warm") == warmed and events.count("move") == 2
    assert events[:warmed] == ["warm"] * warmed


def test_a_worker_freezes_its_objects_out_of_the_collectors_scans():
    """A full collection would scan the players' objects inside some timed move (0.12 s with a Hive
    agent loaded); the worker moves them to the permanent generation before play."""
    gc.unfreeze()
    try:
        arena.play_match("greedy", "random", 2, arena.Settings(game="hive", opening_plies=2, max_turns=4))
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_game_metrics_replay_a_record_under_its_match_rules():
    record = (
        "Base;Draw;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wQ \\wS1;bQ bS1/;wQ -wS1;bQ bS1-;"
        "wQ \\wS1;bQ bS1/;wQ -wS1;bQ bS1-"
    )
    drawn = arena.GameRecord(0, 0.0, 12, "", record)
    settings = arena.Settings(game="hive")
    with pytest.raises(ValueError, match="Draw"):
        arena.game_metrics([drawn], settings)  # without the rule the record is not a legal GameString
    assert arena.game_metrics([drawn], settings, repetition_draw=True) == {"queen_margin_for_a": [0]}
    no_opening_rule = arena.Settings(game="hive", game_options={"tournament_opening": False})
    opening = "Base;InProgress;White[2];wQ;bQ wQ-"  # a Queen first: legal only without the rule
    assert arena.game_metrics([arena.GameRecord(0, None, 2, "", opening)], no_opening_rule) == {
        "queen_margin_for_a": [0]
    }


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--move-time", "-1"], "--move-time"),
        (["--move-time", "nan"], "--move-time"),
        (["--opening-plies", "-5"], "--opening-plies"),
        (["--move-timeout", "0"], "--move-timeout"),
        (["--workers", "0"], "workers"),
        (["--games", "3"], "even"),
        (["--max-turns", "-2"], "--max-turns"),
    ],
)
def test_bad_arena_options_are_clear_errors(flags, message, capsys):
    assert arena.main(["random", "greedy", "--games", "2", *flags]) == 2
    assert message in capsys.readouterr().err


def test_the_turn_limit_makes_draws():
    settings = arena.Settings(game="hive", opening_plies=2, max_turns=6)
    result, records = arena.play_match("greedy", "random", 6, settings)
    assert (result.wins, result.draws, result.losses) == (0, 6, 0)
    assert all(r.plies == 6 for r in records)


def test_pairs_share_their_opening_and_swap_seats():
    settings = arena.Settings(game="hive", opening_plies=3, max_turns=8, seed=5)
    _, records = arena.play_match("random", "greedy", 4, settings)
    assert [r.seat_of_a for r in records] == [0, 1, 0, 1]
    for first, second in (records[0:2], records[2:4]):
        assert first.record.split(";")[3:6] == second.record.split(";")[3:6]


def test_hoyito_checkpoint_with_search_in_the_arena(tmp_path):
    path = tiny_hoyito_checkpoint(tmp_path / "h.pt")
    settings = arena.settings_for([f"{path}@4", "random"], opening_plies=1)
    assert settings.game == "hoyito"
    result, _ = arena.play_match(f"{path}@4", "random", 4, settings)
    assert result.wins + result.draws + result.losses == 4
    assert [sum(x) for x in zip(result.wins_by_seat, result.draws_by_seat, result.losses_by_seat)] == [2, 2]


def test_bad_specs_and_counts_are_refused(tmp_path):
    path = tiny_hoyito_checkpoint(tmp_path / "h.pt")
    with pytest.raises(ValueError, match="even"):
        arena.play_match("random", "greedy", 3, arena.Settings())
    with pytest.raises(ValueError, match="UHP engines play Hive"):
        arena.play_match(str(path), f"uhp:{FAKE} garbage", 2, arena.settings_for([str(path)]))
    with pytest.raises(ValueError, match="simulations"):
        split_checkpoint_spec("a.pt@many")


def test_client_reports_engines_that_cannot_start_or_answer():
    with pytest.raises(UHPEngineError, match="cannot start"):
        UHPClient("/nonexistent/engine --uhp")
    with pytest.raises(UHPEngineError, match="exited"):
        UHPClient(f"{sys.executable} -c pass")
    engine = UHPClient(f"{FAKE} hang", timeout_s=0.5)
    assert engine.id == "fake 0"
    assert engine.newgame() == "Base;NotStarted;White[1]"
    with pytest.raises(UHPTimeout):
        engine.bestmove()
    assert engine.close(grace_s=1.0) is not None


def test_queen_margin_counts_neighbours_of_each_queen_from_a_side():
    from hive_envs.hive import HiveGame

    record = "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ\\;bA1 bQ/;wG1 -wQ;bG1 bQ-"
    game = HiveGame.from_gamestring(record)
    white, black = game.queen_neighbours(0), game.queen_neighbours(1)
    as_white = arena.GameRecord(0, 0.0, 8, "", record)  # (seat of A, result for A, plies, reason, record)
    as_black = arena.GameRecord(1, 0.0, 8, "", record)
    margins = arena.game_metrics([as_white, as_black], arena.Settings("hive"))["queen_margin_for_a"]
    assert margins == [black - white, white - black]
    assert (white, black) == (3, 3)
    assert arena.mean_ci95([1, 1, 1]) == (1.0, 1.0, 1.0)
