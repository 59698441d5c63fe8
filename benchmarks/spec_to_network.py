"""Move time of one player spec on fixed positions under two checkouts of the code, interleaved.

    python benchmarks/spec_to_network.py --before /tmp/base --spec pretrained:hive_base@128 \
        --positions 10 --rounds 6 --json docs/results/spec_to_network.json

Each round runs the same child twice, once with ``PYTHONPATH`` at ``--before`` (a second checkout,
e.g. ``git worktree add /tmp/base COMMIT``) and once at this checkout, alternating which goes first.
A child makes the player (torch and numba on one thread, as the arena and the UHP engine play),
plays one untimed move, then times ``choose`` on each of ``--positions`` positions (random plies
from the start of the game, seeded): CPU seconds (``time.process_time``: what the move costs whatever
else the machine runs) and wall seconds. The report holds every round's per-position times and
chosen moves, the median CPU time per move of each side, the median over rounds of the ratio
after / before (each round's two runs are neighbours in time), and whether both chose the same
moves. The script is run by its path, so that its child imports the package of the checkout named
by ``PYTHONPATH`` and nothing else of this one.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def child(spec: str, game_name: str, positions: int, seed: int) -> dict:
    """Time the spec's moves on the positions (runs under the checkout on ``PYTHONPATH``)."""
    import hive_envs
    from hive_envs.games import new_game
    from hive_envs.players import PlayerContext, make_player
    from hive_envs.players.base import play_on_one_thread

    rng = random.Random(seed)
    games = []
    while len(games) < positions:
        game = new_game(game_name, {})
        for _ in range(rng.randrange(6, 40)):
            if game.is_terminal:
                break
            moves = game.legal_move_ids()
            game.play_id(int(moves[rng.randrange(len(moves))]))
        if not game.is_terminal:
            games.append(game)
    player = make_player(spec, PlayerContext(game_name, 0))
    play_on_one_thread()  # after making the player: it imports torch
    player.choose(games[0].copy())  # the compiled kernels load now, untimed
    cpu, wall, chosen = [], [], []
    for game in games:
        c, w = time.process_time(), time.perf_counter()
        chosen.append(int(player.choose(game.copy())))
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    player.close()
    return {"package": str(Path(hive_envs.__file__).parent), "cpu_s": cpu, "wall_s": wall, "moves": chosen}


def run_child(checkout: Path, args) -> dict:
    command = [sys.executable, str(Path(__file__).resolve()), "--child", "--spec", args.spec]
    command += ["--game", args.game, "--positions", str(args.positions), "--seed", str(args.seed)]
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    load = os.getloadavg()[0]
    output = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    result = json.loads(output.strip().splitlines()[-1])
    return {**result, "load_average_1min": [load, os.getloadavg()[0]]}


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--before", help="the checkout to compare with (its root)")
    parser.add_argument("--spec", default="pretrained:hive_base@128")
    parser.add_argument("--game", default="hive")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the report here")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if str(Path(__file__).resolve().parent) in sys.path:  # run by path: import no module of this folder
        sys.path.remove(str(Path(__file__).resolve().parent))
    if args.child:
        print(json.dumps(child(args.spec, args.game, args.positions, args.seed)))
        return 0
    if not args.before or not Path(args.before, "hive_envs").is_dir():
        parser.error(f"--before must be the root of a checkout of the package, got {args.before!r}")
    sys.path.insert(0, str(HERE))
    from hive_envs.evaluation.provenance import git_commit, machine

    checkouts = {"before": Path(args.before).resolve(), "after": HERE}
    commits = {
        label: subprocess.run(
            ["git", "-C", str(path), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
        ).stdout.strip()
        for label, path in checkouts.items()
    }
    rounds = []
    for r in range(args.rounds):
        order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
        runs = {label: run_child(checkouts[label], args) for label in order}
        ratio = median(runs["after"]["cpu_s"]) / median(runs["before"]["cpu_s"])
        rounds.append({"order": order, **runs, "cpu_ratio_after_over_before": ratio})
        print(
            f"round {r}: CPU s/move median before {median(runs['before']['cpu_s']):.3f} "
            f"after {median(runs['after']['cpu_s']):.3f} ratio {ratio:.3f} "
            f"load {runs[order[0]]['load_average_1min'][0]:.1f}",
            flush=True,
        )
    summary = {
        label: {
            "cpu_s_per_move_median": median([t for rnd in rounds for t in rnd[label]["cpu_s"]]),
            "wall_s_per_move_median": median([t for rnd in rounds for t in rnd[label]["wall_s"]]),
        }
        for label in checkouts
    }
    same_moves = all(rnd["before"]["moves"] == rnd["after"]["moves"] for rnd in rounds)
    ratio = median([rnd["cpu_ratio_after_over_before"] for rnd in rounds])
    print(f"{summary}\nmedian CPU ratio after / before {ratio:.3f}; same moves: {same_moves}")
    commit, dirty = git_commit()
    report = {
        "command": " ".join(["python benchmarks/spec_to_network.py", *sys.argv[1:]]),
        "spec": args.spec,
        "positions": args.positions,
        "commits": commits,
        "code_commit": commit,
        "code_dirty": dirty,
        "machine": machine(),
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "summary": summary,
        "median_cpu_ratio_after_over_before": ratio,
        "same_moves": same_moves,
        "rounds": rounds,
    }
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
