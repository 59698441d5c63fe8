"""Time per move of players (pretrained agents raw and with search, alpha-beta): CPU and wall seconds.

    taskset -c 0 python -m benchmarks.move_times --game hive --players pretrained:hive_base \
        pretrained:hive_base@128 --opponent alphabeta:2 --games 4 --json docs/results/move_times_hive_base.json
    taskset -c 0 python -m benchmarks.move_times --game hive --options expansions=MLP \
        --players pretrained:hive_mlp pretrained:hive_mlp@64 --opponent alphabeta:2 --games 4 \
        --json docs/results/move_times_hive_mlp.json

Each player plays ``--games`` games (half in each seat) against ``--opponent`` from the arena's book of
4-ply random openings (`evaluation.arena`); every move of the timed player is timed with
``time.process_time`` (CPU: what the move costs whatever else the machine runs) and
``time.perf_counter`` (wall). The first move of each player is played before timing starts (the
compiled kernels load then). torch and numba run on one thread, as in the UHP engine, the play CLI and
the arena (`hive_envs.players.base.play_on_one_thread`). Prints and writes the median, 95th percentile and maximum of each; the
issue's budget for an agent's default search is 1 s per move.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

from hive_envs.evaluation.arena import Settings, distinct_openings
from hive_envs.evaluation.provenance import git_commit, machine
from hive_envs.games import GAMES
from hive_envs.play import parse_options
from hive_envs.players.base import play_on_one_thread


def time_moves(spec: str, opponent: str, settings: Settings, games: int) -> dict:
    """Play the games; the CPU and wall seconds of each of ``spec``'s moves."""
    player, other = settings.player(spec, 0), settings.player(opponent, 1)
    play_on_one_thread()
    player.choose(settings.new_game())
    cpu, wall = [], []
    for opening in distinct_openings(settings.new_game, settings.opening_plies, games // 2, 0):
        for seat in (0, 1):
            game = settings.new_game()
            for move in opening:
                game.play_id(move)
            while not game.is_terminal:
                if game.to_move == seat:
                    c, w = time.process_time(), time.perf_counter()
                    move = player.choose(game.copy())
                    cpu.append(time.process_time() - c)
                    wall.append(time.perf_counter() - w)
                else:
                    move = other.choose(game.copy())
                game.play_id(move)
    player.close()
    other.close()

    def summary(values: list[float]) -> dict:
        array = np.array(values)
        return {
            "median": round(float(np.median(array)), 5),
            "p95": round(float(np.percentile(array, 95)), 5),
            "max": round(float(array.max()), 5),
        }

    return {
        "player": spec,
        "opponent": opponent,
        "moves": len(cpu),
        "cpu_s": summary(cpu),
        "wall_s": summary(wall),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="hive", choices=sorted(GAMES))
    parser.add_argument("--players", nargs="+", required=True, help="player specs to time")
    parser.add_argument(
        "--options", nargs="*", default=[], metavar="NAME=VALUE", help="game options (e.g. expansions=MLP)"
    )
    parser.add_argument("--opponent", default="alphabeta:2")
    parser.add_argument("--games", type=int, default=4, help="games per player (even)")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number >= 2, got {args.games}")
    game_options = parse_options(args.options, args.game)
    settings = Settings(game=args.game, game_options=game_options, opening_plies=4, seed=0)
    commit, dirty = git_commit()
    load_before = list(os.getloadavg())
    rows = []
    for spec in args.players:
        row = time_moves(spec, args.opponent, settings, args.games)
        rows.append(row)
        print(
            f"{spec:<32} {row['moves']:>4} moves  CPU s median {row['cpu_s']['median']:.3f} "
            f"p95 {row['cpu_s']['p95']:.3f} max {row['cpu_s']['max']:.3f}  wall median {row['wall_s']['median']:.3f}"
        )
    report = {
        "command": " ".join(["python -m benchmarks.move_times", *sys.argv[1:]]),
        "game_options": game_options,
        "results": rows,
        "code_commit": commit,
        "code_dirty": dirty,
        "machine": machine(),
        "load_average_before": load_before,
        "load_average_after": list(os.getloadavg()),
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
    }
    if args.json:
        with open(args.json, "w") as file:
            json.dump(report, file, indent=1)
            file.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
