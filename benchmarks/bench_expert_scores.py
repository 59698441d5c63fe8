"""CPU cost of the alpha-beta expert's scores (`AlphaBetaSearcher.move_scores`) on Hive: every root move
scored in one kernel call against one separate search per move, interleaved in one process.

    python -m benchmarks.bench_expert_scores [--positions 40] [--depth 3] [--temperature 8]

Positions: seeded games of Base and Base+MLP (alternately) after 4 to 50 uniformly random plies
(finished games and single-move positions skipped). Each position is scored three ways, one after the
other: the kernel with the expert's margin (`alphabeta_expert.score_margin`), the
kernel with no margin (every score exact), and the separate searches (the base class: each move
played, the position after it searched ``depth`` - 1 plies, with the same margin applied after). It
prints CPU seconds and nodes of each, the ratios, and how often the best score equals
``alphabeta:depth``'s root value (`HiveAlphaBeta(depth).search`). Single-threaded numba is advised
(``NUMBA_NUM_THREADS=1``): the searches are serial, and the load average is printed.
"""

from __future__ import annotations

import argparse
import functools
import os
import time

from benchmarks.bench_search import random_positions
from hive_envs.core.alphabeta import AlphaBetaSearcher
from hive_envs.hive.engine.game import HiveGame
from hive_envs.hive.search.alphabeta import HiveAlphaBeta
from hive_envs.training.alphabeta_expert import score_margin

OPENING_PLIES = (4, 50)


def positions(count: int, seed: int) -> list[HiveGame]:
    """``count`` unfinished positions with more than one legal move, Base and Base+MLP alternately."""
    found: list[HiveGame] = []
    for game_type in ("Base", "Base+MLP"):
        new_game = functools.partial(HiveGame, game_type, tournament_opening=True)
        games = random_positions(new_game, 2 * count, seed, OPENING_PLIES)
        found += [game for game in games if len(game.legal_move_ids()) > 1][: (count + 1) // 2]
    return found[:count]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--temperature", type=float, default=8.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    margin = score_margin(args.temperature)
    searcher, root = HiveAlphaBeta(), HiveAlphaBeta(depth=args.depth)
    ways = {
        f"one kernel call, margin {margin}": lambda g, m: searcher.move_scores(g, m, args.depth, margin),
        "one kernel call, exact": lambda g, m: searcher.move_scores(g, m, args.depth),
        f"a search per move, margin {margin}": lambda g, m: AlphaBetaSearcher.move_scores(
            searcher, g, m, args.depth, margin
        ),
    }
    cpu, nodes, best_is_root = dict.fromkeys(ways, 0.0), dict.fromkeys(ways, 0), dict.fromkeys(ways, 0)
    games = positions(args.positions, args.seed)
    moves = 0
    for game in games:
        legal = game.legal_move_ids()
        moves += len(legal)
        root_score = root.search(game).score
        for label, score in ways.items():
            start = time.process_time()
            scores, searched = score(game, legal)
            cpu[label] += time.process_time() - start
            nodes[label] += searched
            best_is_root[label] += scores.max() == root_score
    print(f"Hive, depth {args.depth}: {len(games)} positions, {moves} moves")
    slowest = max(cpu.values())
    for label in ways:
        print(
            f"  {label:<28} {cpu[label]:7.2f} CPU-s  {nodes[label]:>10} nodes  {slowest / cpu[label]:5.2f}x  "
            f"best = alphabeta:{args.depth}'s root value in {best_is_root[label]}/{len(games)}"
        )
    print(f"  load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
