"""Perft from the command line: ``python -m hive_envs.hive.perft [--game-type T | --gamestring S] DEPTH``.

Prints the count on a line of its own (and, with ``--divide``, one line per first move). Counting
follows UHP engines: distinct (piece, destination) moves, lowest-numbered placements only, a
forced pass is a move, the last ply bulk-counted.
"""

from __future__ import annotations

import argparse
import sys
import time

from hive_envs.hive.engine.game import HiveGame


def divide(game: HiveGame, depth: int) -> list[tuple[str, int]]:
    """Perft of ``depth - 1`` after each legal first move, as (UHP move, count)."""
    rows = []
    for move_id in game.legal_move_ids():
        text = game.move_name(int(move_id))
        game.play_id(int(move_id))
        rows.append((text, game.perft(depth - 1)))
        game.undo()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hive-perft", description=__doc__.splitlines()[0])
    parser.add_argument("depth", type=int, help="plies to count (>= 0)")
    parser.add_argument(
        "--game-type", default="Base", help="UHP GameTypeString, e.g. Base+MLP (default Base)"
    )
    parser.add_argument("--gamestring", help="start from this UHP GameString instead of a new game")
    parser.add_argument("--no-tournament", action="store_true", help="allow the Queen on the first turn")
    parser.add_argument("--divide", action="store_true", help="also print the count below each first move")
    parser.add_argument("--time", action="store_true", help="also print seconds and nodes/s on stderr")
    args = parser.parse_args(argv)
    try:
        if args.gamestring:
            game = HiveGame.from_gamestring(args.gamestring, tournament_opening=not args.no_tournament)
        else:
            game = HiveGame(args.game_type, tournament_opening=not args.no_tournament)
        if args.depth < 0:
            raise ValueError(f"depth must be >= 0, not {args.depth}")
        if args.divide and args.depth >= 1:
            for text, count in divide(game, args.depth):
                print(f"{text}\t{count}")
        start = time.perf_counter()
        count = game.perft(args.depth)
        seconds = time.perf_counter() - start
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(count)
    if args.time:
        print(f"{seconds:.4f} s, {count / max(seconds, 1e-9):,.0f} nodes/s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
