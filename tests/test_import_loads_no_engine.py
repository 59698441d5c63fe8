"""`import hive_envs` registers every env id without loading an engine, numba or torch: the game
definitions name their parts by ``"module:attribute"`` texts, imported on first use, and the game
packages' names are imported on first read. Using a part loads it."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import hive_envs.hive
import hive_envs.hoyito
from hive_envs.core.lazy import _typing_imports
from hive_envs.hive.definition import HIVE
from hive_envs.hive.engine.heuristics import POTENTIAL_NAME as HIVE_POTENTIAL
from hive_envs.hive.engine.options import EXPANSION_SETS, game_type_of
from hive_envs.hoyito.definition import HOYITO
from hive_envs.hoyito.engine.game import POTENTIAL_NAME as HOYITO_POTENTIAL

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numba", "torch", "hive_envs.hive.engine", "hive_envs.hoyito.engine", "hive_envs.hive.batch")


def loaded_after(code: str) -> list[str]:
    """The modules of `HEAVY` loaded in a fresh interpreter after running ``code``."""
    check = f"import sys\n{code}\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr
    return eval(run.stdout.strip().splitlines()[-1])


def test_importing_the_package_registers_the_ids_and_loads_no_engine_numba_or_torch():
    code = textwrap.dedent(
        """
        import gymnasium, pettingzoo, hive_envs
        from hive_envs.games import GAMES
        assert "hive_envs/HiveMLP-v0" in gymnasium.registry and "hive_envs/Hoyito-v0" in gymnasium.registry
        assert "hive_envs/hive-v0" in pettingzoo.aec_registry
        assert sorted(GAMES) == ["aec", "hive", "hoyito"]
        """
    )
    assert loaded_after(code) == []


def test_using_a_part_of_a_definition_loads_it():
    assert loaded_after("from hive_envs.games import GAMES; GAMES['hoyito'].game()") == [
        "hive_envs.hoyito.engine",
        "numba",
    ]


def test_the_texts_written_out_in_the_hive_definition_are_the_engines():
    expected = {f"hive_envs/Hive{letters}-v0" for letters in EXPANSION_SETS}
    assert set(HIVE.gym_envs) == expected
    for options in HIVE.gym_envs.values():
        assert HIVE.label(HIVE.parse_options(options)) == "Hive " + game_type_of(
            options.get("expansions", "")
        )
    assert HIVE.potential == HIVE_POTENTIAL
    assert HOYITO.potential == HOYITO_POTENTIAL


@pytest.mark.parametrize("package", [hive_envs.hive, hive_envs.hoyito])
def test_a_game_package_gives_each_of_its_names_from_the_module_that_defines_it(package):
    sources = _typing_imports(package.__file__)
    assert sorted(sources) == package.__all__ and len(sources) >= 4
    for name, module in sources.items():
        assert getattr(package, name) is getattr(importlib.import_module(module), name)
        assert name in dir(package)
    with pytest.raises(AttributeError, match="has no attribute 'Nothing'"):
        package.Nothing  # noqa: B018
