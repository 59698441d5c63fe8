"""The import contract: the package is a stack of layers (docs/architecture.md), imports go only downward.

Every import statement of `hive_envs/` and `training/` (module level or inside a function, it does not
matter: both run), and every ``importlib.import_module("name")`` of a written name (an import all the
same, only later), is read with `ast` and checked against `LAYERS`: a module may import modules of its
own layer or of a layer below it, and only the third-party libraries its layer allows. Within a layer
the import graph must have no cycle. A runtime check then imports the engines, encoders, batches and
players in a fresh interpreter where gymnasium, pettingzoo and torch cannot be imported at all, and
another plays an arena match and a ladder with the evaluation package in one where torch cannot.

A game definition's parts (``"module:attribute"`` texts, `hive_envs.core.definition.Part`) are not
imports: they are entry points, read on demand as Gymnasium's are, and point up from the definition to
its envs, drawing and agents by design (the registry and each game's envs then form loops through
them that no import statement closes).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("gymnasium", "pettingzoo", "torch", "ray")

# Bottom to top: (layer, module patterns, heavy third-party libraries it may import).
LAYERS = [
    (
        "protocol",
        [
            "hive_envs.version",
            "hive_envs.extras",
            "hive_envs.configs",
            "hive_envs.core",
            "hive_envs.core.game",
            "hive_envs.core.definition",
            "hive_envs.core.network_kind",
            "hive_envs.core.parts",
            "hive_envs.core.lazy",
            "hive_envs.core.choice",
            "hive_envs.core.cancel",
            "hive_envs.core.hashing",
            "hive_envs.core.shaping",
            "hive_envs.core.short_repr",
        ],
        (),
    ),
    (
        "engines",
        [
            "hive_envs.hive.engine",
            "hive_envs.hive.engine.*",
            "hive_envs.hoyito.engine",
            "hive_envs.hoyito.engine.*",
        ],
        (),
    ),
    # The searches sit on the rules: an engine never imports a search.
    (
        "search",
        [
            "hive_envs.core.alphabeta",
            "hive_envs.core.learned_eval",
            "hive_envs.hive.search",
            "hive_envs.hive.search.*",
            "hive_envs.hoyito.search",
            "hive_envs.hoyito.search.*",
        ],
        (),
    ),
    (
        "encoders",
        [
            "hive_envs.hive.encoding",
            "hive_envs.hive.piece_layout",
            "hive_envs.hive.piece_audit",
            "hive_envs.hive.piece_encoding",
            "hive_envs.hive.observations",
            "hive_envs.hive.rule_features",
            "hive_envs.hoyito.encoding",
        ],
        (),
    ),
    (
        "batches",
        [
            "hive_envs.core.batch",
            "hive_envs.core.aec_source",
            "hive_envs.core.aec_make",
            "hive_envs.core.aec_game",
            "hive_envs.core.aec_batch",
            "hive_envs.core.aec_definition",
            "hive_envs.hive.batch",
            "hive_envs.hoyito.batch",
            "hive_envs.hive.definition",
            "hive_envs.hoyito.definition",
            "hive_envs.hive",
            "hive_envs.hoyito",
            "hive_envs.games",
            "hive_envs.pretrained",
        ],
        (),
    ),
    (
        "presentation",
        [
            "hive_envs.hive.render",
            "hive_envs.hoyito.render",
            "hive_envs.hive.web_board",
            "hive_envs.hoyito.web_board",
            "hive_envs.uhp_client",
        ],
        (),
    ),
    # The agents: the generic networks and search, and each game's agent kit beside its rules.
    (
        "agents",
        [
            "hive_envs.agents",
            "hive_envs.agents.*",
            "hive_envs.hive.agent",
            "hive_envs.hive.agent.*",
            "hive_envs.hoyito.agent",
            "hive_envs.hoyito.agent.*",
        ],
        ("torch",),
    ),
    ("players", ["hive_envs.players", "hive_envs.players.*"], ("torch",)),
    (
        "envs",
        [
            "hive_envs",
            "hive_envs.registration",
            "hive_envs.core.aec",
            "hive_envs.core.env_input",
            "hive_envs.core.game_env",
            "hive_envs.core.opponents",
            "hive_envs.core.single_agent",
            "hive_envs.core.vector",
            "hive_envs.hive.env",
            "hive_envs.hive.feature_observation",
            "hive_envs.hive.gym_env",
            "hive_envs.hive.vector_env",
            "hive_envs.hoyito.env",
            "hive_envs.hoyito.gym_env",
            "hive_envs.hive_v0",
            "hive_envs.hoyito_v0",
            "hive_envs.testing",
        ],
        ("gymnasium", "pettingzoo"),
    ),
    (
        "tools",
        [
            "hive_envs.terminal",
            "hive_envs.hive.uhp",
            "hive_envs.uhp",
            "hive_envs.play",
            "hive_envs.hive.perft",
            "hive_envs.web",
            "hive_envs.web.*",
        ],
        (),
    ),
    # Matches, the arena, the ladder: below the trainers, and without torch (a checkpoint player
    # imports it when it is made, in the players layer).
    ("evaluation", ["hive_envs.evaluation", "hive_envs.evaluation.*"], ()),
    (
        "training",
        # the screen of Hoyito's board values plays matches with the arena's machinery
        [
            "hive_envs.training",
            "hive_envs.training.*",
            "training.*",
            "hive_envs.hoyito.agent.board_values_screen",
        ],
        ("torch", "ray", "gymnasium", "pettingzoo"),
    ),
    ("commands", ["hive_envs.commands"], ()),
]
# Within agents and players, only these modules may import torch (the rest stays importable without it).
TORCH_FREE = [
    "hive_envs.agents.network_kinds",
    "hive_envs.agents.views",
    "hive_envs.hive.agent",
    "hive_envs.hive.agent.features",
    "hive_envs.hive.agent.history",
    "hive_envs.hive.agent.options",
    "hive_envs.hoyito.agent",
    "hive_envs.hoyito.agent.features",
    "hive_envs.hoyito.agent.options",
    "hive_envs.players",
    "hive_envs.players.alphabeta",
    "hive_envs.players.base",
    "hive_envs.players.builtin",
    "hive_envs.players.specs",
    "hive_envs.players.uhp_engine",
]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {
    module_name(path): path
    for folder in ("hive_envs", "training")
    for path in sorted((ROOT / folder).rglob("*.py"))
}


def layer_of(module: str) -> int:
    """Index in LAYERS of the most specific pattern matching ``module``."""
    best, best_len = None, -1
    for index, (_, patterns, _) in enumerate(LAYERS):
        for pattern in patterns:
            if fnmatchcase(module, pattern) and len(pattern) > best_len:
                best, best_len = index, len(pattern)
    if best is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS in tests/test_layers.py")
    return best


def imported_by_name(node: ast.AST) -> str | None:
    """The module an ``importlib.import_module("name")`` (or ``import_module("name")``) call imports,
    when the name is written in the call; None for any other node."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    function, name = node.func, node.args[0]
    called = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
    if called == "import_module" and isinstance(name, ast.Constant) and isinstance(name.value, str):
        return name.value
    return None


def imports_of(module: str) -> list[tuple[str, int]]:
    """(imported module, line) of every import in ``module``; ``from pkg import name`` counts as
    importing ``pkg.name`` when that is a module of ours, else ``pkg``; ``importlib.import_module``
    of a written name counts as importing it."""
    tree = ast.parse(MODULES[module].read_text(), str(MODULES[module]))
    found = []
    for node in ast.walk(tree):
        by_name = imported_by_name(node)
        if by_name is not None:
            found.append((by_name, node.lineno))
        elif isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative imports are not used in this package; resolve them anyway
                package = module.split(".")[: -node.level or None] if module in MODULES else []
                base = ".".join([*package, base]) if base else ".".join(package)
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.append((candidate if candidate in MODULES else base, node.lineno))
    return found


def internal_edges() -> dict[str, set[str]]:
    return {
        module: {name for name, _ in imports_of(module) if name in MODULES and name != module}
        for module in MODULES
    }


def test_every_module_has_a_layer():
    for module in MODULES:
        layer_of(module)


def test_imports_only_go_downward_and_heavy_libraries_stay_in_their_layers():
    problems = []
    for module in MODULES:
        own = layer_of(module)
        for name, line in imports_of(module):
            where = f"{module} line {line} ({LAYERS[own][0]})"
            top = name.split(".")[0]
            if name in MODULES and layer_of(name) > own:
                problems.append(f"{where} imports {name} from the higher layer {LAYERS[layer_of(name)][0]}")
            elif top in HEAVY and top not in LAYERS[own][2]:
                problems.append(f"{where} imports {top}, which layer {LAYERS[own][0]} may not use")
            elif top == "torch" and module in TORCH_FREE:
                problems.append(f"{where} imports torch; this module must import without it")
    assert not problems, "layer rules broken:\n" + "\n".join(problems)


def test_no_import_cycles():
    edges = internal_edges()
    state: dict[str, int] = {}  # 1 on the DFS stack, 2 done
    cycles = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for other in sorted(edges[module]):
            if state.get(other) == 1:
                cycles.append(" -> ".join(path[path.index(other) :] + [other]))
            elif other not in state:
                visit(other, [*path, other])
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_the_contract_catches_an_upward_import(monkeypatch, tmp_path):
    """The checks above can fail: an engine module importing a player is reported."""
    bad = tmp_path / "bad_engine_module.py"
    bad.write_text("from hive_envs.players import make_player\nimport torch\n")
    monkeypatch.setitem(MODULES, "hive_envs.hive.engine.bad_engine_module", bad)
    with pytest.raises(AssertionError, match="higher layer players") as raised:
        test_imports_only_go_downward_and_heavy_libraries_stay_in_their_layers()
    assert "imports torch, which layer engines may not use" in str(raised.value)


def test_an_import_by_importlib_closes_a_cycle_too(monkeypatch, tmp_path):
    """A module that reaches a module above it with ``importlib.import_module("...")`` imports it: the
    registry of games imports `aec_source`, so `aec_source` importing the registry so is a cycle."""
    hidden = tmp_path / "aec_source.py"
    hidden.write_text(
        'import importlib\n\ndef games():\n    return importlib.import_module("hive_envs.games")\n'
    )
    monkeypatch.setitem(MODULES, "hive_envs.core.aec_source", hidden)
    assert ("hive_envs.games", 4) in imports_of("hive_envs.core.aec_source")
    with pytest.raises(AssertionError, match="hive_envs.core.aec_source -> hive_envs.games"):
        test_no_import_cycles()


@pytest.mark.parametrize(
    "imported",
    ["hive_envs.hive.search.alphabeta", "hive_envs.hoyito.search.alphabeta", "hive_envs.core.alphabeta"],
)
def test_the_rules_never_import_the_search(monkeypatch, tmp_path, imported):
    """The rules (`hive/engine`, `hoyito/engine`) sit below the searches: a rules module importing a
    search module is an upward import."""
    assert layer_of("hive_envs.hive.engine.rules") < layer_of(imported) < layer_of("hive_envs.hive.encoding")
    bad = tmp_path / "rules_with_search.py"
    bad.write_text(f"import {imported}\n")
    monkeypatch.setitem(MODULES, "hive_envs.hoyito.engine.rules_with_search", bad)
    with pytest.raises(AssertionError, match=f"imports {imported} from the higher layer search"):
        test_imports_only_go_downward_and_heavy_libraries_stay_in_their_layers()


def test_engines_encoders_batches_and_players_run_without_gymnasium_pettingzoo_and_torch():
    code = textwrap.dedent(
        """
        import importlib.abc, sys

        class Refuse(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("gymnasium", "pettingzoo", "torch"):
                    raise ModuleNotFoundError(f"blocked: {name}", name=name.split(".")[0])

        sys.meta_path.insert(0, Refuse())
        from hive_envs.hive import HiveBatch, HiveGame
        from hive_envs.hoyito import HoyitoBatch, HoyitoGame
        from hive_envs.players import make_player
        import hive_envs.games, hive_envs.hive.render, hive_envs.hoyito.render

        game = HiveGame("Base+MLP")
        game.play_id(make_player("greedy").choose(game))
        batch = HoyitoBatch(4)
        batch.step(make_player("random").act(batch, list(range(4))))
        hive = HiveBatch(2)
        hive.step(make_player("greedy").act(hive, [0, 1]))
        print(sorted(m for m in sys.modules if m.split(".")[0] in ("gymnasium", "pettingzoo", "torch")))
        """
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_the_evaluation_plays_an_arena_match_and_a_ladder_without_torch(tmp_path):
    """The evaluation package sits below the trainers and imports no torch: a match between classical
    players, its report and a ladder run where torch cannot be imported (a checkpoint player would
    import it when made, and say which extra brings it)."""
    code = textwrap.dedent(
        f"""
        import importlib.abc, sys

        class Refuse(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] == "torch":
                    raise ModuleNotFoundError(f"blocked: {{name}}", name="torch")

        sys.meta_path.insert(0, Refuse())
        import hive_envs.evaluation.agent_results, hive_envs.evaluation.evaluate
        from hive_envs.evaluation import arena, ladder

        settings = arena.Settings(game="hoyito", seed=1)
        report = arena.run(["alphabeta:2"], ["greedy"], 4, settings, out=r"{tmp_path / "arena.json"}")
        (match,) = report["matches"]
        assert match["games"] == 4 and match["wins"] + match["draws"] + match["losses"] == 4, match
        elo = ladder.ladder(game="hoyito", games=2, progress=False)["elo"]
        assert {{row["player"] for row in elo}} >= {{"random", "greedy", "alphabeta:2"}}, elo
        print(sorted(m for m in sys.modules if m.split(".")[0] == "torch"))
        """
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "[]"
    assert (tmp_path / "arena.json").is_file()
