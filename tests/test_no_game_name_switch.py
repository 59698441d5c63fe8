"""No code outside the games' own folders and the registry chooses by a game, or reaches into one.

Every tool reads a game's `GameDefinition` (`hive_envs.games`), and a network through its kind
(`hive_envs.agents.network_kinds`), instead. Read with `ast` (Python) or as text (the page's
JavaScript), this test fails on:

1. a comparison with a game's name (``game == "hive"``, ``game in ("hive", ...)``), a dict keyed on
   one (``{"hive": ...}``) or a lookup by one (``GAMES["hive"]``) in any module of `hive_envs/`,
   `training/` and `benchmarks/` outside the games' folders and the registry (naming a game as a
   default value or an argument is fine);
2. the name of a game's own network kind (``"hive_lookahead"``: its definition's ``agents.networks``)
   in a string of a generic module (docstrings aside), whether compared, keyed on or written into a
   message: the kind is looked up by the name a config or checkpoint gives, never named;
3. an import of a game's package (``hive_envs.hive...``, ``hive_envs.hoyito...``, or a
   ``"module:attribute"`` text naming one) from a generic module of the package: only the registry
   and the games' documented entry modules (`IMPORTS_ALLOWED`) may;
4. a game's name in the page's JavaScript as a string, a property or a key (``kind === "hive"``,
   ``BOARDS.hive``), or in a script the page loads: the page draws what the definition names.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from hive_envs.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
NAMES = {"hive", "hoyito"}
ALLOWED = ("hive_envs/hive/", "hive_envs/hoyito/", "hive_envs/hive_v0.py", "hive_envs/hoyito_v0.py")
REGISTRY = ("hive_envs/games.py", "hive_envs/registration.py")
DATA = ("hive_envs/pretrained.py",)
"""Registries of data, not code: the shipped agents by name, each with a line saying what it plays
(its game and network). Their strings may name a game's kind; their code may not switch on a game."""
GAME_PACKAGES = re.compile(r"hive_envs\.(hive|hoyito)(_v0)?(\.|:|$)")
IMPORTS_ALLOWED = {
    "hive_envs/games.py": "the registry of the definitions",
    "hive_envs/hive_v0.py": "Hive's PettingZoo module (its documented name)",
    "hive_envs/hoyito_v0.py": "Hoyito's PettingZoo module (its documented name)",
    "hive_envs/uhp.py": "`python -m hive_envs.uhp`, the UHP engine, which plays Hive",
    "hive_envs/commands.py": "the hive-uhp command, the same engine",
}
PAGE = ROOT / "hive_envs" / "web" / "static"


def game_kinds() -> set[str]:
    """The names of the network kinds the games declare (not the generic ones)."""
    return {kind.name for definition in GAMES.values() for kind in definition.agents.networks}


# ---------------------------------------------------------------- detectors
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


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants (a module's, class's or function's first statement)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            found.add(id(first.value))
    return found


def kind_literals(tree: ast.AST, kinds: set[str]) -> list[int]:
    """Lines of the strings (not docstrings) that hold the name of one of ``kinds`` as a word."""
    if not kinds:
        return []
    word = re.compile(r"\b(" + "|".join(map(re.escape, sorted(kinds))) + r")\b")
    docstrings = _docstrings(tree)
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and word.search(node.value)
    )


def game_imports(tree: ast.AST) -> list[int]:
    """Lines that import a game's package, or name one in a ``"module:attribute"`` text."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and " " not in node.value:
            names = [node.value]
        else:
            continue
        if any(GAME_PACKAGES.match(name) for name in names):
            found.append(node.lineno)
    return sorted(set(found))


_JS_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)


def page_switches(text: str, names: set[str]) -> list[int]:
    """Lines of page code (JavaScript or HTML, comments aside) that name a game: as a string
    (``"hive"``), a property (``.hive``), an object key (``hive:``) or in a loaded file's name
    (``src="board_hive.js"``)."""
    name = "(" + "|".join(map(re.escape, sorted(names))) + ")"
    alone = rf"(?<![\w$]){name}(?![\w$])"  # not part of a longer identifier (hiveApp, hive_envs)
    use = re.compile(
        rf"""["'`]{name}["'`]|\.{name}(?![\w$])|{alone}\s*:|src=["'][^"']*(?<![A-Za-z]){name}(?![A-Za-z])"""
    )
    code = _JS_COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return [number for number, line in enumerate(code.splitlines(), 1) if use.search(line)]


# ---------------------------------------------------------------- the scans of a tree
def python_modules(root: Path, folders=("hive_envs", "training", "benchmarks")):
    for folder in folders:  # training/: the scripts of a checkout
        for path in sorted((root / folder).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            if relative.startswith(ALLOWED) or relative in REGISTRY:
                continue
            yield relative, ast.parse(path.read_text(), relative)


def game_name_switches(root: Path) -> list[str]:
    return [f"{where}:{line}" for where, tree in python_modules(root) for line in switches(tree)]


def game_kind_literals(root: Path, kinds: set[str]) -> list[str]:
    return [
        f"{where}:{line}"
        for where, tree in python_modules(root)
        if where not in DATA
        for line in kind_literals(tree, kinds)
    ]


def imports_of_game_packages(root: Path) -> list[str]:
    found = []
    for path in sorted((root / "hive_envs").rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(("hive_envs/hive/", "hive_envs/hoyito/")) or relative in IMPORTS_ALLOWED:
            continue
        found += [f"{relative}:{line}" for line in game_imports(ast.parse(path.read_text(), relative))]
    return found


def page_game_switches(root: Path, names: set[str]) -> list[str]:
    page = root / "hive_envs" / "web" / "static"
    return [
        f"{path.relative_to(root).as_posix()}:{line}"
        for path in sorted([*page.glob("*.js"), *page.glob("*.html")])
        for line in page_switches(path.read_text(), names)
    ]


# ---------------------------------------------------------------- the detectors, on written examples
def test_the_detector_finds_each_kind_of_switch():
    code = 'a = g == "hive"\nb = g in ("x", "hoyito")\nc = {"hive": 1}\nd = GAMES["hoyito"]\ne = f(game="hive")\n'
    assert switches(ast.parse(code)) == [1, 2, 3, 4]


def test_the_detector_finds_a_kind_named_in_code_but_not_in_a_docstring():
    code = (
        '"""The hive_lookahead network."""\n'
        'def f(config):\n    """Uses hive_lookahead."""\n    return config.network == "hive_lookahead"\n'
        'KEYS = {"hoyito_lookahead": "hoyito_features"}\n'
        'HELP = "network: mlp or hive_lookahead (Hive only)"\n'
        'OTHER = "hive_lookaheads, mlp"\n'
    )
    assert kind_literals(ast.parse(code), {"hive_lookahead", "hoyito_lookahead"}) == [4, 5, 6]


def test_the_detector_finds_each_way_of_reaching_into_a_game_package():
    code = (
        "import hive_envs.hive.engine\n"
        "from hive_envs.hoyito.engine.game import HoyitoGame\n"
        "from hive_envs import hive\n"
        "def f():\n    from hive_envs.hive import HiveGame\n"
        'PART = "hive_envs.hive.render:render_ansi"\n'
        'TEXT = "not hive_envs.hive: a sentence"\n'
        "from hive_envs.games import GAMES\n"
        "from hive_envs import hive_v0\n"
    )
    assert game_imports(ast.parse(code)) == [1, 2, 3, 5, 6, 9]


def test_the_detector_finds_a_game_named_in_the_pages_code_but_not_in_its_comments():
    code = (
        '// the drawing of kind "hive" (a comment)\n'
        'if (position.kind === "hive") draw();\n'
        "BOARDS.hoyito = { draw };\n"
        "const boards = { hive: drawHive };\n"
        '<script src="board_hoyito.js"></script>\n'
        "window.hiveApp = app; const t = `${hive_envs}`;\n"
        "/* BOARDS.hive\n   spans lines */ registerBoard(board);\n"
    )
    assert page_switches(code, NAMES) == [2, 3, 4, 5]


# ---------------------------------------------------------------- the package
def test_no_module_outside_the_games_and_the_registry_switches_on_a_game_name():
    found = game_name_switches(ROOT)
    assert not found, "game-name switches (read the game's definition instead):\n" + "\n".join(found)


def test_no_generic_module_names_a_games_network_kind():
    kinds = game_kinds()
    assert kinds, "the games declare network kinds (their definitions' agents.networks)"
    found = game_kind_literals(ROOT, kinds)
    assert not found, "a game's network kind named in generic code (look it up by name):\n" + "\n".join(found)


def test_no_generic_module_imports_a_games_package():
    found = imports_of_game_packages(ROOT)
    assert not found, "a game's package imported outside the games (read its definition):\n" + "\n".join(
        found
    )
    assert all((ROOT / path).is_file() for path in IMPORTS_ALLOWED)


def test_the_page_names_no_game():
    found = page_game_switches(ROOT, set(GAMES))
    assert not found, "a game named in the page's code (the definition names its drawing):\n" + "\n".join(
        found
    )
