"""Evaluate checkpoints: matches against random, greedy or other checkpoints; Elo for a list.

    # one checkpoint vs random and greedy (default opponents), 400 games each, both seats
    hive-evaluate runs/hoyito_2x6/checkpoints/latest.pt --games 400
    # vs another checkpoint, or the same one with 32 PUCT simulations per move
    hive-evaluate A.pt --opponents B.pt A.pt@32
    # vs any UHP engine process (Hive; games one by one, see hive-arena --help for time limits etc.)
    hive-evaluate A.pt --opponent uhp:"nokamute uhp" --games 20
    # a list: every pair plays (plus random and greedy), Elo fit with random at 0, Elo-vs-step plot
    hive-evaluate runs/hoyito_2x6/checkpoints/step_*.pt --games 200 --plot elo.png
    # vs the alpha-beta searchers (any depth D, or T=seconds per move)
    hive-evaluate A.pt --opponents alphabeta:1 alphabeta:2 --games 200
    # the Elo ladder: random, greedy, alphabeta:1..3 (Hoyito: :2, :4, :6) and the players given
    hive-evaluate --ladder hive --games 200 --workers 2 --out ladder.json --plot ladder.png
    hive-evaluate --ladder hoyito A.pt --games 20

Players and opponents are player specs (`hive_envs.players`: random, greedy, alphabeta:D,
alphabeta:T=S, PATH, PATH@N, uhp:COMMAND and every kind registered there). Prints a table (W/D/L per
seat, win rate with a 95% Wilson interval, score, mean game length) and writes everything as JSON
(`--out`; by default evaluation.json next to the first checkpoint, or, for one inside the package (a
pretrained agent), runs/pretrained/NAME/evaluation.json: never into the package). Checkpoints play argmax moves by
default; `--sample` samples from the policy instead. Outputs and arguments are checked before the
first game. ``--ladder GAME`` runs `evaluation.ladder` (game by game in the arena, with its opening
book, workers and progress bar) instead of the batched matches.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import sys
from pathlib import Path
from typing import Any

from hive_envs.evaluation.arena import distinct_openings
from hive_envs.evaluation.cli import add_trust_env_module, exit_code, trust_env_modules
from hive_envs.evaluation.elo import fit_elo
from hive_envs.evaluation.ladder import ladder
from hive_envs.evaluation.match import MatchResult, format_table, halves, play_games_batched, summarise
from hive_envs.evaluation.results_files import check_writable, write_report
from hive_envs.extras import command
from hive_envs.games import GAMES, game_entry, new_game
from hive_envs.players import PlayerContext, PlayerSpec, make_player, parse_spec
from hive_envs.players.uhp_engine import add_move_timeout_argument

BUILTIN = ("random", "greedy")


def short_name(spec: PlayerSpec | str) -> str:
    """'run/step_0000123456' style for a checkpoint spec (enough to tell checkpoints of different runs
    apart; a '@N' search suffix is kept); other specs as they are."""
    spec = parse_spec(spec)
    if spec.checkpoint is None:
        return spec.text
    resolved = Path(spec.checkpoint).resolve()
    return f"{resolved.parent.parent.name}/{resolved.stem}{spec.text[len(spec.checkpoint) :]}"


def load_checkpoint(path: str | Path, **expected) -> dict:
    """`hive_envs.agents.checkpoint.load_checkpoint`, imported on the first checkpoint read: torch is
    needed where a checkpoint plays, not to import this module or run a ladder of classical players."""
    from hive_envs.agents.checkpoint import load_checkpoint as load

    return load(path, **expected)


class Setup:
    """The game of the first checkpoint; every other checkpoint must be for the same game."""

    def __init__(self, first: dict):
        self.game = first["game"]
        self.game_options = dict(first["game_options"])
        self.encoding_version = first["encoding_version"]
        self.observation_shape = tuple(first["observation_shape"])
        self.num_actions = int(first["num_actions"])

    def load(self, path: Path) -> dict:
        data = load_checkpoint(
            path,
            game=self.game,
            encoding_version=self.encoding_version,
            observation_shape=self.observation_shape,
            num_actions=self.num_actions,
        )
        if dict(data["game_options"]) != self.game_options:
            raise ValueError(
                f"checkpoint {str(path)!r} is for game_options={data['game_options']}, "
                f"the others for {self.game_options}"
            )
        return data


def default_report_path(checkpoint: str) -> Path:
    """Where `evaluate` writes without ``--out``: ``evaluation.json`` next to ``checkpoint`` (in its run
    folder), but for a checkpoint inside the installed package (a pretrained agent's file, in the
    source tree or site-packages) ``runs/pretrained/NAME/evaluation.json`` in the working directory."""
    path = Path(checkpoint)
    package = Path(__file__).resolve().parents[1]  # the hive_envs folder this module is part of
    if package in path.resolve().parents:
        return Path("runs") / "pretrained" / path.stem / "evaluation.json"
    return path.parent / "evaluation.json"


def match_player(spec: PlayerSpec | str, greedy_play: bool, seed: int, game: str | None = None):
    """The player of a spec, named as the tables show it."""
    player = make_player(spec, PlayerContext(game=game, seed=seed, sample=not greedy_play))
    player.name = short_name(spec)
    return player


def has_greedy(setup: Setup) -> bool:
    return hasattr(game_entry(setup.game).make_batch(1, setup.game_options), "greedy_actions")


def evaluate(
    checkpoints: list[str],
    opponents: list[str],
    games: int,
    seed: int = 0,
    greedy_play: bool = True,
    out: str | None = None,
    plot: str | None = None,
    opening_plies: int = 4,
) -> dict:
    """Run the matches, print the table (and Elo table for a list), write JSON (and the plot).

    Each pair of games (one per seat) starts from its own random opening of ``opening_plies`` plies
    (the arena's opening book; 0: every game from the start position), so that deterministic players
    do not replay one game per seat.

    The output paths, the anchor of an Elo table and every checkpoint are checked before the first
    game (ValueError)."""
    specs = {text: parse_spec(text) for text in checkpoints + opponents}  # parsed once, here
    out_path = checked_outputs(checkpoints, opponents, specs, out, plot, opening_plies)
    setup, loaded = load_checkpoints(checkpoints + opponents, specs)
    if "greedy" in opponents and not has_greedy(setup):
        print(f"note: game {setup.game!r} has no greedy player; skipping it", file=sys.stderr)
        opponents = [o for o in opponents if o != "greedy"]
    pairs: list[tuple[str, str]] = [(c, o) for c in checkpoints for o in opponents]
    if len(checkpoints) > 1:
        pairs += list(itertools.combinations(checkpoints, 2))
    results = [
        play_pair(specs[a], specs[b], setup, games, seed + 1000 * number, greedy_play, opening_plies)
        for number, (a, b) in enumerate(pairs)
    ]
    print(format_table(results))
    report: dict = {
        "game": setup.game,
        "game_options": setup.game_options,
        "play": "argmax" if greedy_play else "sampled",
        "opening_plies": opening_plies,
        "matches": [r.to_dict() for r in results],
    }
    if len(checkpoints) > 1:
        names = {c: short_name(specs[c]) for c in checkpoints}
        players = ["random"] + [o for o in opponents if o == "greedy"] + list(names.values())
        steps = {names[c]: int(loaded[c]["global_step"]) for c in checkpoints}
        report["elo"] = elo_rows(players, steps, results)
        if plot:
            plot_elo(report["elo"], plot)
            report["plot"] = plot
    write_report(out_path, report)
    return report


def checked_outputs(
    checkpoints: list[str],
    opponents: list[str],
    specs: dict[str, PlayerSpec],
    out: str | None,
    plot: str | None,
    opening_plies: int,
) -> Path:
    """The report's path (``out``, or `default_report_path`), once it and the plot are known to be
    writable and the request makes sense (ValueError naming what does not)."""
    if not checkpoints:
        raise ValueError("give at least one checkpoint")
    if opening_plies < 0:
        raise ValueError(f"--opening-plies must be >= 0, got {opening_plies}")
    out_path = Path(out) if out else default_report_path(specs[checkpoints[0]].checkpoint or checkpoints[0])
    check_writable(out_path, "--out")
    if plot:
        if len(checkpoints) < 2:
            raise ValueError("--plot draws Elo against training step: give two or more checkpoints")
        check_writable(plot, "--plot")
    if len(checkpoints) > 1 and "random" not in opponents:
        raise ValueError("an Elo table for a list of checkpoints needs 'random' among the opponents (anchor)")
    return out_path


def load_checkpoints(players: list[str], specs: dict[str, PlayerSpec]) -> tuple[Setup, dict[str, dict]]:
    """The `Setup` of the first player, which must be a checkpoint, and the data of every checkpoint
    among ``players``, each checked against the first's game (ValueError)."""
    first_path = specs[players[0]].checkpoint
    if first_path is None:
        raise ValueError(f"{players[0]!r} is not a checkpoint; the first player must be one")
    setup = Setup(load_checkpoint(first_path))
    loaded = {}
    for spec in players:
        path = specs[spec].checkpoint
        if path is not None:
            loaded[spec] = setup.load(Path(path))
    return setup, loaded


def play_pair(
    a: PlayerSpec, b: PlayerSpec, setup: Setup, games: int, seed: int, greedy_play: bool, opening_plies: int
) -> MatchResult:
    """One batched match of ``games`` games between A and B (`match.halves` of a book of
    ``opening_plies``-ply openings), seeded by ``seed``."""
    player_a = match_player(a, greedy_play, seed + 1, setup.game)
    player_b = match_player(b, greedy_play, seed + 2, setup.game)
    openings = []
    if opening_plies:
        start = functools.partial(new_game, setup.game, setup.game_options)
        openings = distinct_openings(start, opening_plies, max(1, games // 2), seed)
    try:
        records = play_games_batched(
            player_a, player_b, halves(openings, games), setup.game, setup.game_options, seed
        )
        return summarise(player_a.name, player_b.name, records)
    finally:
        player_a.close()
        player_b.close()


def elo_rows(players: list[str], steps: dict[str, int], results: list[MatchResult]) -> list[dict]:
    """The Elo table of ``players`` (random, the anchor, first) from the matches' ``results``, with the
    training step of each checkpoint (``steps``), printed best first."""
    elo = fit_elo(players, [(r.player, r.opponent, r.score * r.games, r.games) for r in results], "random")
    rows: list[dict[str, Any]] = [
        {"player": p, "elo": elo[p][0], "stderr": elo[p][1], "global_step": steps.get(p)} for p in players
    ]
    print("\nElo (maximum likelihood, random = 0):")
    for row in sorted(rows, key=lambda row: -row["elo"]):
        step = "" if row["global_step"] is None else f"  step {row['global_step']}"
        print(f"  {row['player']:<40} {row['elo']:8.1f} ± {row['stderr']:.1f}{step}")
    return rows


def plot_elo(rows: list[dict], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    points = sorted((r["global_step"], r["elo"], r["stderr"]) for r in rows if r["global_step"] is not None)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.errorbar([p[0] for p in points], [p[1] for p in points], yerr=[p[2] for p in points], marker="o")
    for r in rows:
        if r["global_step"] is None:
            ax.axhline(r["elo"], linestyle="--", color="grey")
            ax.text(0.01, r["elo"], r["player"], transform=ax.get_yaxis_transform(), va="bottom")
    ax.set_xlabel("training step (plies)")
    ax.set_ylabel("Elo (random = 0)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def arguments() -> argparse.ArgumentParser:
    """The command line of evaluate.py."""
    parser = argparse.ArgumentParser(
        prog="hive-evaluate", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "checkpoints", nargs="*", help="checkpoint file(s); with --ladder: players added to the ladder"
    )
    parser.add_argument(
        "--opponents",
        "--opponent",
        nargs="+",
        default=list(BUILTIN),
        help="player specs: 'random', 'greedy', alphabeta:D / alphabeta:T=S, checkpoint paths PATH[@N | @T=S] "
        "and/or uhp:COMMAND (a UHP engine; see hive-arena --help)",
    )
    parser.add_argument(
        "--games", type=int, default=None, help="games per match, half in each seat (400; ladder 200)"
    )
    parser.add_argument(
        "--sample", action="store_true", help="sample moves from the policies (default: argmax)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    add_move_timeout_argument(parser)
    parser.add_argument("--out", help="JSON output path")
    parser.add_argument("--plot", help="PNG of Elo against training step (for a list), or of the ladder")
    parser.add_argument(
        "--ladder",
        choices=sorted(GAMES),
        help="the Elo ladder of a game: its fixed players, the checkpoints / specs given, round robin",
    )
    parser.add_argument(
        "--options", nargs="*", default=[], metavar="NAME=VALUE", help="with --ladder: game options"
    )
    parser.add_argument("--workers", type=int, default=1, help="with --ladder: processes playing games")
    parser.add_argument(
        "--opening-plies",
        type=int,
        default=4,
        help="random opening plies of each pair of games (one per seat); 0: the start position",
    )
    parser.add_argument("--no-progress", action="store_true", help="with --ladder: no progress bar")
    parser.add_argument(
        "--extend",
        metavar="REPORT",
        help="with --ladder: keep the pairs of this earlier ladder report (same settings), play only the new ones",
    )
    parser.add_argument(
        "--replay",
        nargs="+",
        default=[],
        metavar="SPEC",
        help="with --extend: play the pairs of these players again (e.g. alphabeta:3 after a change of the search)",
    )
    add_trust_env_module(parser)
    return parser


def run_command(args: argparse.Namespace) -> None:
    """Run the evaluation that the command line asks for: a ladder, a match with UHP engines, or
    checkpoints against opponents (ValueError naming a bad flag)."""
    trust_env_modules(args.trust_env_module)
    if args.threads < 0:
        raise ValueError(f"--threads must be >= 0 (0: torch's default), got {args.threads}")
    if args.threads:
        from hive_envs.players.checkpoint import set_torch_threads

        set_torch_threads(args.threads)
    if args.ladder:
        from hive_envs.play import parse_options

        ladder(
            args.checkpoints,
            game=args.ladder,
            game_options=parse_options(args.options, args.ladder),
            games=200 if args.games is None else args.games,
            workers=args.workers,
            seed=args.seed,
            opening_plies=args.opening_plies,
            progress=not args.no_progress,
            out=args.out,
            plot=args.plot,
            extend=args.extend,
            replay=args.replay,
        )
        return
    ladder_only = {
        "--options": args.options,
        "--extend": args.extend,
        "--replay": args.replay,
        "--workers": args.workers != 1,
    }
    given = [flag for flag, value in ladder_only.items() if value]
    if given:
        raise ValueError(f"{', '.join(given)} apply to --ladder only; give --ladder GAME or leave them out")
    if not args.checkpoints:
        raise ValueError("give at least one checkpoint (or --ladder GAME)")
    games = 400 if args.games is None else args.games
    if any(spec.startswith("uhp:") for spec in args.checkpoints + args.opponents):
        if args.plot:
            raise ValueError(
                "--plot draws an Elo table of checkpoints or a ladder; a match with uhp: has none"
            )
        from hive_envs.evaluation import (
            arena,  # UHP engine processes play game by game, our engine refereeing
        )

        settings = arena.settings_for(
            args.checkpoints + args.opponents,
            sample=args.sample,
            seed=args.seed,
            move_timeout_s=args.move_timeout,
        )
        arena.run(args.checkpoints, args.opponents, games, settings, out=args.out)
        return
    evaluate(
        args.checkpoints,
        args.opponents,
        games,
        args.seed,
        not args.sample,
        args.out,
        args.plot,
        args.opening_plies,
    )


def main(argv: list[str] | None = None) -> int:
    args = arguments().parse_args(argv)
    return exit_code(lambda: run_command(args))


if __name__ == "__main__":
    sys.exit(command(main)())
