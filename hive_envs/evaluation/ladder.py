"""The Elo ladder: a round robin of fixed players (and any checkpoints or specs given), Elo with random = 0.

    hive-evaluate --ladder hive --games 200 --workers 2          # Hive Base
    hive-evaluate --ladder hive --options expansions=MLP         # Base+MLP
    hive-evaluate --ladder hoyito runs/h/checkpoints/latest.pt   # plus a checkpoint
    # add players to an earlier ladder: its pairs are kept, only the new pairs are played
    hive-evaluate --ladder hive pretrained:hive_base --extend docs/results/ladder_hive_base.json

    from hive_envs.evaluation.ladder import ladder
    report = ladder(["runs/x/latest.pt"], game="hive", games=20, workers=2)
    report["elo"]  # [{"player", "elo", "stderr", "ci95"}], best first

Players: the game definition's ``ladder`` (Hive: random, greedy, alphabeta:1, :2, :3; Hoyito:
random, greedy, alphabeta:2, :4, :6) followed by the ``players`` given (checkpoints ``PATH[@N]`` of the same game and
options, or any player spec). Every pair plays ``games`` games in the arena (`evaluation.arena`, through
the one match runner, `evaluation.match`): the same book of random openings of ``opening_plies`` plies for every pair, each opening
played once with each player as White / South, the referee's rules (300-turn cap in Hive). Forfeits
(an engine that failed) are reported apart and left out of the fit.

``extend`` (``--extend REPORT``) keeps the pairs of an earlier report whose two players are both in
this ladder instead of playing them again; the earlier report must have the same game, options,
games per pair, opening plies, seed and turn cap (so the same opening book), else ValueError. Its
rows are copied with a ``"from"`` entry (the report's path and the run that played them: commit, date,
command, workers, load average and wall time; a row that report had itself kept keeps the source it
had) and the report lists each reused source once. A pair is kept only while its checkpoints are the
ones the earlier report played: each report records, per checkpoint player, the file's sha256 and,
for a shipped agent searching (``pretrained:NAME@N``), its model card's search settings
(``"checkpoints"``); a pair with a checkpoint retrained, re-exported or searching
otherwise since (or not recorded) is played again, and said so on stderr. ``replay`` (``--replay SPEC
...``) names players whose pairs are played again all the same: a classical player whose code changed
(a new search behind the same ``alphabeta:D``) has no file to tell it by.

Elo: maximum likelihood over all pairs (`evaluation.elo.fit_elo`, random anchored at 0, a draw half a
win), with a 95% interval of ±1.96 standard errors. Each pair's score (wins + draws / 2 per game) has a
95% Wilson interval. The JSON report holds every pair's W / D / L (by seat), forfeits, turn-cap
draws, mean length, score and interval, the Elo table, the command, the commit and date at the start,
machine, load average before and after, and the wall time; the PNG draws each player's Elo with its interval.
Each pair's games (records, per-move times) go to the report's records file, ``records/NAME.json.gz``
beside it (`evaluation.results_files`); ``--extend`` carries a kept pair's games over from the earlier
report's records file when it is there, else keeps the pair as a tally.
"""

from __future__ import annotations

import hashlib
import math
import os
import sys
import time
from collections.abc import Sequence
from datetime import datetime, timezone
from itertools import combinations
from pathlib import Path
from typing import Any, TypeGuard

from hive_envs.evaluation import results_files
from hive_envs.evaluation.arena import Settings, check_counts, play_matches
from hive_envs.evaluation.elo import fit_elo
from hive_envs.evaluation.provenance import git_commit, machine
from hive_envs.evaluation.results_files import check_writable, write_report
from hive_envs.games import GAMES, game_entry
from hive_envs.players import PlayerSpec, parse_spec
from hive_envs.players.specs import split_agent_spec
from hive_envs.pretrained import model_card

ANCHOR = "random"
PLAYED_UNDER = ("commit", "dirty", "date", "command", "workers", "load_average", "wall_s")
"""What a kept pair's ``"from"`` copies from the report that played it: the run's code, time and load."""
Z95 = 1.959964


def ladder_players(game: str, extra: list[str]) -> list[PlayerSpec]:
    """The ladder's fixed players of ``game`` (its definition's ``ladder``) followed by ``extra``
    (duplicates dropped), parsed (ValueError naming a bad spec)."""
    if game not in GAMES:
        raise ValueError(f"--ladder: no ladder for game {game!r} (games: {', '.join(sorted(GAMES))})")
    players = [parse_spec(spec) for spec in GAMES[game].ladder]
    for spec in map(parse_spec, extra):
        if spec.text not in [player.text for player in players]:
            players.append(spec)
    return players


def check_checkpoints(players: list[PlayerSpec], settings: Settings) -> None:
    """Every checkpoint among ``players`` must play the ladder's game (ValueError): the check the
    checkpoint player makes at its first move (`GameView.check_game`), made before any game."""
    for spec in players:
        path = spec.checkpoint
        if path is None:
            continue
        if not os.path.isfile(path):
            raise ValueError(
                f"player {spec.text!r}: no such player kind, and checkpoint {path!r} does not exist"
            )
        from hive_envs.agents.views import view_for_checkpoint  # torch: only where a checkpoint plays
        from hive_envs.players.checkpoint import read_checkpoint

        data = read_checkpoint(path)
        try:
            view_for_checkpoint(data).check_game(settings.new_game())
        except ValueError as error:
            raise ValueError(f"checkpoint {path!r} cannot play this ladder: {error}") from None


def ladder(
    players: Sequence[str] = (),
    game: str = "hive",
    game_options: dict | None = None,
    games: int = 200,
    workers: int = 1,
    seed: int = 0,
    opening_plies: int = 4,
    max_turns: int | None = 300,
    progress: bool = True,
    out: str | None = None,
    plot: str | None = None,
    command: str | None = None,
    extend: str | None = None,
    replay: list[str] | tuple[str, ...] = (),
) -> dict:
    """Play the ladder of ``game`` plus ``players``; print the tables, write ``out`` (JSON) and ``plot``
    (PNG) if given, and return the report (see the module docstring). Outputs, players and checkpoints
    are checked before the first game (ValueError)."""
    game_options = dict(game_options or {})
    specs = ladder_players(game, list(players))
    names = [spec.text for spec in specs]
    check_counts(games, workers)
    for path, flag in ((out, "--out"), (plot, "--plot")):
        if path:
            check_writable(path, flag)
    settings = Settings(
        game=game, game_options=game_options, opening_plies=opening_plies, max_turns=max_turns, seed=seed
    )
    check_players(specs, settings)
    identities = checkpoint_identities(specs)
    kept = kept_pairs(extend, set(replay), names, settings, games, identities)
    pairs = [(a, b) for a, b in combinations(specs, 2) if frozenset((a.text, b.text)) not in kept]
    commit, dirty = git_commit()  # the code that plays, before anything else is edited
    date = datetime.now(timezone.utc).isoformat(timespec="seconds")
    load_before, started = os.getloadavg(), time.perf_counter()
    played = play_matches(pairs, games, settings, workers, progress) if pairs else []
    wall_s = time.perf_counter() - started
    rows = list(kept.values()) + [_pair_row(result, records, settings) for result, records in played]
    report: dict[str, Any] = {
        "game": game,
        "label": game_label(settings),
        "game_options": game_options,
        "games_per_pair": games,
        "opening_plies": opening_plies,
        "max_turns": max_turns if settings.has_option("max_turns") else None,
        "seed": seed,
        "workers": workers,
        "players": names,
        "checkpoints": identities,
        "pairs": rows,
        "elo": elo_table(names, rows),
        "command": command or " ".join(["python training/evaluate.py", *sys.argv[1:]]),
        "commit": commit,
        "dirty": dirty,
        "date": date,
        "machine": machine(),
        "load_average": {"before": list(load_before), "after": list(os.getloadavg())},
        "wall_s": wall_s,
    }
    if kept:  # each earlier report once, in the order its pairs come
        sources = [row["from"] for row in kept.values()]
        report["reused"] = [source for k, source in enumerate(sources) if source not in sources[:k]]
    print(format_ladder(report))
    if plot:
        plot_ladder(report, plot)
        report["plot"] = plot
    if out:
        write_report(out, report)
    return report


def check_players(specs: list[PlayerSpec], settings: Settings) -> None:
    """Every player can play the ladder (its checkpoint is for the ladder's game, its spec makes a
    player): a bad one fails now, not in a worker after hours of games (ValueError)."""
    check_checkpoints(specs, settings)
    for spec in specs:
        settings.player(spec, 0).close()


def kept_pairs(
    extend: str | None,
    replayed: set[str],
    names: list[str],
    settings: Settings,
    games: int,
    identities: dict[str, dict],
) -> dict[frozenset, dict]:
    """The rows of the earlier report ``extend`` that this ladder keeps (`reused_pairs`), without the
    pairs of the ``replayed`` players; none without ``extend`` (ValueError for a ``replayed`` player
    without it, or one not in the ladder)."""
    if replayed and not extend:
        raise ValueError("--replay plays again pairs of an earlier report; give it with --extend REPORT")
    if replayed - set(names):
        raise ValueError(
            f"--replay: {', '.join(sorted(replayed - set(names)))} not among the ladder's players {names}"
        )
    kept = reused_pairs(extend, names, settings, games, identities) if extend else {}
    return {pair: row for pair, row in kept.items() if not pair & replayed}


def elo_table(names: list[str], rows: list[dict]) -> list[dict[str, Any]]:
    """The maximum-likelihood Elo of ``names`` from the pairs' ``rows`` (their decided games), `ANCHOR`
    at 0, each with its 95% interval, best first."""
    elo = fit_elo(names, [(r["player"], r["opponent"], r["points"], r["decided"]) for r in rows], ANCHOR)
    table = [
        {"player": p, "elo": e, "stderr": s, "ci95": [e - Z95 * s, e + Z95 * s]} for p, (e, s) in elo.items()
    ]
    return sorted(table, key=lambda row: -row["elo"])


def checkpoint_identities(players: Sequence[PlayerSpec | str]) -> dict[str, dict]:
    """What each checkpoint player among ``players`` plays: ``{"sha256"}`` of its file, plus ``"search"``
    (the model card's settings) for a shipped agent with ``@N`` simulations, how its search plays."""
    identities = {}
    for spec in map(parse_spec, players):
        if spec.checkpoint is None:
            continue
        identity: dict[str, Any] = {"sha256": hashlib.sha256(Path(spec.checkpoint).read_bytes()).hexdigest()}
        if spec.kind == "pretrained":
            name, simulations, move_time_s = split_agent_spec(spec.argument)
            if simulations or move_time_s:
                identity["search"] = model_card(name).get("search")
        identities[spec.text] = identity
    return identities


def reused_pairs(
    path: str, names: list[str], settings: Settings, games: int, identities: dict[str, dict]
) -> dict[frozenset, dict]:
    """The rows of the report at ``path`` between two of ``names`` (keyed by the pair), each with a
    ``"from"`` entry, whose checkpoint players (``identities``, see `checkpoint_identities`) are the ones
    that report played; ValueError if it was played under other settings (see the module doc)."""
    try:
        earlier, no_games = results_files.read_report(path)
        settings_then = {
            key: earlier[key] for key in ("game", "game_options", "games_per_pair", "opening_plies", "seed")
        }
        settings_then["max_turns"] = earlier["max_turns"]
        rows = earlier["pairs"]
        identities_then, players_then = earlier.get("checkpoints", {}), earlier.get("players", [])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"--extend: cannot read a ladder report from {path!r}: {error}") from None
    now = {
        "game": settings.game,
        "game_options": settings.game_options,
        "games_per_pair": games,
        "opening_plies": settings.opening_plies,
        "seed": settings.seed,
        "max_turns": settings.max_turns if settings.has_option("max_turns") else None,
    }
    differ = [
        f"{key} {settings_then[key]!r} there, {now[key]!r} here"
        for key in now
        if settings_then[key] != now[key]
    ]
    if differ:
        raise ValueError(f"--extend: {path!r} was played with other settings: {'; '.join(differ)}")
    check_report_rows(rows, players_then, games, path)
    if no_games:
        print(
            f"--extend: the pairs kept from {path} are kept without their games: {no_games}", file=sys.stderr
        )
    changed = [spec for spec in identities if identities_then.get(spec) != identities[spec]]
    if any(spec in players_then for spec in changed):
        print(
            f"--extend: the pairs of {', '.join(c for c in changed if c in players_then)} in {path} are played again: "
            "a checkpoint or search changed since (or that report did not record it)",
            file=sys.stderr,
        )
    source = {"report": str(path), **{key: earlier.get(key) for key in PLAYED_UNDER}}
    return {  # a row the earlier report itself kept keeps its own source
        frozenset((row["player"], row["opponent"])): {**row, "from": row.get("from", source)}
        for row in rows
        if row["player"] in names
        and row["opponent"] in names
        and row["player"] not in changed
        and row["opponent"] not in changed
    }


def check_report_rows(rows, players: list, games: int, path: str) -> None:
    """ValueError naming ``path`` and the row unless every row of a ladder report is well formed and
    possible: two different players of the report's ``players``, each pair once, ``games`` games
    split into wins, draws, losses (by seat too) and forfeits of non-negative integers, and
    ``decided``, ``points``, ``score`` and ``mean_length`` agreeing with them (finite)."""

    def count(value) -> bool:
        return type(value) is int and value >= 0

    def pair_of_counts(value) -> bool:
        return isinstance(value, list) and len(value) == 2 and all(count(v) for v in value)

    if not isinstance(rows, list) or not isinstance(players, list):
        raise ValueError(f"--extend: {path!r} is not a ladder report: 'pairs' and 'players' must be lists")
    seen: set[frozenset] = set()
    for k, row in enumerate(rows):
        problem = _row_problem(row, players, games, count, pair_of_counts)
        if problem is None:
            pair = frozenset((row["player"], row["opponent"]))
            problem = "a second row of this pair" if pair in seen else None
            seen.add(pair)
        if problem is not None:
            shown = repr(row)[:200]
            raise ValueError(f"--extend: {path!r} holds a bad row (pairs[{k}]: {problem}): {shown}")


def _is_number(value: object) -> TypeGuard[float]:
    """An int or a float, not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _row_problem(row, players: list, games: int, count, pair_of_counts) -> str | None:
    """What is wrong with one report row, or None (`check_report_rows`)."""
    if not isinstance(row, dict):
        return "not a mapping"
    player, opponent = row.get("player"), row.get("opponent")
    if not isinstance(player, str) or not isinstance(opponent, str) or player == opponent:
        return "player and opponent must be two different names"
    if player not in players or opponent not in players:
        return "a player the report does not list"
    if row.get("games") != games or type(row.get("games")) is not int:
        return f"games must be {games}, the report's games per pair"
    keys = ("wins", "draws", "losses", "decided", "turn_cap_draws")
    if not all(count(row.get(key)) for key in keys):
        return f"{', '.join(keys)} must be integers >= 0"
    seats = ("wins_by_seat", "draws_by_seat", "losses_by_seat", "forfeits")
    if not all(pair_of_counts(row.get(key)) for key in seats):
        return f"{', '.join(seats)} must be two integers >= 0 each"
    wins, draws, losses = row["wins"], row["draws"], row["losses"]
    if any(sum(row[f"{key}_by_seat"]) != row[key] for key in ("wins", "draws", "losses")):
        return "the counts by seat do not add up to the totals"
    if wins + draws + losses + sum(row["forfeits"]) != games or row["decided"] != wins + draws + losses:
        return "wins, draws, losses and forfeits do not add up to the games"
    if row["turn_cap_draws"] > draws:
        return "more turn-cap draws than draws"
    points, score, length = row.get("points"), row.get("score"), row.get("mean_length")
    if not (_is_number(points) and _is_number(score) and _is_number(length)):
        return "points, score and mean_length must be numbers"
    if not (math.isfinite(points) and math.isfinite(length) and length >= 0):
        return "points and mean_length must be finite (mean_length >= 0)"
    expected_score = points / row["decided"] if row["decided"] else math.nan  # no game decided: NaN
    if points != wins + 0.5 * draws or not (
        math.isclose(score, expected_score) or math.isnan(score) and math.isnan(expected_score)
    ):
        return "points or score do not agree with the wins and draws"
    return None


def game_label(settings: Settings) -> str:
    """ "Hive Base+MLP", "Hoyito II 2x6": the definition's ``label`` of the match's options."""
    return game_entry(settings.game).label(settings.options())


def _pair_row(result, records, settings: Settings) -> dict:
    cap = settings.max_turns if settings.has_option("max_turns") else None
    low, high = result.score_ci95()
    pair_interval = result.pair_score_ci95()
    return {
        "player": result.player,
        "opponent": result.opponent,
        "games": result.games,
        "wins": result.wins,
        "draws": result.draws,
        "losses": result.losses,
        "wins_by_seat": result.wins_by_seat,
        "draws_by_seat": result.draws_by_seat,
        "losses_by_seat": result.losses_by_seat,
        "forfeits": result.forfeits,
        "turn_cap_draws": sum(r.result_for_a == 0 and cap is not None and r.plies >= cap for r in records),
        "decided": result.decided,
        "points": result.wins + 0.5 * result.draws,
        "score": result.score,
        "score_ci95": [low, high],
        "pair_points": result.pair_points,
        "pair_score_ci95": None if pair_interval is None else list(pair_interval),
        "mean_length": result.mean_length,
        "move_seconds": result.move_seconds,
        "games_played": [r.__dict__ for r in records],  # to the records file (results_files)
    }


def format_ladder(report: dict) -> str:
    """The pairs table and the Elo table as text."""
    lines = [
        f"{'player':<24} {'opponent':<24} {'W/D/L':>12} {'score [95% CI]':>22} {'cap draws':>9} {'forfeits':>8}"
    ]
    for r in report["pairs"]:
        wdl = f"{r['wins']}/{r['draws']}/{r['losses']}"
        score = f"{r['score']:.3f} [{r['score_ci95'][0]:.3f}, {r['score_ci95'][1]:.3f}]"
        lines.append(
            f"{r['player'][-24:]:<24} {r['opponent'][-24:]:<24} {wdl:>12} {score:>22} "
            f"{r['turn_cap_draws']:>9} {r['forfeits'][0]}/{r['forfeits'][1]:<6}"
        )
    lines += ["", f"{report['label']}, Elo (maximum likelihood, {ANCHOR} = 0, 95% interval):"]
    for row in report["elo"]:
        lines.append(
            f"  {row['player']:<40} {row['elo']:8.1f}  [{row['ci95'][0]:8.1f}, {row['ci95'][1]:8.1f}]"
        )
    return "\n".join(lines)


def plot_ladder(report: dict, path: str) -> None:
    """A PNG of each player's Elo with its 95% interval, strongest on top."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    rows = report["elo"][::-1]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.5))
    y = range(len(rows))
    ax.errorbar(
        [r["elo"] for r in rows],
        list(y),
        xerr=[Z95 * r["stderr"] for r in rows],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(list(y), [r["player"] for r in rows])
    ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_title(f"{report['label']}: Elo ladder, {report['games_per_pair']} games per pair")
    ax.set_xlabel(f"Elo ({ANCHOR} = 0), 95% interval")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
