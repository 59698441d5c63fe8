"""No function of the trainers or the evaluation (`hive_envs/training/`, `hive_envs/evaluation/`) is over
`MAX_LINES` lines, counted with `ast` from its first decorator (or ``def``) to its last line, docstring
included: a longer one is split into named steps."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("hive_envs/training", "hive_envs/evaluation")
MAX_LINES = 80


def long_functions(path: Path) -> list[str]:
    """``name, line N: L lines`` of each function in the file at ``path`` over `MAX_LINES` lines."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
            lines = node.end_lineno - first + 1
            if lines > MAX_LINES:
                found.append(f"{node.name}, line {first}: {lines} lines")
    return found


def test_no_function_of_the_trainers_or_the_evaluation_is_over_80_lines():
    paths = sorted(path for folder in FOLDERS for path in (ROOT / folder).rglob("*.py"))
    assert len(paths) > 30
    too_long = [f"{path.relative_to(ROOT)}: {entry}" for path in paths for entry in long_functions(path)]
    assert not too_long, f"functions over {MAX_LINES} lines (split them into named steps):\n" + "\n".join(
        too_long
    )


def test_a_function_one_line_over_is_found_with_its_decorator_counted(tmp_path):
    body = "".join(f"    x{k} = {k}\n" for k in range(MAX_LINES - 2))  # with def and decorator: 80 lines
    module = tmp_path / "module.py"
    module.write_text(
        f"@staticmethod\ndef fits():\n{body}\n\n@staticmethod\ndef over():\n{body}    return 0\n"
    )
    assert long_functions(module) == [f"over, line {MAX_LINES + 3}: {MAX_LINES + 1} lines"]
