"""The shipped agents' measured results: arena matches of a pretrained agent, or its matches in a
ladder report, as result rows in its model card and its results file.

`measure` plays the shipped agent against each opponent in the arena (`evaluation.arena`: game by
game, from its book of random openings, both seats, ``opening_plies`` 4 as the ladder), as ``argmax``
(the raw policy's best move, no search: the headline), ``sampled`` (moves sampled from the policy) or
``search`` (PUCT with the card's ``default_search``; ``simulations`` N or ``move_time_s`` S: at N
simulations or S seconds a move instead), and adds one row per match (W/D/L by seat, score with its
95% interval, forfeits) with the code commit, date, wall time and load average before and after.
`rows_from_ladder` plays nothing: it takes the agent's matches from a ladder report (the same arena,
opening book and seats; only the players' tie-break seeds differ) as its rows. `record_rows` adds
rows to ``docs/results/pretrained_NAME.json`` and to the model card's ``results`` (a row of the same
play, search and opponent is replaced), and the games of those matches to the results file's records
file, ``docs/results/records/pretrained_NAME.json.gz`` (`evaluation.results_files`: not in the
repository, replayed by the web page). ``python training/pretrained.py measure`` runs them
(`hive_envs.training.pretrained`).
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from hive_envs.evaluation import results_files
from hive_envs.evaluation.arena import Settings, play_matches
from hive_envs.evaluation.ladder import PLAYED_UNDER
from hive_envs.evaluation.match import MatchResult, format_table
from hive_envs.evaluation.provenance import git_commit, utc_text
from hive_envs.players.specs import split_agent_spec
from hive_envs.pretrained import EVALUATION, model_card, pretrained_folder, pretrained_kind

PLAYS = ("argmax", "sampled", "search")
RESULTS_FOLDER = Path(__file__).resolve().parents[2] / "docs" / "results"


def search_suffix(simulations: int, move_time_s: float | None = None) -> str:
    """The player-spec suffix of a search: ``@T=S`` for ``move_time_s`` seconds a move, else ``@N``."""
    return f"@T={move_time_s:g}" if move_time_s is not None else f"@{simulations}"


def default_search(card: dict) -> tuple[int, float | None]:
    """The card's default search as (simulations, seconds a move): (N, None) or (0, S)."""
    _, simulations, move_time_s = split_agent_spec(f"pretrained:{card['name']}{card['default_search']}")
    return simulations, move_time_s


def policy_card(name: str) -> dict:
    """The model card of the policy agent ``name``; ValueError for a learned evaluation, whose results
    come from arena reports (`hive_envs.training.pretrained_eval`), and as `model_card`."""
    if pretrained_kind(name) == EVALUATION:
        raise ValueError(
            f"{name!r} is a learned evaluation: its results are arena matches of its alpha-beta search, "
            f"added with export-eval ... --matches REPORT.json (hive-arena ... --out REPORT.json)"
        )
    return model_card(name)


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
    card = policy_card(name)
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
    card: dict[str, Any] = (
        json.loads(card_path.read_text()) if card_path.is_file() else {"name": name, "results": []}
    )
    card["results"] = [row for row in card["results"] if row_key(row) not in replaced] + rows
    card_path.parent.mkdir(parents=True, exist_ok=True)
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    path = results_file(name)
    report: dict[str, Any] = (
        results_files.read_report(path)[0] if path.is_file() else {"name": name, "results": []}
    )
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
    from an earlier report the one its ``"from"`` entry copied (`evaluation.ladder.PLAYED_UNDER`)."""
    run = pair.get("from", report)
    missing = [key for key in PLAYED_UNDER if key not in run]
    if missing:
        raise ValueError(
            f"--from-ladder: {path!r} kept {pair['player']} vs {pair['opponent']} from {run.get('report')!r} "
            f"without the run that played it ({', '.join(missing)}); extend that report again"
        )
    return run


def rows_from_ladder(name: str, path: str) -> tuple[list[MatchResult], list[dict]]:
    """The agent's matches in the ladder report at ``path`` (`evaluation.ladder`: the arena, opening
    book and seats of `measure`; only the players' tie-break seeds differ) as result rows from the
    agent's side, argmax (raw) or search @N; a pair of two settings of the agent gives a row for the
    searched one."""
    card = policy_card(name)
    report = json.loads(Path(path).read_text())
    if report["game"] != card["game"]:
        raise ValueError(
            f"--from-ladder: {path!r} is a {report['game']} ladder; {name!r} plays {card['game']}"
        )
    played = {spec for pair in report["pairs"] for spec in (pair["player"], pair["opponent"])}
    digest = card["file_sha256"]
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
