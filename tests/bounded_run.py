"""Run a piece of Python in a fresh interpreter whose memory and time are capped: a test that an input
is refused *within bounds* fails cleanly (MemoryError, timeout) instead of exhausting the machine."""

from __future__ import annotations

import subprocess
import sys
import textwrap
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
