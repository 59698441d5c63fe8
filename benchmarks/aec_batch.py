"""`AecLoopHiveBatch`: 64 (any N) Hive AEC envs stepped one by one in Python, behind the batch API.

This is the "before" of the throughput work: what batched rollouts cost when each game is a
PettingZoo AEC env (`hive_v0.env()`, wrappers included) stepped in a Python loop. It is the
package's adapter (`hive_envs.core.aec_batch.AecBatch` over ``pettingzoo:hive_envs/hive-v0``),
which is lock-step equal to `HiveBatch` (tests/core/test_aec_batch.py), plus what the Hive-only
networks read from a Hive batch (``game_name`` "hive" and the parsed `HiveOptions`), so that the
suite's PPO rows train the same network on both paths: training plays it as the game `AEC_LOOP_HIVE`
(Hive's definition with this batch, once added with `hive_envs.games.add_game`). Its ``game(row)`` is
a copy of the env's own `HiveGame` and ``move_to_action`` the env's, as `HiveBatch` has them, so the
config's alpha-beta teacher and pool players search there too (an `AecGame` has no searcher).
"""

from __future__ import annotations

import dataclasses

from hive_envs.core.aec_batch import AecBatch
from hive_envs.core.definition import AgentKit
from hive_envs.hive.definition import HIVE
from hive_envs.hive.engine.game import HiveGame
from hive_envs.hive.engine.options import HiveOptions


class AecLoopHiveBatch(AecBatch):
    game_name = "hive"  # as HiveBatch: the hive_lookahead network reads the game and its options

    def __init__(self, num_games: int, **options):
        options.pop("parallel", None)  # a HiveBatch setting; the AEC envs have none
        super().__init__(num_games, "pettingzoo:hive_envs/hive-v0", options)
        self.options = HiveOptions(**options)  # the validated options, as HiveBatch exposes them

    def game(self, row) -> HiveGame:
        """A copy of game ``row``'s `HiveGame` (the env's own), so Hive's searchers play on it."""
        return self.envs[self._row(row)].unwrapped.game.copy()

    def move_to_action(self, row, move_id) -> int:
        """The env's action of the legal engine move ``move_id`` (ValueError otherwise)."""
        return self.envs[self._row(row)].unwrapped.move_to_action(move_id)


AEC_LOOP_HIVE = dataclasses.replace(
    HIVE,
    name="hive_aec_loop",
    envs=dataclasses.replace(HIVE.envs, batch=AecLoopHiveBatch, aec_id=None, gym_envs={}),
    agents=AgentKit(),
)
"""Hive with the AEC-loop batch: the game the PPO benchmark's "before" row trains on (its lookahead
network reads Hive's rules from the batch's ``game_name``)."""
