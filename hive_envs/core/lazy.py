"""Names of a package imported on first use (PEP 562), so that importing one of its modules does not
import all the others through the package's ``__init__``.

    if TYPE_CHECKING:
        from pkg.engine.game import Game as Game      # read by type checkers, and by lazy_names
    __getattr__, __dir__, __all__ = lazy_names(__name__, __file__)

The ``if TYPE_CHECKING:`` imports are the one list of the package's names: type checkers read them
as imports, `lazy_names` reads them with `ast` to know where each name lives (the scheme of
scientific-python's ``lazy_loader.attach_stub``, without a separate stub file).
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _typing_imports(path: str) -> dict[str, str]:
    """Name -> module of the ``from module import name`` lines under the module's ``if TYPE_CHECKING:``."""
    module_of = {}
    for node in ast.parse(Path(path).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for line in node.body:
                if isinstance(line, ast.ImportFrom) and line.module and not line.level:
                    module_of.update({alias.asname or alias.name: line.module for alias in line.names})
    return module_of


def lazy_names(package: str, path: str) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """The ``__getattr__``, ``__dir__`` and ``__all__`` of ``package`` (its ``__init__`` at ``path``):
    the names its ``if TYPE_CHECKING:`` block imports, each imported on its first read and then kept."""
    module_of = _typing_imports(path)

    def __getattr__(name: str) -> Any:
        if name not in module_of:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module_of[name]), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *module_of})

    return __getattr__, __dir__, sorted(module_of)
