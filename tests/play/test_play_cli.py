"""Human play in the terminal, driven by piped input: full games, refusals, undo, hints."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys

import pytest

from hive_envs import play
from tests.play.helpers import tiny_hoyito_checkpoint


def run_cli(args: list[str], typed: str) -> tuple[int, str]:
    out = io.StringIO()
    code = play.main(args, stdin=io.StringIO(typed), stdout=out)
    return code, out.getvalue()


def test_piped_input_plays_a_full_hoyito_game_and_refuses_bad_input():
    # Every hole number in turn, with garbage between: illegal ones are refused, legal ones played.
    lines = itertools.chain.from_iterable((str(h), "banana", "-1", "99") for h in itertools.cycle(range(6)))
    typed = "\n".join(itertools.islice(lines, 8000)) + "\n"
    code, out = run_cli(["hoyito", "--opponent", "greedy", "--seed", "0"], typed)
    assert code == 0
    assert "game over: " in out
    assert "refused: 'banana' is not a hole number" in out
    assert "refused: illegal move 99" in out and "refused: illegal move -1" in out
    assert "North (computer) plays" in out


def test_hoyito_against_a_checkpoint_with_search(tmp_path):
    path = tiny_hoyito_checkpoint(tmp_path / "h.pt")
    typed = "\n".join(str(h) for h in itertools.islice(itertools.cycle(range(6, 12)), 3000)) + "\n"
    code, out = run_cli(["hoyito", "--agent", str(path), "--simulations", "4", "--seat", "1"], typed)
    assert code == 0 and "game over: " in out
    assert out.index("South (computer) plays") < out.index("North to move>")  # the agent opened


def test_undo_takes_back_the_move_and_the_reply():
    code, out = run_cli(["hoyito", "--seed", "0"], "undo\n2\nundo\nhint\nquit\n")
    assert code == 0
    assert "nothing to undo" in out
    boards = [block for block in out.split("North captured") if block]
    assert boards[1].startswith("   0 |   4   4   4   4   4   4")  # after the undo: the start again
    assert "6 legal move(s): 0; 1; 2; 3; 4; 5" in out
    assert out.rstrip().endswith("bye")


def test_hive_moves_in_uhp_notation_with_hints_and_reasons():
    typed = "wQ\nhint wS\nwS1\nfly away\nwA1 -bZ\nundo\nwG1\nboard\n"
    code, out = run_cli(["hive", "--opponent", "random", "--seed", "1"], typed)
    assert code == 0
    assert "refused: 'wQ' is not legal" in out  # no Queen on the first move (tournament opening)
    assert "1 legal move(s): wS1" in out
    assert "refused: 'fly' is not a piece name" in out and "refused: '-bZ' in move 'wA1 -bZ'" in out
    assert out.count("White to move, ply 0") == 2  # the start, and again after the undo
    assert "Black (computer) plays" in out
    assert out.rstrip().endswith("end of input: bye")


def test_bad_options_are_reported_not_raised():
    for args in (
        ["hoyito", "--options", "holes=3"],
        ["hoyito", "--options", "holes_per_row=x"],
        ["hive", "--options", "expansions=Z"],
        ["hive", "--agent", "/nonexistent.pt"],
    ):
        assert run_cli(args, "")[0] == 2


def test_module_entry_point_runs():
    run = subprocess.run(
        [sys.executable, "-m", "hive_envs.play", "hoyito", "--opponent", "human"],
        input="0\n7\nquit\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0 and "North to move> 7" in run.stdout


def test_an_agent_for_other_options_is_refused_at_start(tmp_path, capsys):
    from tests.play.helpers import tiny_hive_checkpoint

    path = tiny_hoyito_checkpoint(tmp_path / "h.pt")  # a 2x6 agent
    code, out = run_cli(
        ["hoyito", "--agent", str(path), "--options", "holes_per_row=12", "--seat", "1"], "quit\n"
    )
    assert code == 2 and out == ""
    assert "the agent plays Hoyito with HoyitoOptions(holes_per_row=6" in capsys.readouterr().err
    base = tiny_hive_checkpoint(tmp_path / "b.pt")  # a Base agent on Base+MLP
    code, out = run_cli(
        ["hive", "--agent", str(base), "--options", "expansions=MLP", "--seat", "1"], "quit\n"
    )
    assert code == 2 and out == ""
    assert "the agent plays Base" in capsys.readouterr().err


def test_help_explains_how_to_type_a_move_in_each_game():
    _, hive = run_cli(["hive", "--opponent", "random"], "help\nquit\n")
    assert (
        "Moves: UHP move strings." in hive and "-X west of X" in hive and "(wB1 bQ)" in " ".join(hive.split())
    )
    _, hoyito = run_cli(["hoyito", "--opponent", "random"], "help\nquit\n")
    assert "Moves: the number of the hole to sow from, as printed around the board." in hoyito


def test_only_games_the_terminal_can_show_are_offered(capsys):
    assert play.playable_games() == ["hive", "hoyito"]  # not aec: any PettingZoo env, no board of its own
    with pytest.raises(SystemExit):
        play.main(["aec"])
    assert "invalid choice: 'aec' (choose from 'hive', 'hoyito')" in capsys.readouterr().err


def test_the_command_that_plays_a_checkpoint_names_the_options_that_differ():
    assert play.play_command("hoyito", {"holes_per_row": 12}, "runs/a b/latest.pt") == (
        "hive-play hoyito --agent 'runs/a b/latest.pt' --options holes_per_row=12"
    )
    hive_base = {"expansions": "", "tournament_opening": True, "max_turns": 300}
    assert play.play_command("hive", hive_base, "x.pt") == "hive-play hive --agent x.pt"
    assert play.play_command("hive", {**hive_base, "tournament_opening": False}, "x.pt").endswith(
        "--options tournament_opening=false"
    )
    assert play.play_command("aec", {"env": "pettingzoo.classic.connect_four_v3"}, "x.pt") is None
