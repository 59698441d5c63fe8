"""The fixed middle-game positions of `benchmarks/search_speed.py`, written as UHP GameStrings.

    python benchmarks/search_positions.py            # rewrites benchmarks/data/search_positions.txt

Each position: a seeded game of ``--opening`` uniformly random plies, then ``alphabeta:1`` for
both sides (seeded tie-breaks, one random ply in five so that games differ) until ply 16 to 40;
games that end or whose Queens are not both placed by then are skipped. Half Base, half Base+MLP.
The file is checked in, so the benchmark measures the same positions on every engine version.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from hive_envs.hive import HiveAlphaBeta, HiveGame

DATA = Path(__file__).with_name("data") / "search_positions.txt"


def middle_game(game_type: str, rng: random.Random, opening: int) -> HiveGame | None:
    game = HiveGame(game_type)
    searcher = HiveAlphaBeta(depth=1, seed=rng.randrange(1 << 30))
    target = rng.randint(16, 40)
    while game.ply < target:
        ids = game.legal_move_ids()
        if game.ply < opening or rng.random() < 0.2:
            game.play_id(int(ids[rng.randrange(len(ids))]))
        else:
            game.play_id(searcher.choose(game))
        if game.is_terminal:
            return None
    return game if game.queen_placed(0) and game.queen_placed(1) else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=40, help="positions in all (half per game type)")
    parser.add_argument("--opening", type=int, default=4)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    lines = []
    for game_type in ("Base", "Base+MLP"):
        found = 0
        while found < args.count // 2:
            game = middle_game(game_type, rng, args.opening)
            if game is not None:
                lines.append(game.gamestring)
                found += 1
    args.out.write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} positions written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
