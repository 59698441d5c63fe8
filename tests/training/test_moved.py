"""The evaluation's earlier names (`hive_envs.training.moved`): each is the moved module itself and
warns, imported or run with ``python -m``."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["arena", "evaluate", "ladder"])
def test_an_old_name_is_the_moved_module_and_warns(name):
    sys.modules.pop(f"hive_envs.training.{name}", None)
    with pytest.warns(DeprecationWarning, match=f"hive_envs.training.{name} is deprecated: it moved to"):
        old = importlib.import_module(f"hive_envs.training.{name}")
    assert old is importlib.import_module(f"hive_envs.evaluation.{name}")


def test_the_documented_import_of_the_ladder_still_works():
    sys.modules.pop("hive_envs.training.ladder", None)
    with pytest.warns(DeprecationWarning):
        from hive_envs.training.ladder import ladder
    from hive_envs.evaluation.ladder import ladder as moved

    assert ladder is moved


@pytest.mark.parametrize("name", ["arena", "evaluate"])
def test_an_old_name_runs_as_a_script_and_says_where_it_moved(name):
    run = subprocess.run(
        [sys.executable, "-m", f"hive_envs.training.{name}", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert f"hive-{name}" in run.stdout
    assert f"hive_envs.training.{name} is deprecated: it moved to hive_envs.evaluation.{name}" in run.stderr
