"""A ladder report (`hive_envs.evaluation.ladder`) as markdown: the blocks of docs/results.md that
`tools.render_docs` renders from docs/results/ladder_*.json."""

from __future__ import annotations

from hive_envs.evaluation.provenance import utc_text


def markdown(report: dict, picture: str | None = None) -> str:
    """A ladder report as markdown: the Elo table, every pair, the command and the conditions."""
    elo = ["| player | Elo | 95% interval |", "|---|---:|---|"]
    for row in report["elo"]:
        elo.append(f"| `{row['player']}` | {row['elo']:.0f} | [{row['ci95'][0]:.0f}, {row['ci95'][1]:.0f}] |")
    pairs = [
        "| A | B | W / D / L (A) | score of A [95%] | turn-cap draws | forfeits A/B | mean plies |",
        "|---|---|---|---|---:|---|---:|",
    ]
    for p in report["pairs"]:
        pairs.append(
            f"| `{p['player']}` | `{p['opponent']}` | {p['wins']} / {p['draws']} / {p['losses']} | "
            f"{p['score']:.3f} [{p['score_ci95'][0]:.3f}, {p['score_ci95'][1]:.3f}] | {p['turn_cap_draws']} | "
            f"{p['forfeits'][0]}/{p['forfeits'][1]} | {p['mean_length']:.1f} |"
        )
    load = report["load_average"]
    commit = f"`{report['commit'][:10]}`" + (" (with uncommitted changes)" if report["dirty"] else "")
    note = (
        f"`{report['command']}`: {report['games_per_pair']} games per pair (both seats, one book of "
        f"{report['opening_plies']}-ply random openings), {utc_text(report['date'])} UTC, "
        f"commit {commit}, {report['workers']} worker(s) on {report['machine']['cpu_model']} "
        f"({report['machine']['cpus']} CPUs, shared), load average {load['before'][0]:.1f} before and "
        f"{load['after'][0]:.1f} after, {report['wall_s'] / 60:.0f} min."
    )
    sources = report.get("reused", [])
    for source in sources:
        reused = sum(1 for p in report["pairs"] if p.get("from") == source)
        note += (
            f" {reused} {'pair is' if reused == 1 else 'pairs are'} kept from `{source['report']}` "
            f"(commit `{str(source['commit'])[:10]}`, {utc_text(source['date'])} UTC, same opening book), "
            f"where {'it was' if reused == 1 else 'they were'} played."
        )
    if sources:
        note += " The time and load above are the new pairs'."
    parts = [f"**{report['label']}**", "\n".join(elo)]
    if picture:
        parts.append(f"![{report['label']} Elo ladder]({picture})")
    parts += ["\n".join(pairs), note]
    return "\n\n".join(parts)
