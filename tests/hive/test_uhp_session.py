"""A scripted UHP session against ``python -m hive_envs.uhp`` in a subprocess (as a viewer runs it)."""

import subprocess
import sys

from hive_envs.hive.uhp import CAPABILITIES, ENGINE_ID

SCRIPT = [
    "info",
    "newgame Base+MLP",
    "play wS1",
    "validmoves",
    "play bQ wS1-",  # tournament opening: refused
    "bestmove depth 1",
    "play bG1 -wS1",
    "undo 1",
    "options",
    "perft 1",
    "frobnicate",
]


def _answers(stdout: str) -> list[list[str]]:
    blocks, current = [], []
    for line in stdout.splitlines():
        current.append(line)
        if line == "ok":
            blocks.append(current[:-1])
            current = []
    assert current == [], f"output does not end with ok: {current}"
    return blocks


def test_scripted_session_over_stdin_stdout():
    run = subprocess.run(
        [sys.executable, "-m", "hive_envs.uhp", "--seed", "1"],
        input="\n".join(SCRIPT) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    blocks = _answers(run.stdout)
    assert len(blocks) == 1 + len(SCRIPT)  # the info block printed on start, then one per command
    startup, info, newgame, play1, valid, refused, best, play2, undo, options, perft, unknown = blocks
    assert startup == info == [ENGINE_ID, CAPABILITIES]
    assert newgame == ["Base+MLP;NotStarted;White[1]"]
    assert play1 == ["Base+MLP;InProgress;Black[1];wS1"]
    assert len(valid[0].split(";")) == 6 * 7  # 7 kinds (no Queen) x 6 cells around wS1
    assert refused[0].startswith("invalidmove ")
    assert best[0] in valid[0].split(";")
    assert play2 == ["Base+MLP;InProgress;White[2];wS1;bG1 -wS1"]
    assert undo == play1
    assert options[0].startswith("TournamentOpening;bool;")
    assert perft == ["42"]
    assert unknown[0].startswith("err ")


def test_exit_and_blank_lines():
    run = subprocess.run(
        [sys.executable, "-m", "hive_envs.uhp"],
        input="\n\ninfo\nexit\ninfo\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert _answers(run.stdout) == [[ENGINE_ID, CAPABILITIES]] * 2  # start-up block, one info, then exit


def test_undecodable_input_does_not_end_the_process():
    run = subprocess.run(
        [sys.executable, "-m", "hive_envs.uhp"],
        input=b"play \xff\xfe\x80\ninfo\n",
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    blocks = _answers(run.stdout.decode("utf-8", "replace"))
    assert blocks[1][0].startswith("err ") and blocks[2] == [ENGINE_ID, CAPABILITIES]
