"""Frozen feature-set-2 rule features of related Hive positions, for `tests/training/test_hive_features.py`.

    python -m tests.data.make_rule_features_reference   # rewrite tests/data/rule_features_reference.npz

For each expansion set, seeded random games give a few positions; each position is followed by its
children after its best moves by the two-ply value (feature 13) and their children likewise (breadth
first), the way a search asks for a node and then for the nodes below it. The file holds those engine states and what `HiveRuleFeatures.from_states` gave
for them: the reference the kernel is checked against bit for bit when it is made faster (the first
version of the file was written by the kernel without the evaluation cache). Rewrite it only for a
change of the features' values that is meant, or when the engine lists moves in another order.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from hive_envs.hive.agent.features import HiveRuleFeatures
from hive_envs.hive.engine.game import HiveGame
from hive_envs.hive.engine.options import HiveOptions

PATH = Path(__file__).resolve().parent / "rule_features_reference.npz"
EXPANSION_SETS = ("", "MLP")
MAX_TURNS = 200


def related_positions(
    extractor: HiveRuleFeatures, options: HiveOptions, seed: int, roots=4, children=3, grandchildren=2
):
    """States (STATE_SIZE,) int32: each of ``roots`` random positions, then its ``children`` best
    children, then the ``grandchildren`` best children of each of those, all unfinished."""
    rng = random.Random(seed)
    states: list[np.ndarray] = []
    while len(states) < roots * (1 + children + children * grandchildren):
        game = HiveGame.from_options(options)
        for _ in range(rng.randint(6, 40)):
            moves = game.legal_move_ids()
            game.play_id(int(moves[rng.randrange(len(moves))]))
            if game.is_terminal:
                break
        if game.is_terminal:
            continue
        level, below = [game], []
        for width in (children, grandchildren):
            for parent in level:
                _, moves, _, features, _, count = extractor.from_states(parent.state[None])
                best = np.argsort(-features[0, : count[0], 13], kind="stable")[:width]
                for move in moves[0, best]:
                    child = parent.copy()
                    child.play_id(int(move))
                    if not child.is_terminal:
                        below.append(child)
            states.extend(g.state.copy() for g in level)
            level, below = below, []
        states.extend(g.state.copy() for g in level)
    return np.stack(states)


def reference() -> dict[str, np.ndarray]:
    arrays: dict[str, np.ndarray] = {}
    for expansions in EXPANSION_SETS:
        extractor = HiveRuleFeatures(expansions, tournament_opening=True, max_turns=MAX_TURNS, feature_set=2)
        options = HiveOptions(expansions, True, MAX_TURNS)
        states = related_positions(extractor, options, seed=len(expansions) + 1)
        _, moves, actions, features, position, counts = extractor.from_states(states)
        tag = expansions or "base"
        arrays[f"{tag}_states"] = states
        arrays[f"{tag}_moves"] = moves
        arrays[f"{tag}_actions"] = actions
        arrays[f"{tag}_features"] = features
        arrays[f"{tag}_position"] = position
        arrays[f"{tag}_counts"] = counts
    return arrays


if __name__ == "__main__":
    np.savez_compressed(PATH, **reference())
    print(f"wrote {PATH} ({PATH.stat().st_size} bytes)")
