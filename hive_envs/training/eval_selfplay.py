"""Self-play data for a learned evaluation: games of a game's alpha-beta searcher against itself, every
searched position recorded with its features, the search's score and the game's result.

    plays = PlayTask("hive", {}, network_arrays, depth=3, seeds=[1, 2], opening_plies=(2, 8))
    data = play_games(plays)          # one process; `self_play` shares the games out among workers

Each game starts from a few uniformly random plies (a number drawn from ``opening_plies``; a
depth-limited search is deterministic, so the openings make the games differ), then the searcher
(`definition.searcher`, with ``network`` as its learned evaluation or its hand evaluation when None)
plays both sides to the end by the game's rules (Hive's turn cap included). Every position it searched
is recorded: its features (the searcher's ``fill_features``, what the learned evaluation reads), the
root score of the search (side to move's view, the search's units), and, once the game is over, its
result from the side to move's view. Positions of the random opening are not recorded.

The arrays (`GameData`): ``indices`` int16[N, 2, A] (the active sparse features of both perspectives,
padded with F), ``dense`` float32[N, D], ``score`` int32[N], ``result`` int8[N] (+1 won, 0 drawn, -1
lost), ``game`` int32[N] (the game's number in the task list, for splitting by game) and ``ply``
int16[N].
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from hive_envs.core.learned_eval import NO_NETWORK, learned_network, new_scratch
from hive_envs.games import game_entry
from hive_envs.players import RandomPlayer

FIELDS = ("indices", "dense", "score", "result", "game", "ply")


@dataclass(frozen=True)
class PlayTask:
    """Games for one worker: one per seed (module docstring)."""

    game: str
    game_options: dict
    network: dict | None
    """The learned evaluation's arrays (`hive_envs.core.learned_eval.ARRAY_NAMES`); None: the hand one."""
    depth: int
    seeds: list[int]
    opening_plies: tuple[int, int]
    first_game: int = 0
    """The number of the task's first game (``GameData.game``)."""


def searcher_class(game: str):
    """The game's alpha-beta searcher class, which must have a learned evaluation (ValueError if not)."""
    cls = game_entry(game).searcher_class()
    if cls is None or getattr(cls, "learned_features", None) is None:
        raise ValueError(f"{game} has no alpha-beta search with a learned evaluation")
    return cls


def empty_data(features) -> dict[str, np.ndarray]:
    return {
        "indices": np.zeros((0, 2, features.max_active), dtype=np.int16),
        "dense": np.zeros((0, features.num_dense), dtype=np.float32),
        "score": np.zeros(0, dtype=np.int32),
        "result": np.zeros(0, dtype=np.int8),
        "game": np.zeros(0, dtype=np.int32),
        "ply": np.zeros(0, dtype=np.int16),
    }


def play_games(task: PlayTask) -> dict[str, np.ndarray]:
    """The task's games, played one after the other (module docstring)."""
    definition = game_entry(task.game)
    cls = searcher_class(task.game)
    features = cls.learned_features
    options = definition.parse_options(dict(task.game_options))
    network = (
        None
        if task.network is None
        else learned_network(task.network, features.num_features, features.num_dense)
    )
    scratch = new_scratch(NO_NETWORK, features.max_active, features.num_dense)
    rows: dict[str, list] = {name: [] for name in FIELDS}
    for number, seed in enumerate(task.seeds):
        rng = np.random.default_rng(seed)
        searcher = cls(depth=task.depth, seed=int(rng.integers(1 << 30)), network=network)
        game = definition.new_game(options)
        opening = RandomPlayer(int(rng.integers(1 << 30)))
        for _ in range(int(rng.integers(task.opening_plies[0], task.opening_plies[1] + 1))):
            if game.is_terminal:
                break
            game.play_id(opening.choose(game))
        movers, first = [], len(rows["score"])
        while not game.is_terminal:
            searcher.fill_features(game, scratch)
            padded = np.full((2, features.max_active), features.num_features, dtype=np.int16)
            for p in range(2):
                padded[p, : scratch.counts[p]] = scratch.indices[p, : scratch.counts[p]]
            result = searcher.search(game)
            rows["indices"].append(padded)
            rows["dense"].append(scratch.dense.copy())
            rows["score"].append(result.score)
            rows["ply"].append(game.ply)
            movers.append(game.to_move)
            game.play_id(result.move_id)
        final = float(game.result or 0.0)  # seat 0's view
        for mover in movers:
            rows["result"].append(int(np.sign(final if mover == 0 else -final)))
        rows["game"] += [task.first_game + number] * (len(rows["score"]) - first)
    if not rows["score"]:
        return empty_data(features)
    return {
        "indices": np.stack(rows["indices"]),
        "dense": np.stack(rows["dense"]).astype(np.float32),
        "score": np.array(rows["score"], dtype=np.int32),
        "result": np.array(rows["result"], dtype=np.int8),
        "game": np.array(rows["game"], dtype=np.int32),
        "ply": np.array(rows["ply"], dtype=np.int16),
    }


def concatenate(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {name: np.concatenate([part[name] for part in parts]) for name in FIELDS}


def self_play(
    pool: ProcessPoolExecutor | None,
    game: str,
    game_options: dict,
    network: dict | None,
    depth: int,
    seeds: list[int],
    opening_plies: tuple[int, int],
    on_games=None,
) -> dict[str, np.ndarray]:
    """The games of ``seeds`` (one each), in ``pool``'s processes two games a task (None: here), as one
    `GameData`; ``on_games(n)`` is called as each task's ``n`` games end (a progress bar)."""
    tasks = [
        PlayTask(game, game_options, network, depth, seeds[i : i + 2], opening_plies, first_game=i)
        for i in range(0, len(seeds), 2)
    ]
    parts = []
    if pool is None:
        for task in tasks:
            parts.append(play_games(task))
            if on_games is not None:
                on_games(len(task.seeds))
    else:
        futures = {pool.submit(play_games, task): task for task in tasks}
        for future, task in futures.items():  # in order: the data does not depend on the workers
            parts.append(future.result())
            if on_games is not None:
                on_games(len(task.seeds))
    return concatenate(parts)
