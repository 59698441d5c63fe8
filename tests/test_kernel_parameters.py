"""No compiled kernel of the package takes more than 12 parameters.

A kernel that needs more takes its inputs and buffers grouped: tuples or NamedTuples of arrays and
scalars, which numba passes as one value (the search's `SearchLimits`, `SearchSettings`,
`SearchTables`, `SearchOutput`; the per-ply frames of `hive_envs.core.alphabeta.new_frames`). Every
module of `hive_envs` is imported and each numba dispatcher it defines (``@njit``, ``@kernel``,
``@inline_kernel``, ...) is read through its Python function.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types

import numba
from numba.core.dispatcher import Dispatcher

import hive_envs

MAX_PARAMETERS = 12


def compiled_kernels(modules) -> dict[str, object]:
    """Qualified name -> Python function of every numba dispatcher defined in ``modules``."""
    found = {}
    for module in modules:
        for name, value in vars(module).items():
            if isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__:
                found[f"{module.__name__}.{name}"] = value.py_func
    return found


def over_the_limit(kernels: dict[str, object]) -> dict[str, int]:
    counts = {name: len(inspect.signature(function).parameters) for name, function in kernels.items()}
    return {name: count for name, count in counts.items() if count > MAX_PARAMETERS}


def package_modules():
    return [
        importlib.import_module(info.name) for info in pkgutil.walk_packages(hive_envs.__path__, "hive_envs.")
    ]


def test_no_compiled_kernel_takes_more_than_twelve_parameters():
    kernels = compiled_kernels(package_modules())
    assert "hive_envs.hive.search.negamax.alphabeta_kernel" in kernels  # the scan sees the kernels
    assert len(kernels) > 150
    assert over_the_limit(kernels) == {}, "group these kernels' buffers (a tuple or NamedTuple)"


def test_the_check_reports_a_kernel_over_the_limit():
    @numba.njit
    def thirteen(a, b, c, d, e, f, g, h, i, j, k, l, m):
        return a

    @numba.njit
    def twelve(a, b, c, d, e, f, g, h, i, j, k, l):
        return a

    module = types.ModuleType(__name__)  # a module defining both, as the scan reads one
    module.thirteen, module.twelve = thirteen, twelve
    assert over_the_limit(compiled_kernels([module])) == {f"{__name__}.thirteen": 13}
