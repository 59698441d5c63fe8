"""A scripted UHP session against ``python -m hive_envs.uhp`` in a subprocess (as a viewer runs it)."""

import signal
import subprocess
import sys
import time

import pytest

from hive_envs.hive import HiveAlphaBeta, HiveGame
from hive_envs.hive.uhp import CAPABILITIES, ENGINE_ID

SCRIPT = [
    "info",
    "newgame Base+MLP",
    "play wS1",
    "validmoves",
    "play bQ wS1-",  # tournament opening: refused
    "bestmove depth 1",
    "bestmove depth 2",
    "bestmove time 00:00:01",
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
    (
        startup,
        info,
        newgame,
        play1,
        valid,
        refused,
        best,
        best2,
        timed,
        play2,
        undo,
        options,
        perft,
        unknown,
    ) = blocks
    assert startup == info == [ENGINE_ID, CAPABILITIES]
    assert newgame == ["Base+MLP;NotStarted;White[1]"]
    assert play1 == ["Base+MLP;InProgress;Black[1];wS1"]
    assert len(valid[0].split(";")) == 6 * 7  # 7 kinds (no Queen) x 6 cells around wS1
    assert refused[0].startswith("invalidmove ")
    assert (
        best[0] in valid[0].split(";") and best2[0] in valid[0].split(";") and timed[0] in valid[0].split(";")
    )
    assert len(best) == len(best2) == len(timed) == 1
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


class Session:
    """``python -m hive_envs.uhp`` in a subprocess, one command at a time (as a viewer drives it)."""

    def __init__(self, *args: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hive_envs.uhp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.startup = self.read()

    def read(self) -> list[str]:
        lines = []
        while (line := self.process.stdout.readline()) != "ok\n":
            assert line, f"the engine closed its output after {lines}"
            lines.append(line.rstrip("\n"))
        return lines

    def ask(self, command: str) -> tuple[list[str], float]:
        started = time.perf_counter()
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self.read(), time.perf_counter() - started

    def close(self) -> tuple[int, str]:
        """End of input: the exit code and what the engine wrote on stderr."""
        self.process.stdin.close()
        code = self.process.wait(timeout=60)
        return code, self.process.stderr.read()


def test_bestmove_depth_and_time_per_protocol():
    session = Session("--seed", "2")
    assert session.startup == [ENGINE_ID, CAPABILITIES]
    session.ask("newgame Base+MLP")
    for move in ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ", "bA1 bQ-"):
        session.ask(f"play {move}")
    valid = set(session.ask("validmoves")[0][0].split(";"))
    (depth2,), _ = session.ask("bestmove depth 2")
    game = HiveGame.from_gamestring(session.ask("undo 0")[0][0])
    assert depth2 == game.move_name(HiveAlphaBeta(depth=2, seed=2).choose(game))
    (timed,), seconds = session.ask("bestmove time 00:00:01")
    assert timed in valid
    assert 0.4 < seconds < 1.0 + 0.5  # deepens until the second is (half) used, answers in time
    options, _ = session.ask("options")
    assert {"MaxDepth;int;3;3;1;12", "MaxTime;int;0;0;0;3600", "RepetitionDraw;bool;False;False"} <= set(
        options
    )
    assert session.ask("options set MaxTime 1")[0] == ["MaxTime;int;1;0;0;3600"]
    (plain,), seconds = session.ask("bestmove")  # MaxDepth 3 or MaxTime 1 s, whichever comes first
    assert plain in valid and seconds < 1.5
    assert session.ask("bestmove depth 13")[0][0].startswith("err ")
    code, err = session.close()
    assert code == 0 and "Traceback" not in err


# Runs ``python -m MODULE ARGS`` with Python's own Ctrl-C handler (KeyboardInterrupt): a SIGINT that the
# test runner ignores (a suite started as a background job) would otherwise stay ignored in the child.
WITH_CTRL_C = (
    "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = sys.argv.pop(1); runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)"
)


@pytest.mark.parametrize("module", ["hive_envs.uhp", "hive_envs.play"])
def test_ctrl_c_ends_quietly_with_code_130(module):
    args = [] if module == "hive_envs.uhp" else ["hive", "--opponent", "greedy"]
    process = subprocess.Popen(
        [sys.executable, "-c", WITH_CTRL_C, module, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = "ok\n" if module == "hive_envs.uhp" else "Black reserve"
    while first not in (line := process.stdout.readline()):  # running and waiting for input
        assert line, process.stderr.read()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


def test_a_closed_output_pipe_ends_quietly():
    process = subprocess.Popen(
        [sys.executable, "-m", "hive_envs.uhp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    while process.stdout.readline() != b"ok\n":
        pass
    process.stdout.close()  # the viewer quits without saying exit
    process.stdin.write(b"newgame\n" + b"validmoves\n" * 2000)
    process.stdin.close()
    assert process.wait(timeout=60) == 0
    err = process.stderr.read().decode()
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err
