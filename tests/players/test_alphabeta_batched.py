"""`AlphaBetaPlayer.act`: a batch's depth-limited searches on several threads choose the moves the
player chooses one position at a time, whatever the thread count; timed searches stay one at a time."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from hive_envs.games import GAMES
from hive_envs.players import AlphaBetaPlayer
from hive_envs.players.base import actions_by_choosing

needs_two_threads = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="numba has one thread here")


def played_batch(game: str, games: int, seed: int, plies: int = 9):
    """A batch of ``games`` games after ``plies`` seeded random plies each."""
    batch = GAMES[game].make_batch(games, {})
    batch.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        batch.step(np.array([rng.choice(np.flatnonzero(row)) for row in batch.action_mask]))
    return batch


@needs_two_threads
@pytest.mark.parametrize("game, spec", [("hive", "alphabeta:2"), ("hoyito", "alphabeta:4")])
def test_threaded_batch_searches_choose_the_one_at_a_time_moves(game, spec):
    batch = played_batch(game, 12, seed=3)
    rows = np.arange(12)
    threaded, alone = (AlphaBetaPlayer.from_spec(spec.split(":")[1]) for _ in range(2))
    numba.set_num_threads(2)
    try:
        chosen = threaded.act(batch, rows)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert len(threaded._lanes[game]) == 1  # a second searcher ran beside the first
    assert chosen.tolist() == actions_by_choosing(alone, batch, rows).tolist()


@needs_two_threads
def test_a_timed_player_searches_the_batch_one_row_at_a_time():
    batch = played_batch("hive", 4, seed=5)
    player = AlphaBetaPlayer.from_spec("T=0.01")
    actions = player.act(batch, np.arange(4))
    assert player._lanes.get("hive", []) == []  # no second searcher: the rows took turns
    assert all(batch.action_mask[row, action] for row, action in enumerate(actions))


def test_a_batch_refuses_rows_outside_it():
    batch = played_batch("hive", 2, seed=0)
    with pytest.raises(ValueError):
        AlphaBetaPlayer.from_spec("1").act(batch, np.array([0, 2]))


@needs_two_threads
def test_a_batch_of_another_variant_is_searched_with_the_hand_evaluation_under_other_hand():
    batch = GAMES["hive"].make_batch(6, {"expansions": "MLP"})
    batch.reset(seed=5)
    rows = np.arange(6)
    player = AlphaBetaPlayer.from_spec("1,eval=pretrained:hive_eval,other=hand", "hive")
    numba.set_num_threads(2)
    try:
        chosen = player.act(batch, rows)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert chosen.tolist() == actions_by_choosing(AlphaBetaPlayer(depth=1), batch, rows).tolist()
    assert "hive" not in player._lanes  # one row after another, on the hand searcher
