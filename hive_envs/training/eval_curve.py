"""The learning curve of a learned-evaluation run: each generation's network against the hand evaluation.

    python -m hive_envs.training.eval_curve runs/hive_eval --move-time 1 --games 200 --workers 2 \\
        --out docs/results/hive_eval_curve.json --plot docs/images/hive_eval_curve.png

For every ``checkpoints/gen_NNNN.pt`` of the run folder (`hive_envs.training.eval_training`), a match of
``alphabeta:T=S,eval=learned:gen_NNNN.pt`` against ``alphabeta:T=S`` (or both at ``--depth`` plies) in
the arena (`hive_envs.evaluation.arena`: paired random openings, both seats, each side's moves over the
limit counted), after the run rather than inside it: at 1 s a move a generation's match takes longer
than its training. The report holds each generation's score with the pairs' and the games' intervals
and the run's training time when that generation was written (``progress.jsonl``); ``--plot`` draws
the score against the training time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from hive_envs.evaluation.arena import Settings, play_match
from hive_envs.evaluation.cli import exit_code
from hive_envs.evaluation.results_files import check_writable, write_report
from hive_envs.extras import command


def generation_files(run_dir: Path) -> list[tuple[int, Path]]:
    """(generation, file) of the run's generation checkpoints, in order; ValueError when there are none."""
    found = sorted((run_dir / "checkpoints").glob("gen_[0-9][0-9][0-9][0-9].pt"))
    if not found:
        raise ValueError(f"{str(run_dir)!r} holds no checkpoints/gen_NNNN.pt (a hive-train-eval run folder?)")
    return [(int(path.stem[4:]), path) for path in found]


def run_game(run_dir: Path) -> tuple[str, dict]:
    """The game and options the run trained for (its last generation's file says)."""
    from hive_envs.agents.eval_checkpoint import load_eval_checkpoint

    data = load_eval_checkpoint(generation_files(run_dir)[-1][1])
    return str(data["game"]), dict(data["game_options"])


def training_seconds(run_dir: Path) -> dict[int, float]:
    """The run's training time (s) when each generation was written, from its ``progress.jsonl``."""
    path = run_dir / "progress.jsonl"
    if not path.is_file():
        return {}
    lines = [json.loads(text) for text in path.read_text().splitlines() if text.strip()]
    return {int(line["generation"]): float(line["elapsed_s"]) for line in lines}


def curve(run_dir: Path, games: int, settings: Settings, depth: int, workers: int) -> dict:
    """The report (module docstring)."""
    limit = f"T={settings.move_time_s:g}" if settings.move_time_s else str(depth)
    seconds = training_seconds(run_dir)
    points = []
    for generation, path in generation_files(run_dir):
        result, _ = play_match(
            f"alphabeta:{limit},eval=learned:{path}", f"alphabeta:{limit}", games, settings, workers
        )
        row = result.to_dict()
        points.append(
            {
                "generation": generation,
                "training_seconds": seconds.get(generation),
                "wins": result.wins,
                "draws": result.draws,
                "losses": result.losses,
                "score": result.score,
                "score_ci95": row["score_ci95"],
                "pair_score_ci95": row["pair_score_ci95"],
                "move_seconds": row["move_seconds"],
            }
        )
        print(
            f"generation {generation}: {result.wins} / {result.draws} / {result.losses}, score {result.score:.3f}"
        )
    return {
        "run_dir": str(run_dir),
        "opponent": f"alphabeta:{limit}",
        "games_per_point": games,
        "opening_plies": settings.opening_plies,
        "move_time_s": settings.move_time_s,
        "points": points,
    }


def plot(report: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = report["points"]
    x = [
        p["training_seconds"] / 3600 if p["training_seconds"] is not None else p["generation"] for p in points
    ]
    label = "training time (h)" if all(p["training_seconds"] is not None for p in points) else "generation"
    scores = [p["score"] for p in points]
    low = [p["score"] - (p["pair_score_ci95"] or p["score_ci95"])[0] for p in points]
    high = [(p["pair_score_ci95"] or p["score_ci95"])[1] - p["score"] for p in points]
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.errorbar(x, scores, yerr=[low, high], marker="o", capsize=3)
    axes.axhline(0.5, color="grey", linewidth=0.8)
    axes.set_xlabel(label)
    axes.set_ylabel(f"score vs {report['opponent']}")
    axes.set_ylim(0, 1)
    axes.set_title("learned evaluation, one point per generation")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hive_envs.training.eval_curve",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("run_dir", help="a hive-train-eval run folder")
    parser.add_argument("--games", type=int, default=200, help="games per generation (even)")
    parser.add_argument("--move-time", type=float, default=1.0, help="seconds a move (0: by --depth)")
    parser.add_argument("--depth", type=int, default=3, help="plies of both searches with --move-time 0")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="the report (JSON)")
    parser.add_argument("--plot", help="the curve (PNG)")
    args = parser.parse_args(argv)

    def run() -> None:
        run_dir = Path(args.run_dir)
        for path, flag in ((args.out, "--out"), (args.plot, "--plot")):
            if path:
                check_writable(path, flag)
        game, options = run_game(run_dir)
        settings = Settings(
            game=game,
            game_options=options,
            opening_plies=args.opening_plies,
            move_time_s=args.move_time or None,
            seed=args.seed,
        )
        report = curve(run_dir, args.games, settings, args.depth, args.workers)
        if args.out:
            write_report(args.out, report)
        if args.plot:
            plot(report, args.plot)

    return exit_code(run)


if __name__ == "__main__":
    sys.exit(command(main)())
