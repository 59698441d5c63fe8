"""Fit the Hive alpha-beta evaluation's weights to game outcomes (Texel tuning).

    python -m tools.tune_hive_evaluation --games 3000 --depth 2 --out tuned.json

Why: the hand-set weights (`evaluation.RULE_WEIGHTS`) were chosen by matches against greedy and
between depths, a few hundred games per guess. Texel tuning (the method of chess engines' evaluation
tuning) asks instead which weights best predict who wins from each position of many games: the
search's evaluation is linear in its terms (`evaluation.guessed_evaluation_terms`, what
`quick_evaluate` weighs), so the fit is a logistic regression of the outcome on the terms.

1. **Games**: ``--games`` self-play games of `HiveAlphaBeta` at ``--depth`` with ``--weights`` (the
   search's by default), each from a random opening of 4-10 plies (seeded per game; a third of the
   games are Base+MLP, so the expansions' terms have data), 300-ply cap. Every unfinished position
   after the opening gives one row: its terms from the side to move's view and the game's result
   for that side (1, 0.5, 0).
2. **Fit**: the probability that the side to move wins is ``sigmoid(K * weights . terms / 100)``.
   K is fitted first with the starting weights fixed, then the weights with K fixed, by L-BFGS on
   the cross-entropy plus an L2 pull towards the starting weights (``--prior``, per row; it keeps
   terms that the games rarely show near their starting values). Games are split 80/20: the loss
   on the held-out games says whether the fit generalises. The weights are rounded to integers.

The fitted weights are only a candidate: whether they play better is measured in games
(`training/arena.py`, docs/alphabeta.md). Needs torch (the fit).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from hive_envs.hive import HiveAlphaBeta, HiveGame
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.search.evaluation import (
    EVAL_BUFFER_SIZE,
    NUM_TERMS,
    SEARCH_WEIGHTS,
    TERM_NAMES,
    guessed_evaluation_terms,
)

OPENING_PLIES = (4, 10)
MAX_TURNS = 300


def _play_random_plies(game: HiveGame, plies: int, rng: random.Random) -> None:
    """Play ``plies`` uniformly random moves (fewer if the game ends)."""
    for _ in range(plies):
        if game.is_terminal:
            return
        moves = game.legal_move_ids()
        game.play_id(int(moves[rng.randrange(len(moves))]))


def play_game(args: tuple[int, int, list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """One self-play game (seed, depth, weights): the terms of each position after the opening
    (int32 rows) and the result for the side to move of each (1, 0.5, 0)."""
    seed, depth, weights = args
    rng = random.Random(seed)
    game = HiveGame("Base+MLP" if seed % 3 == 2 else "Base", max_turns=MAX_TURNS)
    _play_random_plies(game, rng.randint(*OPENING_PLIES), rng)
    if game.is_terminal:
        return np.zeros((0, NUM_TERMS), np.int32), np.zeros(0)
    searcher = HiveAlphaBeta(depth=depth, seed=seed, weights=np.array(weights, np.int32))
    workspace, buffer = new_workspace(), np.empty(EVAL_BUFFER_SIZE, dtype=np.int32)
    rows, movers = [], []
    while not game.is_terminal:
        terms = np.empty(NUM_TERMS, dtype=np.int32)
        guessed_evaluation_terms(game.state.copy(), workspace, buffer, terms)
        rows.append(terms)
        movers.append(game.to_move)
        game.play_id(searcher.choose(game))
    white_score = (game.result + 1.0) / 2.0
    results = np.array([white_score if mover == 0 else 1.0 - white_score for mover in movers])
    return np.array(rows, dtype=np.int32), results


def play_match_game(args: tuple[int, int, list[int], list[int], bool]) -> float:
    """One game of ``a`` against ``b`` (weight lists) at ``depth`` from the 4-ply random opening of
    ``seed``, ``a`` White if ``a_white``: ``a``'s score (1, 0.5, 0)."""
    seed, depth, a, b, a_white = args
    rng = random.Random(seed)
    game = HiveGame("Base", max_turns=MAX_TURNS, repetition_draw=True)
    _play_random_plies(game, 4, rng)
    searchers = [
        HiveAlphaBeta(depth=depth, weights=np.array(w, np.int32)) for w in ((a, b) if a_white else (b, a))
    ]
    while not game.is_terminal:
        game.play_id(searchers[game.to_move].choose(game))
    white_score = (game.result + 1.0) / 2.0
    return white_score if a_white else 1.0 - white_score


def match(a: np.ndarray, b: np.ndarray, games: int, depth: int, workers: int, seed: int) -> dict:
    """``games`` games of weights ``a`` against ``b`` at ``depth``, in pairs that share an opening
    with the seats swapped: ``a``'s wins, draws, losses and score."""
    jobs = [(seed + i // 2, depth, a.tolist(), b.tolist(), i % 2 == 0) for i in range(games)]
    with ProcessPoolExecutor(workers) as pool:
        scores = list(pool.map(play_match_game, jobs, chunksize=4))
    wins, draws = scores.count(1.0), scores.count(0.5)
    return {
        "games": games,
        "depth": depth,
        "seed": seed,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "score": sum(scores) / games,
    }


def collect(games: int, depth: int, weights: np.ndarray, workers: int, seed: int) -> list:
    """The rows of ``games`` games, one list entry per game."""
    jobs = [(seed + index, depth, weights.tolist()) for index in range(games)]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(play_game, jobs, chunksize=8))


def fit(train, held_out, start: np.ndarray, prior: float) -> dict:
    """K, then the weights (see the module docstring); the losses before and after."""
    import torch

    def tensors(games):
        terms = torch.tensor(np.concatenate([g[0] for g in games]), dtype=torch.float64)
        results = torch.tensor(np.concatenate([g[1] for g in games]), dtype=torch.float64)
        return terms, results

    x, y = tensors(train)
    hx, hy = tensors(held_out)
    w0 = torch.tensor(start, dtype=torch.float64)

    def loss(weights, k, xs, ys):
        logits = k * (xs @ weights) / 100.0
        return torch.nn.functional.binary_cross_entropy_with_logits(logits, ys)

    log_k = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    optimiser = torch.optim.LBFGS([log_k], max_iter=100, line_search_fn="strong_wolfe")

    def k_closure():
        optimiser.zero_grad()
        value = loss(w0, log_k.exp(), x, y)
        value.backward()
        return value

    optimiser.step(k_closure)
    k = float(log_k.detach().exp())
    weights = w0.clone().requires_grad_(True)
    optimiser = torch.optim.LBFGS([weights], max_iter=500, line_search_fn="strong_wolfe")
    scale = torch.clamp(w0.abs(), min=10.0)  # the pull is relative: a weight of 400 may move more than 6

    def w_closure():
        optimiser.zero_grad()
        value = loss(weights, k, x, y) + prior * (((weights - w0) / scale) ** 2).sum()
        value.backward()
        return value

    optimiser.step(w_closure)
    tuned = np.rint(weights.detach().numpy()).astype(np.int32)
    tuned_t = torch.tensor(tuned, dtype=torch.float64)
    with torch.no_grad():
        return {
            "k": k,
            "weights": tuned,
            "train_loss": [float(loss(w0, k, x, y)), float(loss(tuned_t, k, x, y))],
            "held_out_loss": [float(loss(w0, k, hx, hy)), float(loss(tuned_t, k, hx, hy))],
            "rows": [len(y), len(hy)],
        }


def read_weights(path: str) -> np.ndarray:
    """The ``weights`` of a report this tool wrote: every term named once, integers (ValueError else)."""
    named = json.loads(Path(path).read_text()).get("weights")
    if not isinstance(named, dict) or set(named) != set(TERM_NAMES):
        raise ValueError(f"{path}: 'weights' must name each of the {NUM_TERMS} evaluation terms once")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in named.values()):
        raise ValueError(f"{path}: every weight must be an integer")
    return np.array([named[name] for name in TERM_NAMES], dtype=np.int32)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--prior", type=float, default=1e-3, help="L2 pull towards the starting weights")
    parser.add_argument(
        "--weights", help="a JSON file with {term: weight} to start from (default: the search's)"
    )
    parser.add_argument("--out", help="write the fitted weights and the losses here (JSON)")
    parser.add_argument(
        "--data", help="an .npz of the games' rows: read if it exists, else written after playing"
    )
    parser.add_argument(
        "--match-games", type=int, default=0, help="then play the fitted weights against the start"
    )
    parser.add_argument("--match-depth", type=int, default=3)
    args = parser.parse_args(argv)
    start = SEARCH_WEIGHTS.copy()
    if args.weights:
        start = read_weights(args.weights)
    began = time.perf_counter()
    if args.data and Path(args.data).exists():
        saved = np.load(args.data)
        bounds = np.cumsum(saved["lengths"])[:-1]
        games = list(zip(np.split(saved["terms"], bounds), np.split(saved["results"], bounds)))
    else:
        games = [g for g in collect(args.games, args.depth, start, args.workers, args.seed) if len(g[1])]
        if args.data:
            lengths = np.array([len(g[1]) for g in games])
            terms, results = np.concatenate([g[0] for g in games]), np.concatenate([g[1] for g in games])
            np.savez_compressed(args.data, terms=terms, results=results, lengths=lengths)
    played_s = time.perf_counter() - began
    split = len(games) * 4 // 5
    result = fit(games[:split], games[split:], start, args.prior)
    report = {
        "command": "python -m tools.tune_hive_evaluation " + " ".join(argv or []),
        "games": len(games),
        "depth": args.depth,
        "seed": args.seed,
        "prior": args.prior,
        "play_seconds": round(played_s, 1),
        "k": result["k"],
        "rows": {"train": result["rows"][0], "held_out": result["rows"][1]},
        "loss_train": {"start": result["train_loss"][0], "fitted": result["train_loss"][1]},
        "loss_held_out": {"start": result["held_out_loss"][0], "fitted": result["held_out_loss"][1]},
        "start": dict(zip(TERM_NAMES, start.tolist())),
        "weights": dict(zip(TERM_NAMES, result["weights"].tolist())),
    }
    print(f"{len(games)} games in {played_s:.0f} s, K = {result['k']:.3f}")
    print(
        f"loss train {result['train_loss'][0]:.4f} -> {result['train_loss'][1]:.4f}, "
        f"held out {result['held_out_loss'][0]:.4f} -> {result['held_out_loss'][1]:.4f}"
    )
    for name, old, new in zip(TERM_NAMES, start.tolist(), result["weights"].tolist()):
        print(f"  {name:24s} {old:6d} -> {new:6d}")
    if args.match_games:
        report["match"] = match(
            result["weights"], start, args.match_games, args.match_depth, args.workers, 1_000_000 + args.seed
        )
        print(f"fitted vs start: {report['match']}")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    return report


if __name__ == "__main__":
    main()
