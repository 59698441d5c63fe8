"""Frozen results of the alpha-beta searches of both games, for `tests/test_search_reference.py`.

    python -m tests.data.make_search_reference   # rewrite tests/data/search_reference.txt

One line per depth-limited search (a fresh searcher each, so an empty table): the game, the position,
the limits and feature bits, then the move, score, depth reached, nodes and principal variation the
search gave; and one line per `move_scores` call with every move's score and the nodes. The positions:
the benchmark's middle-game positions (`benchmarks/data/search_positions.txt`), seeded random games of
every Hive game type, the locked-opponent position of the search's tests (its plan and fortress paths)
and seeded random Hoyito games on both boards. The test regenerates the text and compares it line by
line: a change that is meant only to reorganise or speed up the search must leave every node count as
it was. Rewrite the file only for a change of the search's behaviour that is meant.
"""

from __future__ import annotations

import random
from pathlib import Path

from hive_envs.hive import GAME_TYPES, HiveAlphaBeta, HiveGame
from hive_envs.hive.search.negamax import ALL_FEATURES, GUESSED_MOBILITY, PVS, QUIESCENCE
from hive_envs.hoyito import HoyitoAlphaBeta, HoyitoGame
from tests.hive.search.test_alphabeta import LOCKED, WIN_IN_2

PATH = Path(__file__).resolve().parent / "search_reference.txt"
COMMAND = "python -m tests.data.make_search_reference"
SEARCH_POSITIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "search_positions.txt"

# (depth, feature bits, seed) of the searches of every benchmark position.
BENCHMARK_SEARCHES = [
    (3, ALL_FEATURES, 0),
    (2, 0, 0),  # the plain alpha-beta: no PVS, no evaluation cache, no quiescence, listed mobility
    (3, ALL_FEATURES & ~GUESSED_MOBILITY, 5),
    (3, PVS | QUIESCENCE, 1),
]


def benchmark_positions() -> list[str]:
    return [line.strip() for line in SEARCH_POSITIONS.read_text().splitlines() if line.strip()]


def random_hive_positions() -> list[str]:
    """GameStrings after 10, 25 and 45 random plies of a seeded game of every game type (unfinished)."""
    found = []
    for index, game_type in enumerate(GAME_TYPES):
        for plies in (10, 25, 45):
            rng = random.Random(index * 1000 + plies)
            game = HiveGame(game_type)
            while game.ply < plies and not game.is_terminal:
                ids = game.legal_move_ids()
                game.play_id(int(ids[rng.randrange(len(ids))]))
            if not game.is_terminal:
                found.append(game.gamestring)
    return found


def hive_search_line(label: str, gamestring: str, depth: int, features: int, seed: int) -> str:
    game = HiveGame.from_gamestring(gamestring)
    r = HiveAlphaBeta(depth=depth, features=features, seed=seed).search(game)
    pv = " ".join(str(m) for m in r.pv)
    return (
        f"hive {label} depth={depth} features={features} seed={seed}: move={r.move_id} score={r.score} "
        f"depth_reached={r.depth_reached} nodes={r.nodes} pv={pv}"
    )


def hive_scores_line(label: str, gamestring: str, depth: int, margin: int | None) -> str:
    game = HiveGame.from_gamestring(gamestring)
    scores, nodes = HiveAlphaBeta().move_scores(game, game.legal_move_ids(), depth, margin)
    return f"hive {label} move_scores depth={depth} margin={margin}: nodes={nodes} scores=" + " ".join(
        str(int(v)) for v in scores
    )


def random_hoyito_games() -> list[tuple[str, HoyitoGame]]:
    found = []
    for holes in (6, 12):
        for seed, plies in ((0, 4), (1, 12), (2, 24)):
            rng = random.Random(seed)
            game = HoyitoGame(holes_per_row=holes)
            while game.ply < plies and not game.is_terminal:
                moves = game.legal_move_ids()
                game.play_id(int(moves[rng.randrange(len(moves))]))
            if not game.is_terminal:
                found.append((f"2x{holes} seed={seed} plies={plies}", game))
    return found


def render() -> str:
    lines = []
    for index, position in enumerate(benchmark_positions()):
        for depth, features, seed in BENCHMARK_SEARCHES:
            lines.append(hive_search_line(f"benchmark[{index}]", position, depth, features, seed))
        if index % 4 == 0:
            lines.append(hive_scores_line(f"benchmark[{index}]", position, 3, 64))
            lines.append(hive_scores_line(f"benchmark[{index}]", position, 2, None))
    for index, position in enumerate(random_hive_positions()):
        lines.append(hive_search_line(f"random[{index}]", position, 3, ALL_FEATURES, index))
    for depth in (4, 5):
        lines.append(hive_search_line("win_in_2", WIN_IN_2, depth, ALL_FEATURES, 0))
    for depth in (1, 2, 3):
        lines.append(hive_search_line("locked", LOCKED, depth, ALL_FEATURES, 0))
    for label, game in random_hoyito_games():
        for depth, seed in ((6, 0), (9, 3)):
            r = HoyitoAlphaBeta(depth=depth, seed=seed).search(game)
            pv = " ".join(str(m) for m in r.pv)
            lines.append(
                f"hoyito {label} depth={depth} seed={seed}: move={r.move_id} score={r.score} "
                f"depth_reached={r.depth_reached} nodes={r.nodes} pv={pv}"
            )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    PATH.write_text(render())
    print(f"wrote {PATH} ({len(PATH.read_text().splitlines())} searches)")
