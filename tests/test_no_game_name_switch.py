"""No code outside the games' own folders and the registry chooses by a game's name.

Every tool reads a game's `GameDefinition` (`hive_envs.games`) instead; this test reads every module
of `hive_envs/`, `training/` and `benchmarks/` with `ast` and fails on a comparison with a game's
name (``game == "hive"``, ``game in ("hive", ...)``), a dict keyed on one (``{"hive": ...}``) or a
lookup by one (``GAMES["hive"]``). Naming a game as a default value or an argument is fine.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = {"hive", "hoyito"}
ALLOWED = ("hive_envs/hive/", "hive_envs/hoyito/", "hive_envs/hive_v0.py", "hive_envs/hoyito_v0.py")
REGISTRY = ("hive_envs/games.py", "hive_envs/registration.py")


def _is_name(node) -> bool:
    return isinstance(node, ast.Constant) and node.value in NAMES


def _names_in(node) -> bool:
    return _is_name(node) or (
        isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(map(_is_name, node.elts))
    )


def _switch(node) -> bool:
    """A comparison with a game's name, a dict keyed on one, or a lookup by one."""
    if isinstance(node, ast.Compare):
        return any(map(_names_in, [node.left, *node.comparators]))
    if isinstance(node, ast.Dict):
        return any(key is not None and _is_name(key) for key in node.keys)
    return isinstance(node, ast.Subscript) and _is_name(node.slice)


def switches(tree: ast.AST) -> list[int]:
    return sorted(node.lineno for node in ast.walk(tree) if _switch(node))


def test_the_detector_finds_each_kind_of_switch():
    code = 'a = g == "hive"\nb = g in ("x", "hoyito")\nc = {"hive": 1}\nd = GAMES["hoyito"]\ne = f(game="hive")\n'
    assert switches(ast.parse(code)) == [1, 2, 3, 4]


def test_no_module_outside_the_games_and_the_registry_switches_on_a_game_name():
    found = []
    for folder in ("hive_envs", "training", "benchmarks"):  # training/: the scripts of a checkout
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(ALLOWED) or relative in REGISTRY:
                continue
            found += [f"{relative}:{line}" for line in switches(ast.parse(path.read_text(), relative))]
    assert not found, "game-name switches (read the game's definition instead):\n" + "\n".join(found)
