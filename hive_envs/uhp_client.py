"""Drive an external Universal Hive Protocol engine process (Mzinga, nokamute, ``python -m hive_envs.uhp``).

    with UHPClient("nokamute uhp") as engine:
        engine.newgame("Base")
        engine.play("wS1")
        move = engine.bestmove(time_s=1)      # a UHP move string, not yet played
        engine.play(move)

The process is started from a command line (split like a POSIX shell would, no shell involved);
its stdout is read by a thread into a queue so every wait has a deadline. Each command's answer
is the lines up to ``ok``; an ``err`` line raises `UHPEngineError`, an ``invalidmove`` line
`UHPInvalidMove`, a missing answer `UHPTimeout`, a dead process `UHPEngineError`. `close()` closes
stdin (end-of-file ends a well-behaved engine), then terminates and finally kills it.

What the engine prints is bounded before it is kept: a line longer than `MAX_LINE_CHARS`, an
answer longer than `MAX_ANSWER_CHARS` or bytes that are not text end the session with
`UHPEngineError` (the client is then unusable; an arena scores it as a forfeit), and at most
`MAX_QUEUED_LINES` lines wait unread (then the engine waits on its pipe). stderr keeps its last 20
lines, each cut to `MAX_LINE_CHARS`.
"""

from __future__ import annotations

import collections
import queue
import shlex
import subprocess
import threading
import time
from typing import IO, cast


class UHPEngineError(RuntimeError):
    """The engine answered ``err``, died, or said something that is not UHP."""


class UHPInvalidMove(UHPEngineError):
    """The engine refused a move (``invalidmove``)."""


class UHPTimeout(UHPEngineError):
    """No complete answer within the deadline."""


_EOF = object()
MAX_LINE_CHARS = 65_536  # a Hive GameString or validmoves line is a few kilobytes
MAX_ANSWER_CHARS = 1_048_576
MAX_QUEUED_LINES = 10_000


class _TooLong:
    """What the stdout reader queues, and stops reading after, for a line over `MAX_LINE_CHARS`."""


class UHPClient:
    """One engine process; see the module docstring."""

    def __init__(self, command: str | list[str], startup_timeout_s: float = 60.0, timeout_s: float = 60.0):
        args = shlex.split(command) if isinstance(command, str) else list(command)
        if not args:
            raise ValueError("UHP engine command is empty")
        self.command = " ".join(args)
        self.timeout_s = timeout_s
        try:
            self._process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                bufsize=1,
            )
        except OSError as error:
            raise UHPEngineError(f"cannot start UHP engine {self.command!r}: {error}") from None
        self._stdin = cast(IO[str], self._process.stdin)  # a pipe (stdin=PIPE above), never None
        self._lines: queue.Queue = queue.Queue(MAX_QUEUED_LINES)
        self._failure: str | None = None
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        threading.Thread(
            target=self._pump, args=(self._process.stdout, self._lines.put, True), daemon=True
        ).start()
        threading.Thread(
            target=self._pump, args=(self._process.stderr, self._stderr.append, False), daemon=True
        ).start()
        try:
            self.info = self._answer("info block at start-up", startup_timeout_s)
        except UHPEngineError:
            self.close(grace_s=1.0)
            raise
        self.id = next((line[3:] for line in self.info if line.startswith("id ")), self.command)

    @staticmethod
    def _pump(stream, put, mark_end: bool) -> None:
        """Queue the stream's lines, each read with a length cap; stdout (`mark_end`) stops at the
        first line over the cap (queueing `_TooLong`), stderr keeps its first `MAX_LINE_CHARS`."""
        while True:
            line = stream.readline(MAX_LINE_CHARS + 1)
            if not line:
                break
            if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
                if mark_end:
                    put(_TooLong)
                    return
                put(line[:MAX_LINE_CHARS] + " [cut]")
                while line and not line.endswith("\n"):  # skip the rest of this stderr line
                    line = stream.readline(MAX_LINE_CHARS + 1)
                continue
            put(line.rstrip("\r\n"))
        if mark_end:  # stdout: tell the reader that the stream ended
            put(_EOF)

    # -- protocol -------------------------------------------------------------------------------
    def send(self, command: str, timeout_s: float | None = None) -> list[str]:
        """Send one command line; return its answer lines (without the final ``ok``)."""
        if "\n" in command or "\r" in command:
            raise ValueError(f"a UHP command is one line, got {command!r}")
        if self._failure is not None:
            raise UHPEngineError(self._failure)
        if self._process.poll() is not None:
            raise UHPEngineError(f"UHP engine {self.command!r} has exited{self._stderr_tail()}")
        try:
            self._stdin.write(command + "\n")
            self._stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise UHPEngineError(
                f"UHP engine {self.command!r} closed its input{self._stderr_tail()}"
            ) from None
        lines = self._answer(command, self.timeout_s if timeout_s is None else timeout_s)
        for line in lines:
            if line.startswith("invalidmove"):
                raise UHPInvalidMove(f"{command!r}: {line}")
            if line.startswith("err"):
                raise UHPEngineError(f"{command!r}: {line}")
        return lines

    def _answer(self, what: str, timeout_s: float) -> list[str]:
        deadline = time.monotonic() + timeout_s
        lines: list[str] = []
        size = 0
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise UHPTimeout(
                    f"UHP engine {self.command!r} gave no answer to {what!r} within {timeout_s:g} s"
                ) from None
            if line is _EOF:
                raise UHPEngineError(
                    f"UHP engine {self.command!r} exited while answering {what!r}{self._stderr_tail()}"
                )
            if line is _TooLong:
                self._failure = (
                    f"UHP engine {self.command!r} printed a line longer than {MAX_LINE_CHARS} characters "
                    f"while answering {what!r}; its output is no longer read"
                )
                raise UHPEngineError(self._failure)
            if line == "ok":
                return lines
            size += len(line)
            if size > MAX_ANSWER_CHARS:
                self._failure = (
                    f"UHP engine {self.command!r} answered {what!r} with more than {MAX_ANSWER_CHARS} "
                    f"characters and no 'ok'"
                )
                raise UHPEngineError(self._failure)
            lines.append(line)

    def _stderr_tail(self) -> str:
        tail = " | ".join(self._stderr)
        return f" (stderr: {tail})" if tail else ""

    # -- commands -------------------------------------------------------------------------------
    def newgame(self, game: str = "Base") -> str:
        """Start a game (GameTypeString or GameString); returns the engine's GameString."""
        return self._one_line(self.send(f"newgame {game}"), "newgame")

    def play(self, move: str) -> str:
        return self._one_line(self.send(f"play {move}"), "play")

    def bestmove(self, depth: int | None = None, time_s: float | None = None) -> str:
        """The engine's move (not played). ``time_s`` is rounded up to whole seconds (UHP hh:mm:ss);
        the answer is awaited for that long plus ``timeout_s``."""
        if depth is not None and time_s is not None:
            raise ValueError("give depth or time_s, not both")
        command, wait = "bestmove", self.timeout_s
        if depth is not None:
            command = f"bestmove depth {int(depth)}"
        elif time_s is not None:
            seconds = max(1, int(-(-time_s // 1)))
            command = f"bestmove time {seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
            wait += seconds
        return self._one_line(self.send(command, wait), command)

    def _one_line(self, lines: list[str], command: str) -> str:
        if len(lines) != 1:
            raise UHPEngineError(
                f"UHP engine {self.command!r} answered {command!r} with {lines!r}; expected one line"
            )
        return lines[0]

    # -- lifetime -------------------------------------------------------------------------------
    def close(self, grace_s: float = 5.0) -> int | None:
        """End the process: end-of-file on its input, then terminate, then kill. Returns its exit code."""
        process = self._process
        if process.poll() is None:
            try:
                self._stdin.close()
            except OSError:
                pass
            try:
                return process.wait(grace_s)
            except subprocess.TimeoutExpired:
                process.terminate()
            try:
                return process.wait(grace_s)
            except subprocess.TimeoutExpired:
                process.kill()
        return process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
