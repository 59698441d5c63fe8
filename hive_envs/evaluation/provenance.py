"""Where and from what a result was measured: the machine, the library versions, the git commit.

Every results file the package writes (benchmarks, Elo ladders, training reports) records these, so
a figure can be traced to the code and the machine that produced it.
"""

from __future__ import annotations

import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path

LIBRARIES = ("numpy", "numba", "torch", "open_spiel", "pettingzoo", "gymnasium", "shimmy", "chess")
ROOT = Path(__file__).resolve().parents[2]


def machine() -> dict:
    """CPU model, CPU count, the CPUs this process may run on, platform and Python version."""
    model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    affinity = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "cpu_model": model,
        "cpus": os.cpu_count(),
        "affinity": affinity,
        "platform": platform.platform(),
        "python": platform.python_version(),
    }


def versions() -> dict:
    """Installed versions of the libraries the rows use (None when one is not installed)."""
    found: dict[str, str | None] = {}
    for name in LIBRARIES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def git_commit(untracked: bool = True) -> tuple[str | None, bool]:
    """(HEAD's sha, whether the tree has uncommitted changes); (None, False) outside a git checkout.
    ``untracked=False``: files git does not track (e.g. results being written) do not count."""

    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)

    head = git("rev-parse", "HEAD")
    if head.returncode != 0:
        return None, False
    status = git("status", "--porcelain", f"--untracked-files={'normal' if untracked else 'no'}")
    return head.stdout.strip(), bool(status.stdout.strip())


def utc_text(iso: str) -> str:
    """``'2026-12-01T02:53:48+00:00'`` (a report's ``date``) -> ``'2026-12-01 02:53:48'`` (UTC)."""
    return str(iso).replace("T", " ").replace("+00:00", "")
