"""The stock-framework baselines of docs/results.md and docs/stock_frameworks.md, rendered from the
results files the examples write (``--out``): SB3 MaskablePPO on Hive and Hoyito, RLlib's default module
on Hive; and our own trainer on the board alone (no rule knowledge: the planes' baseline and the piece
observation's `hive_board`). `render` makes the table of `RESULTS` (one row per file, in that order) and one line per run
with its command and commit; `python -m tools.render_docs` puts it in the pages.
"""

from __future__ import annotations

import json

from benchmarks.tables import ROOT, markdown_table, run_commit, run_date

RESULTS = {
    "docs/results/sb3_hive_base_shaping.json": ("SB3 MaskablePPO, rule-feature policy", "Hive Base"),
    "docs/results/sb3_hive_base_no_shaping.json": ("SB3 MaskablePPO, rule-feature policy", "Hive Base"),
    "docs/results/sb3_hive_base_pieces_shaping.json": (
        "SB3 MaskablePPO, our piece network as its policy, on the piece observation",
        "Hive Base",
    ),
    "docs/results/sb3_hoyito_2x6_shaping.json": ("SB3 MaskablePPO, `MlpPolicy`", "Hoyito 2×6"),
    "docs/results/rllib_hive_base_shaping.json": ("RLlib PPO, default MLP module", "Hive Base"),
    "docs/results/hive_base_board_only.json": (
        "our PPO (the `experiments/hive_base_board_only` config), hexconv on the board only",
        "Hive Base",
    ),
    "docs/results/hive_board.json": (
        "our PPO (the `hive_board` config), its network on the piece observation, board only",
        "Hive Base",
    ),
    "docs/results/hive_board_3h.json": ("the same run resumed to three hours", "Hive Base"),
    "docs/results/hive_board_rerun.json": (
        "the same one-hour recipe afresh, the pool player on threads (issue #57)",
        "Hive Base",
    ),
    "docs/results/hive_board_hour_2026_12_06.json": (
        "the same one-hour recipe, same code, on the faster machine of 2026-12-06",
        "Hive Base",
    ),
}
"""Results file -> (framework and model, game)."""
TARGET = 0.80  # issue #17: argmax play wins >= 80% of 200 games vs random (draws count against)


def _match(report: dict, opponent: str) -> dict:
    for match in report["evaluation"]["matches"]:
        if match["opponent"] == opponent:
            return match
    raise ValueError(f"{report['command']!r}: no match against {opponent!r} in its results")


def _result(match: dict) -> str:
    low, high = match["win_rate_ci95"]
    return (
        f"{match['wins']}/{match['draws']}/{match['losses']}, {match['win_rate']:.1%} [{low:.0%}, {high:.0%}]"
    )


def _budget(report: dict) -> str:
    minutes = report["train_seconds"] / 60
    asked = (
        f"{report['budget_minutes']:g} min"
        if report.get("budget_minutes")
        else f"{report['budget_steps']:,} steps"
    )
    return f"{asked}: {report['learner_steps']:,} steps, {report['plies']:,} plies in {minutes:.1f} min"


def row(report: dict, label: tuple[str, str]) -> list[str]:
    framework, game = label
    before, after = report["load_average_before"][0], report["load_average_after"][0]
    return [
        framework,
        game,
        "on" if report["shaping"] else "off",
        _budget(report),
        f"{report['plies_per_second']:,.0f}",
        f"{before:.1f} → {after:.1f}",
        _result(_match(report, "random")),
        _result(_match(report, "greedy")),
    ]


def target_line(report: dict) -> str:
    """Issue #17's target against the SB3 Hive run with shaping: met, or missed by how many points."""
    rate = _match(report, "random")["win_rate"]
    verdict = "met" if rate >= TARGET else f"missed by {100 * (TARGET - rate):.1f} points"
    return f"Target (SB3 on Hive Base with shaping, 20 min): ≥ {TARGET:.0%} wins vs random, draws counting against: {verdict}."


def render(reports: dict[str, dict]) -> str:
    header = [
        "framework, model",
        "game",
        "shaping",
        "budget: learner steps, plies (both seats)",
        "plies/s",
        "load (1 min) start → end",
        "vs random: W/D/L, win rate [95% CI]",
        "vs greedy: W/D/L, win rate [95% CI]",
    ]
    lines = [row(reports[path], label) for path, label in RESULTS.items()]
    table = markdown_table(header, lines, "lllrrlll")
    runs = "\n".join(
        f"- `{r['command']}` at commit {run_commit(r)}, finished {run_date(r)}" for r in reports.values()
    )
    note = (
        "Argmax play over the legal moves, 200 games per opponent: 100 random 2-ply openings of the arena, "
        "each played once from each seat; draws count against the win rate. Machine: 2 CPU cores shared "
        "with other jobs (load averages above), one torch thread per run, the runs one after the other."
    )
    return "\n\n".join([table, target_line(reports["docs/results/sb3_hive_base_shaping.json"]), note, runs])


def read_reports() -> dict[str, dict]:
    return {path: json.loads((ROOT / path).read_text()) for path in RESULTS}
