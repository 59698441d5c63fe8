"""Game-by-game matches of the alpha-beta players against the built-in ones (a measuring script).

    python benchmarks/search_matches.py hive ab:2 random --games 200
    python benchmarks/search_matches.py hive ab:3 ab:2 --games 200 --game-type Base+MLP --workers 2
    python benchmarks/search_matches.py hoyito ab:4 greedy --games 200 --holes 6
    python benchmarks/search_matches.py hive ab:T=0.1 greedy --games 20

Players: ``random``, ``greedy`` (`hive_envs.hive.players.GreedyPlayer`; Hoyito: largest immediate
capture), ``ab:D`` (alpha-beta to depth D), ``ab:T=S`` (alpha-beta with S seconds per move).
Each pair of games starts from one random opening of 2, 3 or 4 plies (all openings distinct, so
deterministic players do not replay one game), once with each player first. It reuses the
arena's referees and game loop (`training/arena.py`: every move is checked by the referee) and
prints W/D/L from the first player's side, the score ``(W + D/2) / games`` with its 95% interval
(normal approximation over the per-game scores), the games drawn at the turn cap (Hive), the
mean game length and the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from training.arena import (
    HiveReferee,
    HoyitoReferee,
    LocalPlayer,
    distinct_openings,
    make_player,
    mean_ci95,
    play_game,
)

OPENING_PLIES = (2, 3, 4)


def alphabeta_player(spec: str, game: str, seed: int) -> LocalPlayer:
    """``ab:D`` / ``ab:T=S`` as an arena player."""
    body = spec[3:]
    try:
        limits = {"time_s": float(body[2:])} if body.startswith("T=") else {"depth": int(body)}
    except ValueError:
        raise ValueError(f"player {spec!r}: use ab:DEPTH or ab:T=SECONDS") from None
    if game == "hive":
        from hive_envs.hive.alphabeta import HiveAlphaBeta

        searcher = HiveAlphaBeta(seed=seed, **limits)
        return LocalPlayer(spec, searcher.choose_move)
    from hive_envs.hoyito.alphabeta import HoyitoAlphaBeta

    searcher = HoyitoAlphaBeta(seed=seed, **limits)
    return LocalPlayer(spec, lambda g, _limits: searcher.choose(g))


def player(spec: str, game: str, seed: int):
    if spec.startswith("ab:"):
        return alphabeta_player(spec, game, seed)
    if spec in ("random", "greedy"):
        return make_player(spec, game, False, seed, 60.0)
    raise ValueError(f"player {spec!r}: use random, greedy, ab:DEPTH or ab:T=SECONDS")


def referee(game: str, game_type: str, holes: int):
    return HiveReferee(game_type) if game == "hive" else HoyitoReferee(holes_per_row=holes)


def play_openings(
    args: argparse.Namespace, openings: list[list], worker: int
) -> list[tuple[int, float, int]]:
    """(seat of A, result for A in -1/0/+1, plies) of two games per opening."""
    ref = referee(args.game, args.game_type, args.holes)
    a = player(args.a, args.game, 2 * worker + 1 + 1000 * args.seed)
    b = player(args.b, args.game, 2 * worker + 2 + 1000 * args.seed)
    from hive_envs.hive.players import SearchLimits

    rows = []
    for opening in openings:
        for seat_of_a in (0, 1):
            seats = (a, b) if seat_of_a == 0 else (b, a)
            result0, plies, reason, _ = play_game(ref, seats, opening, SearchLimits())
            if reason:
                raise RuntimeError(f"a game ended by forfeit: {reason}")
            rows.append((seat_of_a, result0 if seat_of_a == 0 else -result0, plies))
    return rows


def openings_for(args: argparse.Namespace) -> list[list]:
    ref = referee(args.game, args.game_type, args.holes)
    pairs = args.games // 2
    openings = []
    for k, plies in enumerate(OPENING_PLIES):
        share = pairs // len(OPENING_PLIES) + (1 if k < pairs % len(OPENING_PLIES) else 0)
        if share:
            openings += distinct_openings(ref, plies, share, args.seed * 31 + plies)
    random.Random(args.seed).shuffle(openings)
    return openings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=("hive", "hoyito"))
    parser.add_argument("a", help="first player (its side is reported)")
    parser.add_argument("b", help="second player")
    parser.add_argument("--games", type=int, default=200, help="even number of games")
    parser.add_argument("--game-type", default="Base", help="Hive game type")
    parser.add_argument("--holes", type=int, default=6, help="Hoyito holes per row")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error("--games must be an even number >= 2")
    openings = openings_for(args)
    started = time.perf_counter()
    if args.workers == 1:
        rows = play_openings(args, openings, 0)
    else:
        chunks = [openings[i :: args.workers] for i in range(args.workers)]
        with ProcessPoolExecutor(args.workers, mp_context=get_context("spawn")) as pool:
            parts = pool.map(play_openings, [args] * args.workers, chunks, range(args.workers))
            rows = [row for part in parts for row in part]
    wins = sum(r[1] > 0 for r in rows)
    draws = sum(r[1] == 0 for r in rows)
    losses = sum(r[1] < 0 for r in rows)
    score, low, high = mean_ci95([(r[1] + 1) / 2 for r in rows])
    capped = sum(r[1] == 0 and r[2] >= 300 for r in rows) if args.game == "hive" else 0
    by_seat = [sum((r[1] + 1) / 2 for r in rows if r[0] == seat) / (len(rows) / 2) for seat in (0, 1)]
    label = args.game_type if args.game == "hive" else f"hoyito 2x{args.holes}"
    print(
        f"{label}: {args.a} vs {args.b}  games={len(rows)}  W/D/L={wins}/{draws}/{losses}  "
        f"score={score:.3f} [{low:.3f}, {high:.3f}]  as first/second={by_seat[0]:.3f}/{by_seat[1]:.3f}  "
        f"turn-cap draws={capped}  mean plies={sum(r[2] for r in rows) / len(rows):.1f}  "
        f"wall={time.perf_counter() - started:.0f}s  loadavg={os.getloadavg()[0]:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
