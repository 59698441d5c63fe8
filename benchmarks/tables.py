"""The throughput tables of the docs, rendered from one results file.

    python -m benchmarks --json docs/results/bench.json    # measure (see benchmarks.suite)
    python -m tools.render_docs                             # rewrite the generated blocks

Each ``render_*`` function turns the results file (`benchmarks.results`) into one page's block, so
every figure quoted comes from the same run; `tools.render_docs` says which page holds which block.
`render_cold_start` renders the cold-start results file (`benchmarks.cold_start`, a separate run: a
full suite run rewrites bench.json).
"""

from __future__ import annotations

from benchmarks import results as results_file

ROOT = results_file.ROOT
RESULTS = "docs/results/bench.json"
COLD_RESULTS = "docs/results/cold_start.json"
HIVE_TYPES = ("Base", "Base+MLP")


# --------------------------------------------------------------------------- formatting
def _rate(value) -> str:
    return "n/a" if value is None else f"{value:,.0f}"


def _ratio(value) -> str:
    return "" if value is None else f"{value:.1f}×"


def _size(nbytes) -> str:
    if not nbytes:
        return ""
    return f"{nbytes / 2**20:.1f} MiB" if nbytes >= 2**20 else f"{nbytes / 2**10:.1f} KiB"


def _rows(doc: dict) -> dict:
    return {row["key"]: row for row in doc["rows"]}


def _peer_label(doc: dict, row: dict) -> str:
    peer = _rows(doc).get(row["peer"]) if row["peer"] else None
    return peer["path"].removeprefix("peer: ") if peer else ""


def run_date(run: dict) -> str:
    """When a run (a results file, or its search section) was measured, in UTC."""
    return run["date"].replace("T", " ").replace("+00:00", " UTC")


def run_commit(run: dict) -> str:
    """The commit a run measured, and whether the working tree had changes beside it."""
    return f"`{run['commit'][:10]}`" + (" (with uncommitted changes)" if run["dirty"] else "")


def _pinned(affinity: list[int] | None, cpus: int | None) -> str:
    """', pinned to CPU ...' when the run was held to fewer CPUs than the machine has, else ''."""
    if not affinity or len(affinity) >= (cpus or 0):
        return ""
    return f", pinned to CPU {', '.join(map(str, affinity))}"


def _run_facts(doc: dict) -> dict[str, str]:
    """The date, commit, machine and load of a results file, as prose fragments."""
    m = doc["machine"]
    load = doc["load_average"]
    return {
        "date": run_date(doc),
        "commit": run_commit(doc),
        "machine": f"{m['cpu_model']}, {m['cpus']} CPUs{_pinned(m.get('affinity'), m.get('cpus'))}",
        "load": f"load average {load['before'][0]:.2f} before the run and {load['after'][0]:.2f} after it (1 min)",
    }


def provenance(doc: dict) -> str:
    """One paragraph: when, what commit, which command, machine, load, library versions."""
    facts = _run_facts(doc)
    libs = ", ".join(f"{name} {v}" for name, v in doc["versions"].items() if v)
    return (
        f"Measured {facts['date']} at commit {facts['commit']} by "
        f"`{doc['command']}` ({doc['seconds_per_row']:g} s per row"
        f"{', each row in its own process' if doc['isolated'] else ''}, numba threads "
        f"{doc['numba_threads']}) on {facts['machine']}; {facts['load']}. {libs}."
    )


def markdown_table(header: list[str], lines: list[list[str]], align: str) -> str:
    """A markdown table; ``align`` has one letter per column, l or r."""
    rule = ["---:" if a == "r" else "---" for a in align]
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    out += ["| " + " | ".join(cells) + " |" for cells in lines]
    return "\n".join(out)


def rows_table(doc: dict, keys: list[str] | None = None, memory: bool = False) -> str:
    """The rows (all, or ``keys`` in that order): rates, ratios to their peer, optionally memory."""
    rows = _rows(doc)
    chosen = [rows[k] for k in keys if k in rows] if keys is not None else doc["rows"]
    header = ["game", "path", "plies/s", "plies/CPU-s", "× peer", "× peer (CPU)", "peer"]
    align = "llrrrrl"
    if memory:
        header += ["peak RSS", "batch arrays"]
        align += "rr"
    lines = []
    for row in chosen:
        cells = [
            row["game"],
            row["path"] + (f" ({row['note']})" if row["note"] else ""),
            _rate(row["plies_per_second"]),
            _rate(row["cpu_plies_per_second"]),
            _ratio(row["ratio"]),
            _ratio(row["ratio_cpu"]),
            _peer_label(doc, row),
        ]
        if memory:
            rss = row["peak_rss_bytes"]
            cells += [f"{rss / 2**20:.0f} MiB" if rss and doc["isolated"] else "", _size(row["buffer_bytes"])]
        lines.append(cells)
    return markdown_table(header, lines, align)


def peer_calls(doc: dict) -> str:
    """What each peer row calls every ply (a bullet per peer row)."""
    peers = [r for r in doc["rows"] if r["path"].startswith("peer: ") or r["key"].startswith("peer:")]
    return "\n".join(f"- {r['game']}, {r['path'].removeprefix('peer: ')}: {r['calls']}" for r in peers)


def perft_table(doc: dict) -> str:
    lines = [
        [
            f["game_type"],
            str(f["depth"]),
            f"{f['nodes']:,}",
            f"{f['best_wall_ms']:.2f}",
            f"{f['best_cpu_ms']:.2f}",
            f"{f['nodes'] / f['best_wall_ms'] / 1e3:.0f} M",
        ]
        for f in doc["perft"] or []
    ]
    header = ["perft from the start", "depth", "nodes", "best wall ms", "best CPU ms", "nodes/s (wall)"]
    return (
        markdown_table(header, lines, "lrrrrr")
        + f"\n\nBest of {(doc['perft'] or [{}])[0].get('repeats')} runs each."
    )


def kernel_table(doc: dict) -> str:
    costs = doc["kernel_costs"] or []
    if not costs:
        return "(kernel costs not measured in this run)"
    names = list(costs[0]["us_per_position"])
    header = ["game", "legal moves (mean)", *[f"`{n}` µs" for n in names]]
    lines = [
        [c["game_type"], f"{c['mean_legal_moves']:.1f}", *[f"{c['us_per_position'][n]:.2f}" for n in names]]
        for c in costs
    ]
    return markdown_table(header, lines, "l" + "r" * (len(names) + 1)) + (
        f"\n\nCPU time per position over {costs[0]['positions']:,} positions of seeded random games "
        "(`benchmarks/kernel_costs.py`), each kernel in one compiled loop, best of 5."
    )


def ppo_table(doc: dict) -> str:
    ppo = doc.get("ppo")
    if not ppo:
        return "(PPO not measured in this run: `python -m benchmarks --rows ppo`.)"
    header = [
        "batch class",
        "PPO (rollout + update) per s",
        "per CPU-s",
        "rollout alone",
        "`batch.step` alone",
        "load (1 min)",
    ]
    lines = [
        [
            label,
            f"{f['ppo_steps_per_second']:,.1f}",
            f"{f['ppo_steps_per_cpu_second']:,.1f}" if "ppo_steps_per_cpu_second" in f else "",
            f"{f['rollout_steps_per_second']:,.0f}",
            f"{f['step_steps_per_second']:,.0f}",
            f"{f['load_1min']:.2f}" if f.get("load_1min") is not None else "",
        ]
        for label, f in ppo["paths"].items()
    ]
    run = f" At {ppo['commit'][:7]}, {ppo['date'][:10]}." if "commit" in ppo else ""
    return markdown_table(header, lines, "lrrrrr") + (
        f"\n\nEnv steps of self-play PPO on `{ppo['config']}` (CPU) per second and per CPU-second of the "
        f"process (all its threads): rollout + update over {ppo['updates']} updates after one warm-up, "
        "the config's teacher and pool players included; the plain rollout (no teacher or pool) alone "
        "over as many rollouts, and the rate of its time inside `batch.step`. The paths run one after "
        f"the other, so a change of load between them moves their ratio.{run}"
    )


def search_table(doc: dict) -> str:
    """The alpha-beta section: time per move and nodes/s beside the move generator's own rate."""
    search = doc.get("search")
    if not search:
        return "(search not measured in this results file: `python -m benchmarks --rows search --json PATH`.)"
    header = ["positions", "depth", "median ms", "p95 ms", "median CPU ms", "nodes/s (CPU)", "beside it"]
    lines = [
        [
            r["game"],
            str(r["depth"]),
            f"{r['median_ms']:.1f}",
            f"{r['p95_ms']:.1f}",
            f"{r['median_cpu_ms']:.1f}",
            f"{r['nodes_per_s']:,.0f}",
            f"{r['reference']} {r['reference_rate']:,.0f}",
        ]
        for r in search["rows"]
    ]
    load = search["load_average"]
    pinned = _pinned(search.get("affinity"), search["cpus"])
    return markdown_table(header, lines, "lrrrrrl") + (
        f"\n\nMeasured {run_date(search)} at commit {run_commit(search)} by "
        f"`{search['command']}`{pinned}; load average {load['before'][0]:.2f} before and "
        f"{load['after'][0]:.2f} after (1 min). One search per position (a fresh table each), positions "
        f"after 10-30 random plies (Hoyito 4-30); nodes/s over all positions per CPU-second."
    )


# --------------------------------------------------------------------------- targets
def _target(doc: dict, text: str, key: str, threshold: float, field: str = "ratio_cpu") -> list[str]:
    row = _rows(doc).get(key)
    value = row.get(field) if row else None
    if value is None:
        return [text, "not measured", ""]
    if field.startswith("ratio"):
        measured = f"{row['ratio_cpu']:.1f}× per CPU-s ({row['ratio']:.1f}× wall)"
    else:
        measured = f"{row['cpu_plies_per_second']:,.0f} plies per CPU-s ({row['plies_per_second']:,.0f} wall)"
    return [text, measured, "met" if value >= threshold else "not met"]


def targets_table(doc: dict) -> str:
    """Issue #15's throughput targets against this run (ratios to OpenSpiel's fastest loop)."""
    lines = []
    for name in HIVE_TYPES:
        lines.append(_target(doc, f"`hive_v0.env()` {name} ≥ 2× OpenSpiel", f"hive:{name}:aec", 2.0))
        lines.append(_target(doc, f"Gymnasium env {name} ≥ 2× OpenSpiel", f"hive:{name}:gym", 2.0))
    lines.append(_target(doc, "HiveBatch N=1024 Base ≥ 8× OpenSpiel", "hive:Base:batch1024", 8.0))
    lines.append(_target(doc, "HiveBatch N=1024 Base+MLP ≥ 5× OpenSpiel", "hive:Base+MLP:batch1024", 5.0))
    lines.append(
        _target(
            doc, "HoyitoBatch N=1024 ≥ 1,000,000 plies/s", "hoyito:2x6:batch1024", 1e6, "cpu_plies_per_second"
        )
    )
    for f in doc["perft"] or []:
        if f["game_type"] == "Base" and f["depth"] == 5:
            met = "met" if f["best_wall_ms"] <= 3.0 else "not met"
            lines.append(
                [
                    "perft(5) Base ≤ 3 ms",
                    f"{f['best_wall_ms']:.2f} ms wall, {f['best_cpu_ms']:.2f} ms CPU",
                    met,
                ]
            )
    return markdown_table(["target (one core)", "this run", ""], lines, "lll")


# --------------------------------------------------------------------------- documents
def _hive_keys(paths: list[str]) -> list[str]:
    return [f"hive:{name}:{path}" for name in HIVE_TYPES for path in paths]


def render_summary(doc: dict) -> str:
    """The block of docs/results.md: the env and engine rows, the targets, perft."""
    keys = _hive_keys(
        [
            "aec",
            "gym",
            "vector1024",
            "batch1024",
            "engine",
            "kernel",
            "openspiel",
            "openspiel_tensor",
            "shimmy",
        ]
    )
    keys += ["hoyito:2x6:aec", "hoyito:2x6:batch1024", "hoyito:2x6:kernel", "peer:connect_four_v3"]
    perft = "; ".join(
        f"perft({f['depth']}) {f['game_type']} {f['best_wall_ms']:.2f} ms ({f['nodes']:,} nodes)"
        for f in doc["perft"] or []
    )
    closing = (
        f"Move generation: {perft} (best of {(doc['perft'] or [{}])[0].get('repeats')}). "
        "Every row, peak memory, what each peer calls and the per-kernel costs: "
        "[throughput.md](throughput.md)."
    )
    return "\n\n".join([provenance(doc), rows_table(doc, keys), targets_table(doc), closing])


def render_throughput(doc: dict) -> str:
    return "\n\n".join(
        [
            provenance(doc),
            rows_table(doc, memory=True),
            "What each peer row calls, every ply:\n\n" + peer_calls(doc),
            "### Where a batched Hive ply goes\n\n" + kernel_table(doc),
            "### PPO self-play before and after HiveBatch\n\n" + ppo_table(doc),
        ]
    )


def render_engine(doc: dict) -> str:
    keys = _hive_keys(["engine", "kernel", "openspiel_moves"])
    return "\n\n".join([provenance(doc), rows_table(doc, keys), perft_table(doc)])


def render_env(doc: dict) -> str:
    keys = _hive_keys(["aec", "gym", "openspiel", "openspiel_tensor", "shimmy"])
    return "\n\n".join([provenance(doc), rows_table(doc, keys)])


def render_hoyito(doc: dict) -> str:
    keys = [k for k in _rows(doc) if k.startswith("hoyito:")] + ["peer:connect_four_v3"]
    return "\n\n".join([provenance(doc), rows_table(doc, keys, memory=True)])


def render_search(doc: dict) -> str:
    return search_table(doc)


def render_cold_start(doc: dict) -> str:
    """The cold/warm start table of `benchmarks.cold_start`'s results file, with its provenance."""
    facts = _run_facts(doc)
    intro = (
        f"Measured {facts['date']} at commit {facts['commit']} by `{doc['command']}` on {facts['machine']}; "
        f"{facts['load']}. Each figure is the best of {doc['repeats']} fresh processes (CPU: user + "
        "system time of the process); cold: an empty `NUMBA_CACHE_DIR`, warm: the cache the cold run filled."
    )
    lines = []
    for r in doc["rows"]:
        cold, warm, target = r["cold"], r["warm"], r["target_cold_cpu_s"]
        lines.append(
            [
                r["what"],
                f"{cold['cpu_s']:.1f} s ({cold['wall_s']:.1f} s wall)",
                f"{warm['cpu_s']:.1f} s ({warm['wall_s']:.1f} s wall)",
                f"≤ {target:g} s CPU: " + ("met" if cold["cpu_s"] <= target else "not met"),
            ]
        )
    table = markdown_table(["from a new process to", "cold CPU", "warm CPU", "target (cold)"], lines, "lrrl")
    return intro + "\n\n" + table
