"""The page's warm-up notice reads `CompileWatch`: it counts what numba compiles in this process and
nothing it loads from its cache, so a second run of the same kernels counts none (``cache=True``)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("flask")

from numba import njit

from hive_envs.web.compiling import compile_watch
from hive_envs.web.server import create_app

ROOT = Path(__file__).resolve().parents[2]


def test_a_compilation_is_counted_and_timed():
    watch = compile_watch()
    before, seconds_before = watch.status(), watch.seconds  # the status rounds to a tenth of a second

    @njit
    def twice(x):  # a new function: numba compiles it on this first call
        return 2 * x

    assert twice(21) == 42
    after = watch.status()
    assert after["functions"] >= before["functions"] + 1 and watch.seconds > seconds_before
    assert not after["compiling"] and after["function"] is None


def test_the_warmup_endpoint_answers_the_watchs_status():
    status = create_app().test_client().get("/api/warmup").json
    assert set(status) == {"compiling", "function", "functions", "seconds", "estimate_s"}
    assert status["compiling"] is False and status["estimate_s"] > 0


def test_a_kernel_compiled_once_is_loaded_from_the_cache_by_the_next_run(tmp_path):
    (tmp_path / "kernel_module.py").write_text(
        "from numba import njit\n\n\n@njit(cache=True)\ndef kernel(x):\n    return x + 1\n"
    )
    script = textwrap.dedent(
        """
        from hive_envs.web.compiling import compile_watch
        watch = compile_watch()
        from kernel_module import kernel
        assert kernel(1) == 2
        print(watch.status()["functions"])
        """
    )
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
    }
    runs = [
        int(
            subprocess.run(
                [sys.executable, "-c", script],
                env=env,
                cwd=tmp_path,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for _ in range(2)
    ]
    assert runs[0] >= 1 and runs[1] == 0
