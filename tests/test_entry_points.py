"""The commands `pip install` puts on PATH ([project.scripts] in pyproject.toml) lead to real `main`s."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import shutil
import subprocess
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

SCRIPTS = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"][
    "scripts"
]


def test_the_package_offers_the_commands_the_docs_name():
    assert {"hive-uhp", "hive-perft", "hive-play", "hive-train", "hive-evaluate", "hive-arena"} <= set(
        SCRIPTS
    )


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_each_command_names_a_main_taking_optional_argv(name):
    module_name, _, function = SCRIPTS[name].partition(":")
    if module_name.startswith("hive_envs.training.rllib"):
        pytest.importorskip("ray")
    main = getattr(importlib.import_module(module_name), function)
    assert callable(main)
    parameters = list(inspect.signature(main).parameters.values())
    assert parameters and parameters[0].name == "argv" and parameters[0].default is None


def test_installed_perft_command_counts_the_base_start():
    command = shutil.which("hive-perft")
    if command is None:
        pytest.skip("hive-perft is not on PATH (the package is not installed in this environment)")
    out = subprocess.run([command, "2"], capture_output=True, text=True, timeout=300, check=True).stdout
    assert out.split() == ["96"]  # Base, tournament opening: 4 first placements x 24 replies


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_each_command_shows_its_usage_under_its_own_name(name):
    module_name, _, function = SCRIPTS[name].partition(":")
    if name == "hive-train-rllib":
        pytest.importorskip("ray")
    main = getattr(importlib.import_module(module_name), function)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    assert out.getvalue().startswith(f"usage: {name} ")
    assert "python training/" not in out.getvalue()  # the checkout's script forms are not a wheel's
