"""UHP engine with a checkpoint behind bestmove: a scripted session answers every line per protocol."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hive_envs.hive.uhp import UHPEngine, UnloadedPlayer, agent_spec, load_player
from hive_envs.players.checkpoint import AgentPlayer
from tests.play.helpers import tiny_hive_checkpoint, tiny_hoyito_checkpoint


@pytest.fixture(scope="module")
def hive_ckpt(tmp_path_factory):
    return str(tiny_hive_checkpoint(tmp_path_factory.mktemp("ckpt") / "tiny_hive.pt"))


def session(engine: UHPEngine, lines: list[str]) -> list[list[str]]:
    answers = [engine.handle(line) for line in lines]
    for line, answer in zip(lines, answers):
        assert answer[-1] == "ok", (line, answer)
        assert "ok" not in answer[:-1], (line, answer)
    return answers


def test_scripted_session_with_a_tiny_checkpoint(hive_ckpt):
    engine = UHPEngine(AgentPlayer.load(hive_ckpt, simulations=8, seed=0))
    lines = [
        "newgame",
        "bestmove",
        "play wS1",
        "validmoves",
        "bestmove",
        "bestmove depth 2",
        "bestmove time 00:00:01",
        "undo",
        "bestmove depth 0",
        "",
        "   ",
        "bestmove sideways",
        "play wZ7",
        "frobnicate",
        "undo 9",
        "options set Simulations -3",
        "options set Simulations 0",
        "bestmove",
    ]
    answers = session(engine, lines)
    by = dict(zip(range(len(lines)), answers))
    assert by[1][:-1] == [by[1][0]] and by[1][0].startswith("w")  # one move for White
    valid = set(by[3][0].split(";"))
    for k in (4, 5, 6):
        assert by[k][0] in valid, (lines[k], by[k])
    assert by[7][0] == "Base;NotStarted;White[1]"
    assert by[8][0].startswith("w")
    for k in (9, 10, 11, 13, 14, 15):
        assert by[k][0].startswith("err"), (lines[k], by[k])
    assert by[12][0].startswith("invalidmove")
    assert by[16] == ["Simulations;int;0;64;0;100000", "ok"]
    assert by[17][0].startswith("w")


def test_options_list_and_set_the_agent_settings(hive_ckpt):
    player = AgentPlayer.load(hive_ckpt, simulations=16)
    engine = UHPEngine(player)
    listing = session(engine, ["options"])[0]
    assert "Simulations;int;16;64;0;100000" in listing and "SampleMoves;bool;False;False" in listing
    assert engine.handle("options set SampleMoves true") == ["SampleMoves;bool;True;False", "ok"]
    assert player.sample is True
    assert engine.handle("options get Simulations") == ["Simulations;int;16;64;0;100000", "ok"]
    assert engine.handle("options set SampleMoves maybe")[0].startswith("err")
    assert player.sample is True


def test_raw_policy_is_the_argmax_and_search_answers_legal_moves(hive_ckpt):
    from hive_envs.hive import HiveGame

    game = HiveGame.from_gamestring("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    raw = AgentPlayer.load(hive_ckpt, simulations=0)
    moves, priors, _ = raw.evaluator(game)
    assert raw.choose(game) == int(moves[priors.argmax()])
    searcher = AgentPlayer.load(hive_ckpt, simulations=20)
    assert game.move_name(searcher.choose(game)) in game.legal_move_names()
    assert game.gamestring == "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


def test_agent_refuses_a_game_of_another_type(hive_ckpt):
    from hive_envs.hive import HiveGame

    engine = UHPEngine(AgentPlayer.load(hive_ckpt, simulations=4))
    session(engine, ["newgame Base+M"])
    answer = engine.handle("bestmove")
    assert answer[0] == "err the agent plays Base; this game is Base+M"
    with pytest.raises(ValueError, match="Base"):
        AgentPlayer.load(hive_ckpt).choose(HiveGame("Base+MLP"))


def test_loading_errors_become_err_answers(tmp_path):
    not_a_file = load_player(str(tmp_path / "missing.pt"))
    garbage = tmp_path / "garbage.pt"
    garbage.write_bytes(b"not a checkpoint")
    hoyito = tiny_hoyito_checkpoint(tmp_path / "hoyito.pt")
    for player in (not_a_file, load_player(str(garbage)), load_player(str(hoyito))):
        assert isinstance(player, UnloadedPlayer)
        engine = UHPEngine(player)
        answers = session(engine, ["newgame", "bestmove", "play wS1", "options"])
        assert answers[1][0].startswith("err no agent: cannot load")
        assert answers[2][0].startswith("Base;InProgress")  # everything else still works
    assert "hoyito agent" in load_player(str(hoyito)).reason


def test_command_line_engine_with_an_agent(hive_ckpt, tmp_path):
    script = "info\nnewgame\nbestmove\noptions\ngibberish\nplay wG1\nbestmove depth 1\n"
    run = subprocess.run(
        [sys.executable, "-m", "hive_envs.uhp", "--agent", hive_ckpt, "--simulations", "4"],
        input=script,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    blocks = run.stdout.strip().split("\nok")
    assert run.stdout.strip().endswith("ok") and len(blocks) == 1 + 7 + 1  # info at start, 7 answers, tail
    assert "Simulations;int;4;64;0;100000" in run.stdout
    assert "err unknown command 'gibberish'" in run.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "hive_envs.uhp", "--agent", str(tmp_path / "nope.pt")],
        input="newgame\nbestmove\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert bad.returncode == 0
    assert "err no agent: cannot load" in bad.stdout and "does not exist" in bad.stderr


def test_uhp_limits_set_the_search_budget(hive_ckpt):
    import time

    from hive_envs.hive import HiveGame
    from hive_envs.players import SearchLimits

    player = AgentPlayer.load(hive_ckpt, simulations=24)
    assert player.config_for(SearchLimits()).simulations == 24
    deep = player.config_for(SearchLimits(depth=3))
    assert (deep.simulations, deep.max_depth) == (24, 3)
    timed = player.config_for(SearchLimits(time_s=2))
    assert timed.simulations == 100_000 and abs(timed.time_s - (0.95 * 2 - 0.05)) < 1e-9
    player.choose(HiveGame("Base"), SearchLimits(depth=2))  # warm up: compiled kernels load on first use
    start = time.monotonic()
    assert player.choose(HiveGame("Base"), SearchLimits(time_s=1)) in HiveGame("Base").legal_move_ids()
    assert time.monotonic() - start < 3.0  # 0.9 s of search, then one simulation at most
    raw = AgentPlayer.load(hive_ckpt, simulations=0)
    assert raw.config_for(SearchLimits(time_s=5)).simulations == 0  # raw policy whatever the limits


def test_the_shipped_learned_evaluation_serves_as_an_agent_without_simulations():
    assert agent_spec("pretrained:hive_eval", 64) == "pretrained:hive_eval"
    assert agent_spec("pretrained:hive_base", 64) == "pretrained:hive_base@64"
    assert agent_spec("runs/x/pretrained:hive_eval", 8) == "runs/x/pretrained:hive_eval@8"
    engine = UHPEngine(load_player(agent_spec("pretrained:hive_eval", 64)))
    answers = session(engine, ["newgame", "bestmove depth 1"])
    assert not answers[1][0].startswith("err"), answers[1]
