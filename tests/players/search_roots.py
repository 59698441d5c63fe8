"""Recording the roots of the PUCT searches a test's players run (`hive_envs.agents.search.search_root`)."""

from __future__ import annotations

from types import ModuleType


def record_search_roots(monkeypatch, *modules: ModuleType) -> list[tuple]:
    """Every root ``search_root`` returns from here on, called through any of ``modules`` (each imported
    it), as (root moves, visits, value sums, simulations), copied when the search returned."""
    found: list[tuple] = []
    search_root = modules[0].search_root

    def recording(*args, **kwargs):
        root = search_root(*args, **kwargs)
        found.append((root.moves.copy(), root.n.copy(), root.w.copy(), root.visits))
        return root

    for module in modules:
        monkeypatch.setattr(module, "search_root", recording)
    return found
