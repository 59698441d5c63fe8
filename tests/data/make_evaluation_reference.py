"""Frozen values of the alpha-beta's static evaluation, for `tests/hive/search/test_evaluation.py`.

    python -m tests.data.make_evaluation_reference   # rewrite tests/data/evaluation_reference.npz

The positions: every ply of seeded random games of each game type (expansions give Mosquitoes that
copy Ants, Pillbugs that throw them), and the benchmark's middle-game positions
(`benchmarks/data/search_positions.txt`) with all their children, the positions a search evaluates.
The file holds those engine states (as int16) and what `evaluation.evaluate` gave for them: the reference the
evaluation is checked against value for value when it is made faster. Rewrite it only for a change
of the evaluation that is meant.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from hive_envs.hive import GAME_TYPES, HiveGame
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.search.evaluation import EVAL_BUFFER_SIZE, RULE_WEIGHTS, evaluate

PATH = Path(__file__).resolve().parent / "evaluation_reference.npz"
SEARCH_POSITIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "search_positions.txt"
GAMES_PER_TYPE = 3
MAX_PLIES = 120


def random_game_states(game_type: str, seed: int) -> list[np.ndarray]:
    """The unfinished positions of a seeded random game, one per ply."""
    rng = random.Random(seed)
    game = HiveGame(game_type, max_turns=MAX_PLIES)
    states = []
    while not game.is_terminal:
        states.append(game.state.copy())
        moves = game.legal_move_ids()
        game.play_id(int(moves[rng.randrange(len(moves))]))
    return states


def search_states() -> list[np.ndarray]:
    """The benchmark positions and every unfinished child of each."""
    states = []
    for line in SEARCH_POSITIONS.read_text().splitlines():
        if not line.strip():
            continue
        game = HiveGame.from_gamestring(line.strip())
        states.append(game.state.copy())
        for move in game.legal_move_ids():
            child = game.copy()
            child.play_id(int(move))
            if not child.is_terminal:
                states.append(child.state.copy())
    return states


def reference() -> dict[str, np.ndarray]:
    states = search_states()
    for index, game_type in enumerate(GAME_TYPES):
        for game in range(GAMES_PER_TYPE):
            states.extend(random_game_states(game_type, seed=index * 100 + game))
    stacked = np.stack(states)
    workspace, buffer = new_workspace(), np.empty(EVAL_BUFFER_SIZE, dtype=np.int32)
    values = np.array([evaluate(state, workspace, buffer, RULE_WEIGHTS) for state in stacked], dtype=np.int64)
    assert np.abs(stacked).max() < 2**15, "the states are stored as int16"
    return {"states": stacked.astype(np.int16), "values": values}


if __name__ == "__main__":
    np.savez_compressed(PATH, **reference())
    print(f"wrote {PATH} ({PATH.stat().st_size} bytes)")
