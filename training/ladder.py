"""The Elo ladder: a round robin of fixed players (and any checkpoints or specs given), Elo with random = 0.

    python training/evaluate.py --ladder hive --games 200 --workers 2          # Hive Base
    python training/evaluate.py --ladder hive --options expansions=MLP         # Base+MLP
    python training/evaluate.py --ladder hoyito runs/h/checkpoints/latest.pt   # plus a checkpoint
    # add players to an earlier ladder: its pairs are kept, only the new pairs are played
    python training/evaluate.py --ladder hive pretrained:hive_base --extend docs/results/ladder_hive_base.json

    from training.ladder import ladder
    report = ladder(["runs/x/latest.pt"], game="hive", games=20, workers=2)
    report["elo"]  # [{"player", "elo", "stderr", "ci95"}], best first

Players: `LADDERS[game]` (Hive: random, greedy, alphabeta:1, :2, :3; Hoyito: random, greedy,
alphabeta:2, :4, :6) followed by the ``players`` given (checkpoints ``PATH[@N]`` of the same game and
options, or any player spec). Every pair plays ``games`` games in the arena (`training.arena`, the one
match runner): the same book of random openings of ``opening_plies`` plies for every pair, each opening
played once with each player as White / South, the referee's rules (300-turn cap in Hive). Forfeits
(an engine that failed) are reported apart and left out of the fit.

``extend`` (``--extend REPORT``) keeps the pairs of an earlier report whose two players are both in
this ladder instead of playing them again; the earlier report must have the same game, options,
games per pair, opening plies, seed and turn cap (so the same opening book), else ValueError. Its
rows are copied with a ``"from"`` entry (the report's path, commit and date; a row that report had
itself kept keeps the source it had) and the report lists each reused source once. A pair is kept only
while its checkpoints are the ones the earlier report played: each report records, per checkpoint
player, the file's sha256 and, for a shipped agent searching (``pretrained:NAME@N``), its model card's
search settings (``"checkpoints"``); a pair with a checkpoint retrained, re-exported or searching
otherwise since (or not recorded) is played again, and said so on stderr.

Elo: maximum likelihood over all pairs (`training.elo.fit_elo`, random anchored at 0, a draw half a
win), with a 95% interval of ±1.96 standard errors. Each pair's score (wins + draws / 2 per game) has a
95% Wilson interval. The JSON report holds every pair's W / D / L (by seat), forfeits, turn-cap
draws, mean length, score and interval, the Elo table, the command, the commit and date at the start,
machine, load average before and after, and the wall time; the PNG draws each player's Elo with its interval.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from datetime import datetime, timezone
from itertools import combinations
from pathlib import Path

from hive_envs.agents.checkpoint import load_checkpoint
from hive_envs.agents.views import view_for_checkpoint
from hive_envs.players import checkpoint_path
from hive_envs.players.specs import split_agent_spec
from hive_envs.pretrained import model_card
from training.arena import Settings, check_counts, play_matches
from training.cli import check_writable, write_report
from training.elo import fit_elo
from training.provenance import git_commit, machine, utc_text

LADDERS = {
    "hive": ["random", "greedy", "alphabeta:1", "alphabeta:2", "alphabeta:3"],
    "hoyito": ["random", "greedy", "alphabeta:2", "alphabeta:4", "alphabeta:6"],
}
ANCHOR = "random"
Z95 = 1.959964


def ladder_players(game: str, extra: list[str]) -> list[str]:
    """The ladder's fixed players of ``game`` followed by ``extra`` (duplicates dropped)."""
    if game not in LADDERS:
        raise ValueError(f"--ladder: no ladder for game {game!r} (ladders: {', '.join(LADDERS)})")
    players = list(LADDERS[game])
    for spec in extra:
        if spec not in players:
            players.append(spec)
    return players


def check_checkpoints(players: list[str], settings: Settings) -> None:
    """Every checkpoint among ``players`` must play the ladder's game (ValueError): the check the
    checkpoint player makes at its first move (`GameView.check_game`), made before any game."""
    for spec in players:
        path = checkpoint_path(spec)
        if path is None:
            continue
        if not os.path.isfile(path):
            raise ValueError(f"player {spec!r}: no such player kind, and checkpoint {path!r} does not exist")
        data = load_checkpoint(path)
        try:
            view_for_checkpoint(data).check_game(settings.new_game())
        except ValueError as error:
            raise ValueError(f"checkpoint {path!r} cannot play this ladder: {error}") from None


def ladder(
    players: list[str] = (),
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
) -> dict:
    """Play the ladder of ``game`` plus ``players``; print the tables, write ``out`` (JSON) and ``plot``
    (PNG) if given, and return the report (see the module docstring). Outputs, players and checkpoints
    are checked before the first game (ValueError)."""
    game_options = dict(game_options or {})
    names = ladder_players(game, list(players))
    check_counts(games, workers)
    for path, flag in ((out, "--out"), (plot, "--plot")):
        if path:
            check_writable(path, flag)
    settings = Settings(
        game=game, game_options=game_options, opening_plies=opening_plies, max_turns=max_turns, seed=seed
    )
    check_checkpoints(names, settings)
    for spec in names:  # a bad spec fails now, not in a worker after hours of games
        settings.player(spec, 0).close()
    identities = checkpoint_identities(names)
    kept = reused_pairs(extend, names, settings, games, identities) if extend else {}
    pairs = [pair for pair in combinations(names, 2) if frozenset(pair) not in kept]
    commit, dirty = git_commit()  # the code that plays, before anything else is edited
    date = datetime.now(timezone.utc).isoformat(timespec="seconds")
    load_before, started = os.getloadavg(), time.perf_counter()
    played = play_matches(pairs, games, settings, workers, progress) if pairs else []
    wall_s = time.perf_counter() - started
    rows = list(kept.values()) + [_pair_row(result, records, settings) for result, records in played]
    elo = fit_elo(names, [(r["player"], r["opponent"], r["points"], r["decided"]) for r in rows], ANCHOR)
    report = {
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
        "elo": sorted(
            (
                {"player": p, "elo": e, "stderr": s, "ci95": [e - Z95 * s, e + Z95 * s]}
                for p, (e, s) in elo.items()
            ),
            key=lambda row: -row["elo"],
        ),
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


def checkpoint_identities(players: list[str]) -> dict[str, dict]:
    """What each checkpoint player among ``players`` plays: ``{"sha256"}`` of its file, plus ``"search"``
    (the model card's settings) for a shipped agent with ``@N`` simulations, how its search plays."""
    identities = {}
    for spec in players:
        path = checkpoint_path(spec)
        if path is None:
            continue
        identity = {"sha256": hashlib.sha256(Path(path).read_bytes()).hexdigest()}
        kind, _, argument = spec.partition(":")
        if kind == "pretrained":
            name, simulations, move_time_s = split_agent_spec(argument)
            if simulations or move_time_s:
                identity["search"] = model_card(name).get("search")
        identities[spec] = identity
    return identities


def reused_pairs(
    path: str, names: list[str], settings: Settings, games: int, identities: dict[str, dict]
) -> dict[frozenset, dict]:
    """The rows of the report at ``path`` between two of ``names`` (keyed by the pair), each with a
    ``"from"`` entry, whose checkpoint players (``identities``, see `checkpoint_identities`) are the ones
    that report played; ValueError if it was played under other settings (see the module doc)."""
    import json

    try:
        earlier = json.loads(Path(path).read_text())
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
    changed = [
        spec for spec in identities if spec in players_then and identities_then.get(spec) != identities[spec]
    ]
    if changed:
        print(
            f"--extend: the pairs of {', '.join(changed)} in {path} are played again: "
            "a checkpoint or search changed since (or that report did not record it)",
            file=sys.stderr,
        )
    source = {"report": str(path), "commit": earlier.get("commit"), "date": earlier.get("date")}
    return {  # a row the earlier report itself kept keeps its own source
        frozenset((row["player"], row["opponent"])): {**row, "from": row.get("from", source)}
        for row in rows
        if row["player"] in names
        and row["opponent"] in names
        and row["player"] not in changed
        and row["opponent"] not in changed
    }


def game_label(settings: Settings) -> str:
    """ "Hive Base+MLP", "Hoyito II 2x6" (the game's name for other games)."""
    options = settings.new_game().options
    if settings.game == "hive":
        return f"Hive {options.game_type}"
    if settings.game == "hoyito":
        return f"Hoyito II 2x{options.holes_per_row}"
    return settings.game


def _pair_row(result, records, settings: Settings) -> dict:
    cap = settings.max_turns if settings.has_option("max_turns") else None
    low, high = result.score_ci95()
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
        "mean_length": result.mean_length,
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


# -- the README's ladder blocks ---------------------------------------------------------------------
README_LADDERS = {
    "hive_base": ("docs/results/ladder_hive_base.json", "docs/images/ladder_hive_base.png"),
    "hive_base_mlp": ("docs/results/ladder_hive_base_mlp.json", "docs/images/ladder_hive_base_mlp.png"),
    "hoyito_2x6": ("docs/results/ladder_hoyito_2x6.json", "docs/images/ladder_hoyito_2x6.png"),
}
"""The ladders the README shows: block name -> (report, picture), relative to the repository."""


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
            f" {reused} pairs of the players before the ones added were played by `{source['report']}` "
            f"(commit `{str(source['commit'])[:10]}`, {utc_text(source['date'])} UTC, "
            "same opening book) and are kept from it."
        )
    if sources:
        note += " The time and load above are the new pairs'."
    parts = [f"**{report['label']}**", "\n".join(elo)]
    if picture:
        parts.append(f"![{report['label']} Elo ladder]({picture})")
    parts += ["\n".join(pairs), note]
    return "\n\n".join(parts)


def readme_block(name: str, root: Path) -> str:
    """The README block ``name`` as rendered from its committed report."""
    import json

    report_path, picture = README_LADDERS[name]
    return "\n" + markdown(json.loads((root / report_path).read_text()), picture) + "\n"


def ladder_markers(name: str) -> tuple[str, str]:
    return (
        f"<!-- ladder:{name}: generated by `python training/ladder.py` from its report -->",
        "<!-- ladder:end -->",
    )


def rewrite_readme(root: Path, check: bool = False) -> list[str]:
    """Rewrite (or, with ``check``, only compare) the README's ladder blocks; returns the stale ones."""
    readme = root / "README.md"
    text, stale = readme.read_text(), []
    for name in README_LADDERS:
        begin, end = ladder_markers(name)
        start, stop = text.find(begin), text.find(end, text.find(begin))
        if start < 0 or stop < 0:
            raise ValueError(f"README.md has no {begin!r} ... {end!r} block")
        fresh = readme_block(name, root)
        if text[start + len(begin) : stop] != fresh:
            stale.append(name)
            text = text[: start + len(begin)] + fresh + text[stop:]
    if stale and not check:
        readme.write_text(text)
    return stale


if __name__ == "__main__":
    stale = rewrite_readme(Path(__file__).resolve().parent.parent, check="--check" in sys.argv[1:])
    print(("stale: " if "--check" in sys.argv[1:] else "rewrote: ") + (", ".join(stale) or "nothing"))
    sys.exit(1 if stale and "--check" in sys.argv[1:] else 0)
