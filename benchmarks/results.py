"""The results file of a benchmark run (``python -m benchmarks --json PATH``): what was measured, where.

One JSON document holds every figure the docs quote (`benchmarks.tables` renders their tables from it,
`python -m tools.render_docs` puts them in the pages)::

    {
      "schema": 1,
      "command": "python -m benchmarks --seconds 3 --json docs/results/bench.json",
      "date": "2026-12-01T10:00:00+00:00",            # UTC, when the run started
      "commit": "<git sha>", "dirty": false,            # the tree measured (dirty: uncommitted changes)
      "machine": {"cpu_model", "cpus", "affinity", "platform", "python"},
      "load_average": {"before": [1, 5, 15 min], "after": [...]},
      "versions": {"numpy", "numba", "torch", "open_spiel", "pettingzoo", "gymnasium", "shimmy", ...},
      "seconds_per_row": 3.0, "isolated": true, "numba_threads": 1,
      "rows": [{"key", "game", "path", "calls", "plies_per_second", "cpu_plies_per_second",
                "peer", "ratio", "ratio_cpu", "peak_rss_bytes", "buffer_bytes", "note", "load_1min"}],
      "perft": [{"game_type", "depth", "nodes", "best_wall_ms", "best_cpu_ms", "repeats"}],
      "kernel_costs": [{"game_type", "positions", "mean_legal_moves", "us_per_position": {...}}],
      "search": {"command", "date", "commit", "dirty", "cpus", "affinity", "load_average",  # its own run
                 "rows": [{"game", "depth", "positions", "median_ms", "p95_ms", "median_cpu_ms",
                           "nodes_per_s", "reference", "reference_rate"}]} or null,
      "ppo": {"command", "date", "commit", "dirty", "cpus", "affinity", "load_average",  # its own run
              "config", "updates", "paths": {label: {"ppo_steps_per_second",
              "ppo_steps_per_cpu_second", "rollout_steps_per_second", "step_steps_per_second",
              "load_1min"}}} or null
    }

Rows not measured (an optional peer not installed) have ``plies_per_second`` null and a note.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from hive_envs.evaluation.provenance import ROOT, git_commit, machine, versions

__all__ = ["ROOT", "git_commit", "machine", "read", "versions", "write"]

SCHEMA = 1


def _finite(value):
    return None if isinstance(value, float) and math.isnan(value) else value


def write(path: str | Path, document: dict) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1, sort_keys=False) + "\n")


def read(path: str | Path) -> dict:
    document = json.loads(Path(path).read_text())
    if document.get("schema") != SCHEMA:
        raise ValueError(f"{path}: schema {document.get('schema')!r}, expected {SCHEMA}")
    return document


def row_entry(result, row, peer_result, game: str, peer_key: str | None) -> dict:
    """One row of the document from a suite `Result`, its `Row` and its peer's `Result`."""

    def ratio(a, b):
        a, b = _finite(a), _finite(b)
        return a / b if a is not None and b else None

    return {
        "key": result.key,
        "game": game,
        "path": row.label,
        "calls": row.calls,
        "plies_per_second": _finite(result.plies_per_second),
        "cpu_plies_per_second": _finite(result.cpu_plies_per_second),
        "peer": peer_key if peer_result is not None else None,
        "ratio": ratio(result.plies_per_second, peer_result.plies_per_second) if peer_result else None,
        "ratio_cpu": ratio(result.cpu_plies_per_second, peer_result.cpu_plies_per_second)
        if peer_result
        else None,
        "peak_rss_bytes": result.peak_rss_bytes,
        "buffer_bytes": result.buffer_bytes,
        "note": result.note,
        "load_1min": result.load_1min,
    }
