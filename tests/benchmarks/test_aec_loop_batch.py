"""The PPO benchmark's "before" batch (`benchmarks.aec_batch.AecLoopHiveBatch`) plays a config's
alpha-beta players as `HiveBatch` does: its games are Hive games, and its actions are HiveBatch's."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.aec_batch import AecLoopHiveBatch
from hive_envs.hive import HiveBatch
from hive_envs.hive.engine.game import HiveGame
from hive_envs.players.base import batch_actions
from hive_envs.players.specs import PlayerContext, make_player

OPTIONS = {"expansions": "", "tournament_opening": True, "max_turns": 300}


def test_alphabeta_players_choose_the_same_actions_on_both_batches():
    loop, compiled = AecLoopHiveBatch(4, **OPTIONS), HiveBatch(4, **OPTIONS)
    loop.reset(seed=2)
    compiled.reset(seed=2)
    rng = np.random.default_rng(2)
    rows = np.arange(4)
    for _ in range(6):  # past the opening, so the searches have choices
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in compiled.action_mask])
        loop.step(actions)
        compiled.step(actions)
    game = loop.game(0)
    assert isinstance(game, HiveGame) and game.ply == 6
    np.testing.assert_array_equal(game.state, compiled.game(0).state)
    for spec in ("alphabeta:1", "alphabeta:2"):
        chosen = [
            batch_actions(make_player(spec, PlayerContext(game="hive", seed=7)), batch, rows)
            for batch in (loop, compiled)
        ]
        np.testing.assert_array_equal(*chosen)


def test_game_is_a_copy_and_an_illegal_move_is_refused():
    loop = AecLoopHiveBatch(1, **OPTIONS)
    loop.reset(seed=0)
    before = loop.observation.copy()
    game = loop.game(0)
    game.play_id(game.legal_move_ids()[0])
    np.testing.assert_array_equal(loop.observation, before)
    assert loop.game(0).ply == 0
    with pytest.raises(ValueError, match="not legal"):
        loop.move_to_action(0, 10**6)
