"""Bounds on a test's own run, so that a test that an input is refused *within bounds* fails cleanly
(MemoryError, timeout) on code that does not bound it, instead of exhausting the machine:
`run_bounded` runs Python in a fresh interpreter with its memory and time capped (`refusal_bounded`: one
call whose ValueError is the answer), `deadline` stops a block of this process after some seconds."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

resource = pytest.importorskip("resource")  # POSIX only

ROOT = Path(__file__).resolve().parent.parent


def run_bounded(code: str, memory_bytes: int = 1 << 30, seconds: float = 60) -> subprocess.CompletedProcess:
    """``python -c code`` from the repository root with its address space capped at ``memory_bytes``
    (RLIMIT_AS) and its wall time at ``seconds`` (then killed: the result's returncode is -9)."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))

    try:
        return subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            check=False,
            cwd=ROOT,
            preexec_fn=cap,
            capture_output=True,
            text=True,
            timeout=seconds,
        )
    except subprocess.TimeoutExpired as expired:
        return subprocess.CompletedProcess(expired.cmd, -9, "", f"timed out after {seconds} s")


def refusal_bounded(
    module: str, function: str, path: str | Path, memory_bytes: int, seconds: float
) -> subprocess.CompletedProcess:
    """`run_bounded` of ``function(path)`` imported from ``module``, printing the ValueError it raises
    (the refusal a test expects within the bounds) on stdout."""
    code = f"""
        from {module} import {function}
        try:
            {function}({str(path)!r})
        except ValueError as error:
            print(error)
    """
    return run_bounded(code, memory_bytes=memory_bytes, seconds=seconds)


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise TimeoutError in the block once ``seconds`` have passed (SIGALRM: the main thread only)."""

    def expire(*_: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
