"""Ship a trained checkpoint as a pretrained agent of the package, with its model card; measure it.

    python -m hive_envs.training.pretrained export runs/hive_base/checkpoints/latest.pt hive_base --simulations 16 \\
        --note "trained with --config hive_base, then --resume ..."
    python -m hive_envs.training.pretrained measure hive_base --opponents random alphabeta:1 --games 200 --workers 2
    python -m hive_envs.training.pretrained measure hive_base --play search --opponents alphabeta:2 --games 20

Writes ``hive_envs/agents/pretrained/NAME.pt``: the checkpoint without its ``train_state`` (optimizer
and opponent pool: only --resume needs them, and they are most of the file) and ``search``, re-saved
in the safe format (`hive_envs.agents.checkpoint`: a sha256 of the content is checked at load), and
``NAME.json``, its model card: what it plays, the network, the full training config, the code
commit(s), plies, updates and wall time of every run that trained it (``training_segments``, kept
across --resume), its default search (``default_search``: ``--simulations N``, ``@N``, or
``--move-time S``, ``@T=S``) and how every ``@N`` / ``@T=S`` of it searches
(``search``: ``--prior-temperature``, ``--rule-value-share``, by default the checkpoint's own, from
its training config's ``search_*`` keys, and kept in the card only, so that the file stays the same
file whatever its search; changing them drops its searched results), its measured
results (kept from the card it replaces when the weights are the same file, else dropped, with the
agent's results file) and ``--note`` (free text). NAME must be one of
`hive_envs.pretrained.PRETRAINED`; the file must stay under `MAX_BYTES`.

``measure`` plays the shipped agent against each opponent in the arena (`training.arena`: game by
game, from its book of random openings, both seats, ``--opening-plies`` 4 as the ladder), as
``argmax`` (the raw policy's best move, no search: the headline), ``sampled`` (moves sampled from the
policy) or ``search`` (PUCT with the card's ``default_search``), and adds one row per match
(W/D/L by seat, score with its 95% interval, forfeits) with the code commit, date, wall time and load
average before and after to ``docs/results/pretrained_NAME.json`` and to the model card's ``results``
(a row of the same play, search and opponent is replaced), and the games of those matches to the
results file's records file, ``docs/results/records/pretrained_NAME.json.gz``
(`training.results_files`: not in the repository, replayed by the web page); ``--simulations N`` or ``--move-time S``
measures the search at N simulations or S seconds a move instead of the card's default. ``measure NAME --from-ladder REPORT`` plays
nothing: it takes the agent's matches from a ladder report (``evaluate.py --ladder ... pretrained:NAME
pretrained:NAME@N``: the same arena, opening book and seats; only the players' tie-break seeds
differ) as its rows.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # run as a script without an extra: one line, not a traceback
    from hive_envs.agents.checkpoint import DEFAULT_SEARCH, load_checkpoint, save_checkpoint, stored_search
    from hive_envs.players.checkpoint import AgentPlayer
    from hive_envs.players.specs import split_agent_spec
    from hive_envs.pretrained import PRETRAINED, model_card, pretrained_folder
    from hive_envs.training import results_files
    from hive_envs.training.arena import Settings, play_matches
    from hive_envs.training.cli import exit_code
    from hive_envs.training.ladder import PLAYED_UNDER
    from hive_envs.training.match import MatchResult, format_table
    from hive_envs.training.provenance import git_commit, utc_text

MAX_BYTES = 5 * 1024 * 1024
PLAYS = ("argmax", "sampled", "search")
RESULTS_FOLDER = Path(__file__).resolve().parents[2] / "docs" / "results"


def training_minutes(segments: list[dict]) -> float:
    """Wall time of training (evaluations during training included) over every run, in minutes."""
    return sum(s.get("end_seconds", s["start_seconds"]) - s["start_seconds"] for s in segments) / 60.0


def search_suffix(simulations: int, move_time_s: float | None = None) -> str:
    """The player-spec suffix of a search: ``@T=S`` for ``move_time_s`` seconds a move, else ``@N``."""
    return f"@T={move_time_s:g}" if move_time_s is not None else f"@{simulations}"


def default_search(card: dict) -> tuple[int, float | None]:
    """The card's default search as (simulations, seconds a move): (N, None) or (0, S)."""
    _, simulations, move_time_s = split_agent_spec(f"pretrained:{card['name']}{card['default_search']}")
    return simulations, move_time_s


def export(
    checkpoint: str,
    name: str,
    simulations: int,
    note: str = "",
    prior_temperature: float | None = None,
    rule_value_share: float | None = None,
    move_time_s: float | None = None,
) -> tuple[Path, Path]:
    """Write NAME.pt and NAME.json into the package's pretrained folder; returns both paths.
    The card's default search is ``@simulations``, or with ``move_time_s`` ``@T=move_time_s``.
    ``prior_temperature`` and ``rule_value_share`` are the card's ``search``: how every ``@N`` /
    ``@T=S`` of the agent searches (`hive_envs.agents.search`); None: the checkpoint's own (its
    training config's ``search_*`` keys; a card without ``search`` is the plain PUCT)."""
    if name not in PRETRAINED:
        raise ValueError(
            f"unknown pretrained agent {name!r}; the pretrained agents are {', '.join(PRETRAINED)}"
        )
    if simulations < 0:
        raise ValueError(f"--simulations must be >= 0, got {simulations}")
    suffix = search_suffix(simulations, move_time_s)
    split_agent_spec(f"pretrained:{name}{suffix}")  # ValueError for seconds out of (0, 3600]
    data = load_checkpoint(checkpoint)
    search = stored_search(
        data, checkpoint, prior_temperature=prior_temperature, rule_value_share=rule_value_share
    )
    AgentPlayer.load(checkpoint, simulations, **search)  # ValueError for settings the network cannot use
    # the card is the one place of a shipped agent's search: the file stays the same file whatever it is
    payload = {key: value for key, value in data.items() if key not in ("train_state", "search")}
    folder = pretrained_folder()
    weights = save_checkpoint(folder / f"{name}.pt", payload)
    size = weights.stat().st_size
    if size > MAX_BYTES:
        weights.unlink()
        raise ValueError(
            f"{checkpoint!r} makes a {size:,}-byte file; a pretrained agent must stay under {MAX_BYTES:,}"
        )
    segments = list(data.get("training_segments", []))
    card_path = folder / f"{name}.json"
    previous = json.loads(card_path.read_text()) if card_path.is_file() else {}
    digest = hashlib.sha256(weights.read_bytes()).hexdigest()
    same_agent = previous.get("file_sha256") == digest
    results = previous.get("results", []) if same_agent else []
    if not same_agent:  # another agent under this name: the old one's results do not describe it
        for path in (results_file(name), results_files.records_path(results_file(name))):
            path.unlink(missing_ok=True)
    elif previous.get("search", DEFAULT_SEARCH) != search:  # its searched results are another search's
        results = drop_search_rows(name, results)
    card = {
        "name": name,
        "description": PRETRAINED[name],
        "file": weights.name,
        "bytes": size,
        "file_sha256": digest,
        "game": data["game"],
        "game_options": data["game_options"],
        "network": data["network"],
        "plies_trained": data["global_step"],
        "updates": data["update"],
        "training_minutes": round(training_minutes(segments), 1),
        "training_segments": segments,
        "code_commits": sorted({s["code_commit"] for s in segments if s.get("code_commit")}),
        "config": data.get("config"),
        "default_search": suffix,
        "search": search,
        "usage": {
            "raw policy": f"pretrained:{name}",
            "with search": f"pretrained:{name}{suffix}",
            "python": f'hive_envs.agents.load_pretrained("{name}")',
        },
        "results": results,
        "note": note,
    }
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    return weights, card_path


def results_file(name: str) -> Path:
    """The agent's results file: its rows (the card's) and, in its records file, their games."""
    return RESULTS_FOLDER / f"pretrained_{name}.json"


def drop_search_rows(name: str, results: list[dict]) -> list[dict]:
    """``results`` without the searched rows, which are also dropped from the agent's results file."""
    path = results_file(name)
    if path.is_file():
        report, _ = results_files.read_report(path)
        report["results"] = [row for row in report["results"] if row["play"] != "search"]
        results_files.write(path, report)
    return [row for row in results if row["play"] != "search"]


def measure(
    name: str,
    opponents: list[str],
    games: int,
    play: str,
    workers: int = 1,
    seed: int = 0,
    simulations: int | None = None,
    move_time_s: float | None = None,
) -> list[dict]:
    """Arena matches of the shipped agent ``name`` vs each of ``opponents`` (module doc); returns the
    rows added to its results file and model card. ``simulations`` or ``move_time_s``: the search's
    (play ``search``; neither: the card's ``default_search``)."""
    if play not in PLAYS:
        raise ValueError(f"--play must be one of {', '.join(PLAYS)}, got {play!r}")
    if simulations is not None and move_time_s is not None:
        raise ValueError("give --simulations or --move-time, not both")
    card = model_card(name)
    if simulations is None and move_time_s is None:
        simulations, move_time_s = default_search(card)
    simulations = simulations or 0
    if play == "search" and move_time_s is None and simulations < 1:
        raise ValueError(f"--simulations must be >= 1 for --play search, got {simulations}")
    searched = play == "search"
    spec = f"pretrained:{name}" + (search_suffix(simulations, move_time_s) if searched else "")
    split_agent_spec(spec)  # ValueError for seconds out of (0, 3600]
    settings = Settings(
        game=card["game"],
        game_options=card["game_options"],
        opening_plies=4,
        sample=play == "sampled",
        seed=seed,
    )
    commit, dirty = git_commit()
    load_before, started = list(os.getloadavg()), time.time()
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    played = play_matches([(spec, opponent) for opponent in opponents], games, settings, workers)
    wall = round(time.time() - started, 1)
    print(format_table([result for result, _ in played], forfeits=True))
    rows = [
        {
            **result.to_dict(),
            "play": play,
            "simulations": simulations if searched else 0,
            **({"move_time_s": move_time_s} if searched and move_time_s is not None else {}),
            "opening_plies": settings.opening_plies,
            "command": " ".join(["python training/pretrained.py", *sys.argv[1:]]),
            "code_commit": commit,
            "code_dirty": dirty,
            "date_utc": date,
            "wall_s_all_matches": wall,
            "workers": workers,
            "load_average_before": load_before,
            "load_average_after": list(os.getloadavg()),
        }
        for result, _ in played
    ]
    record_rows(name, rows, [[record.__dict__ for record in records] for _, records in played])
    return rows


def row_key(row: dict) -> tuple:
    """What a result row measured: play, search (simulations, seconds a move) and opponent."""
    return row["play"], row["simulations"], row.get("move_time_s"), row["opponent"]


def record_rows(name: str, rows: list[dict], games: list[list[dict]] | None = None) -> None:
    """Add ``rows`` to the agent's results file and model card, replacing rows of the same play,
    search and opponent; ``games``, each row's games (the arena's), go to the results file's records
    file (`results_files`), where the web page replays them."""
    replaced = {row_key(row) for row in rows}
    card_path = pretrained_folder() / f"{name}.json"
    card = json.loads(card_path.read_text()) if card_path.is_file() else {"name": name, "results": []}
    card["results"] = [row for row in card["results"] if row_key(row) not in replaced] + rows
    card_path.parent.mkdir(parents=True, exist_ok=True)
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    path = results_file(name)
    report = results_files.read_report(path)[0] if path.is_file() else {"name": name, "results": []}
    kept = [row for row in report["results"] if row_key(row) not in replaced]
    played = [{**row, results_files.GAMES: g} for row, g in zip(rows, games)] if games else rows
    report["results"] = kept + played
    if "game" in card:  # what a replay of the games needs (`hive_envs.web.records`)
        report.update(game=card["game"], game_options=card["game_options"])
    results_files.write(path, report)


def agent_side(spec: str, name: str) -> tuple[int, float | None] | None:
    """The search of ``spec`` if it plays agent ``name`` (``pretrained:NAME[@N | @T=S]``): (N, None),
    (0, S), or (0, None) for the raw policy; else None."""
    if spec.partition("@")[0] != f"pretrained:{name}":
        return None
    try:
        _, simulations, move_time_s = split_agent_spec(spec)
    except ValueError:
        return None
    return simulations, move_time_s


def search_rank(search: tuple[int, float | None]) -> tuple[bool, float, int]:
    """Orders the agent's searches: the raw policy, then by simulations, then the searches by time."""
    simulations, move_time_s = search
    return move_time_s is not None, move_time_s or 0.0, simulations


def played_under(pair: dict, report: dict, path: str) -> dict:
    """The run that played ``pair`` of the ladder ``report``: the report's own, or for a pair it kept
    from an earlier report the one its ``"from"`` entry copied (`training.ladder.PLAYED_UNDER`)."""
    run = pair.get("from", report)
    missing = [key for key in PLAYED_UNDER if key not in run]
    if missing:
        raise ValueError(
            f"--from-ladder: {path!r} kept {pair['player']} vs {pair['opponent']} from {run.get('report')!r} "
            f"without the run that played it ({', '.join(missing)}); extend that report again"
        )
    return run


def rows_from_ladder(name: str, path: str) -> tuple[list[MatchResult], list[dict]]:
    """The agent's matches in the ladder report at ``path`` (`training.ladder`: the arena, opening
    book and seats of `measure`; only the players' tie-break seeds differ) as result rows from the
    agent's side, argmax (raw) or search @N; a pair of two settings of the agent gives a row for the
    searched one."""
    report = json.loads(Path(path).read_text())
    if report["game"] != model_card(name)["game"]:
        raise ValueError(
            f"--from-ladder: {path!r} is a {report['game']} ladder; {name!r} plays {model_card(name)['game']}"
        )
    played = {spec for pair in report["pairs"] for spec in (pair["player"], pair["opponent"])}
    digest = model_card(name)["file_sha256"]
    for spec in sorted(spec for spec in played if agent_side(spec, name) is not None):
        recorded = report.get("checkpoints", {}).get(spec, {}).get("sha256")
        if recorded != digest:
            said = f"another file (sha256 {recorded[:12]}…)" if recorded else "a file it does not record"
            raise ValueError(
                f"--from-ladder: {path!r} played {spec} with {said}, not the shipped {name}.pt "
                f"(sha256 {digest[:12]}…); play its pairs again with evaluate.py --ladder ... --extend"
            )
    results, rows = [], []
    for pair in report["pairs"]:
        mine, theirs = agent_side(pair["player"], name), agent_side(pair["opponent"], name)
        if mine is None and theirs is None:
            continue
        flip = mine is None or (theirs is not None and search_rank(theirs) > search_rank(mine))
        side = {"player": pair["player"], "opponent": pair["opponent"]}
        counts = {key: list(pair[f"{key}_by_seat"]) for key in ("wins", "draws", "losses")}
        forfeits = tuple(pair["forfeits"])
        if flip:
            side = {"player": pair["opponent"], "opponent": pair["player"]}
            counts = {
                "wins": counts["losses"][::-1],
                "draws": counts["draws"][::-1],
                "losses": counts["wins"][::-1],
            }
            forfeits = forfeits[::-1]
        simulations, move_time_s = agent_side(side["player"], name) or (0, None)
        searched = bool(simulations) or move_time_s is not None
        result = MatchResult.from_counts(
            side["player"], side["opponent"], pair["games"], counts, pair["mean_length"], forfeits
        )
        run = played_under(pair, report, path)
        results.append(result)
        rows.append(
            {
                **result.to_dict(),
                "play": "search" if searched else "argmax",
                "simulations": simulations,
                **({"move_time_s": move_time_s} if move_time_s is not None else {}),
                "opening_plies": report["opening_plies"],
                "command": run["command"],
                "code_commit": run["commit"],
                "code_dirty": run["dirty"],
                "date_utc": utc_text(run["date"]),
                "wall_s_all_matches": round(run["wall_s"], 1),
                "workers": run["workers"],
                "load_average_before": run["load_average"]["before"],
                "load_average_after": run["load_average"]["after"],
                "ladder_report": str(path),
            }
        )
    if not rows:
        raise ValueError(f"--from-ladder: {path!r} has no match of pretrained:{name}")
    return results, rows


DOCS_HEADER = """# Pretrained agents

<!-- generated by `python -m tools.render_docs` from the model cards
     (hive_envs/agents/pretrained/NAME.json); edit the cards or this script, not this file -->

The package ships trained agents (`hive_envs.pretrained`), each a checkpoint in the safe format
(`torch.load(weights_only=True)`, a sha256 of the content checked at load) with its model card:

```python
from hive_envs.agents import load_pretrained
policy = load_pretrained("hoyito_2x6")          # (observation, action_mask) -> action, argmax play
```

As a player spec they go wherever a player goes: `pretrained:NAME` (the raw policy's best move) or
`pretrained:NAME@N` (PUCT search, N simulations per move) or `pretrained:NAME@T=S` (the same search
stopped within S seconds a move) in Gym's `opponent=`, `training/evaluate.py`,
`training/arena.py`, the UHP engine (`python -m hive_envs.uhp --agent pretrained:hive_base`) and the play CLI
(`python -m hive_envs.play hoyito --agent pretrained:hoyito_2x6`).

Results are measured with `python training/pretrained.py measure NAME ...` (the arena: game by game, both
seats, a book of 4-ply random openings; score = (wins + draws / 2) / games with its 95% Wilson interval).
The headline is `argmax` (no search); `sampled` and `search` rows stand beside it. Each row's load average
is the machine's (2 CPU cores, shared with other work while these were measured): the wall times are
noisy, the results are not.
"""


def play_label(row: dict) -> str:
    """How a result row played: argmax, sampled, search @N or search @T=S."""
    if row["play"] != "search":
        return row["play"]
    return "search " + search_suffix(row["simulations"], row.get("move_time_s"))


def play_order(label: str) -> tuple[int, tuple[bool, float, int]]:
    """argmax, sampled, then the searches by simulations, then the searches by time."""
    play, at, suffix = label.partition(" @")
    search = split_agent_spec("x@" + suffix)[1:] if at else (0, None)
    return PLAYS.index(play), search_rank(search)


def search_note(card: dict) -> str:
    """How the card's searches read the network, when not the plain PUCT."""
    search = card.get("search", DEFAULT_SEARCH)
    if search == DEFAULT_SEARCH:
        return ""
    return (
        f" (every search of it: prior temperature {search['prior_temperature']:g}, "
        f"{search['rule_value_share']:.0%} of the leaf value from the rule value)"
    )


def card_markdown(card: dict) -> str:
    """The model card as a markdown section: what it is, how it was trained, its measured results."""
    segments = card["training_segments"]
    runs = "; ".join(
        f"{s['started_utc']} UTC from commit `{s['code_commit'][:10]}`"
        + (" (uncommitted changes)" if s.get("code_dirty") else "")
        + f": plies {s['start_step']:,} to {s.get('end_step', s['start_step']):,}, "
        f"{(s.get('end_seconds', s['start_seconds']) - s['start_seconds']) / 60:.1f} min, load average "
        f"{s['start_load_average'][0]:.1f} at the start, {s.get('end_load_average', [float('nan')])[0]:.1f} at the end"
        for s in segments
    )
    config = card.get("config") or {}
    summary = (
        f"{card['description']}. File `{card['file']}`, {card['bytes']:,} bytes. Trained "
        f"{card['plies_trained']:,} plies ({card['updates']} PPO updates) in {card['training_minutes']} min "
        f"with the `{config.get('name', card['name'])}` config: {runs}. The card's default search: "
        f"`pretrained:{card['name']}{card['default_search']}`{search_note(card)}."
    )
    lines = [f"## `{card['name']}`", "", summary]
    if card.get("note"):
        lines += ["", card["note"]]
    lines += [
        "",
        "| play | opponent | games | W / D / L | score [95%] | forfeits | mean plies | load before / after |",
        "|---|---|---:|---|---|---|---:|---|",
    ]
    for r in sorted(card["results"], key=lambda r: play_order(play_label(r))):
        lines.append(
            f"| {play_label(r)} | `{r['opponent']}` | {r['games']} | {r['wins']} / {r['draws']} / {r['losses']} | "
            f"{r['score']:.3f} [{r['score_ci95'][0]:.3f}, {r['score_ci95'][1]:.3f}] | "
            f"{r['forfeits'][0]}/{r['forfeits'][1]} | {r['mean_length']:.1f} | "
            f"{r['load_average_before'][0]:.1f} / {r['load_average_after'][0]:.1f} |"
        )
    timed = [r for r in card["results"] if r.get("move_time_s") and r.get("move_seconds", {}).get("player")]
    if timed:
        lines.append("")
    for r in timed:
        moves = r["move_seconds"]["player"]
        lines.append(
            f"- {play_label(r)} against `{r['opponent']}`: {moves['moves']:,} moves, median "
            f"{moves['median']:.3f} s, longest {moves['max']:.3f} s (the limit: {r['move_time_s']:g} s)."
        )
    return "\n".join(lines) + "\n"


def docs_markdown() -> str:
    """docs/pretrained.md as rendered from the shipped model cards."""
    return "\n".join([DOCS_HEADER, *(card_markdown(card) for card in shipped_cards())])


OPPONENT_ORDER = [
    "random",
    "greedy",
    "alphabeta:1",
    "alphabeta:2",
    "alphabeta:3",
    "alphabeta:4",
    "alphabeta:6",
]


def shipped_cards() -> list[dict]:
    """The model cards of the pretrained agents that ship one, in `PRETRAINED` order."""
    return [model_card(name) for name in PRETRAINED if (pretrained_folder() / f"{name}.json").is_file()]


def results_table(headline: bool = False) -> str:
    """Each shipped agent's score per play and opponent, from the model cards. The ``headline`` table
    (the README's) keeps argmax and the card's default search against the classical players; the full
    one (in docs/results.md) has every play, search and opponent."""
    cards = shipped_cards()
    results = {}
    for card in cards:
        plays = ("argmax", "search " + search_suffix(*default_search(card)))
        results[card["name"]] = [
            r
            for r in card["results"]
            if not headline or (r["opponent"] in OPPONENT_ORDER and play_label(r) in plays)
        ]
    seen = {r["opponent"] for rows in results.values() for r in rows}
    opponents = [o for o in OPPONENT_ORDER if o in seen] + sorted(seen - set(OPPONENT_ORDER))
    lines = [
        "| agent | play | " + " | ".join(f"`{o}`" for o in opponents) + " |",
        "|---|---|" + "---:|" * len(opponents),
    ]
    for card in cards:
        for label in sorted({play_label(r) for r in results[card["name"]]}, key=play_order):
            rows = {r["opponent"]: r for r in results[card["name"]] if play_label(r) == label}
            cells = [f"{rows[o]['score']:.2f} ({rows[o]['games']})" if o in rows else "" for o in opponents]
            lines.append(f"| `{card['name']}` | {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    ship = commands.add_parser("export", help="write a checkpoint into the package as agent NAME")
    ship.add_argument("checkpoint", help="a training checkpoint (e.g. runs/hive_base/checkpoints/latest.pt)")
    ship.add_argument("name", help=f"one of {', '.join(PRETRAINED)}")
    default_budget = ship.add_mutually_exclusive_group()
    default_budget.add_argument(
        "--simulations", type=int, default=16, help="its default search: N simulations a move (@N)"
    )
    default_budget.add_argument(
        "--move-time", type=float, metavar="S", help="its default search: S seconds a move (@T=S)"
    )
    ship.add_argument(
        "--prior-temperature",
        type=float,
        help="its search's prior temperature (1: the policy; default: the checkpoint's, else 1)",
    )
    ship.add_argument(
        "--rule-value-share",
        type=float,
        help="share of its search's leaf value from the network's rule value (0: the value head; "
        "default: the checkpoint's, else 0)",
    )
    ship.add_argument("--note", default="", help="free text for the model card (how it was trained)")
    bench = commands.add_parser("measure", help="arena matches of a shipped agent, into its results")
    bench.add_argument("name", help=f"one of {', '.join(PRETRAINED)}")
    bench.add_argument("--opponents", nargs="+", default=[], help="player specs (random, alphabeta:2, ...)")
    bench.add_argument("--games", type=int, default=200, help="games per opponent (even), half in each seat")
    bench.add_argument("--play", default="argmax", help=f"one of {', '.join(PLAYS)}")
    bench.add_argument("--workers", type=int, default=1)
    bench.add_argument("--seed", type=int, default=0)
    budget = bench.add_mutually_exclusive_group()
    budget.add_argument(
        "--simulations", type=int, help="with --play search: simulations (default: the card's search)"
    )
    budget.add_argument(
        "--move-time", type=float, metavar="S", help="with --play search: S seconds a move (@T=S)"
    )
    bench.add_argument(
        "--from-ladder",
        metavar="REPORT",
        help="play nothing: take the agent's matches from this ladder report (evaluate.py --ladder)",
    )
    args = parser.parse_args(argv)

    def run() -> None:
        if args.command == "export":
            search = (args.prior_temperature, args.rule_value_share)
            written = export(
                args.checkpoint, args.name, args.simulations, args.note, *search, move_time_s=args.move_time
            )
            for path in written:
                print(f"wrote {path}")
        elif args.from_ladder:
            results, rows = rows_from_ladder(args.name, args.from_ladder)
            record_rows(args.name, rows)
            print(format_table(results, forfeits=True))
        elif not args.opponents:
            raise ValueError("measure: give --opponents (or --from-ladder REPORT)")
        else:
            budget = (args.simulations, args.move_time)
            measure(args.name, args.opponents, args.games, args.play, args.workers, args.seed, *budget)

    return exit_code(run)


if __name__ == "__main__":
    sys.exit(command(main)())
