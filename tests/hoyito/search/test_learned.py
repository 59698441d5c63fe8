"""Hoyito II's learned evaluation inside its search (`hive_envs.hoyito.search.eval_features`): the
features, and the search that reads a network."""

from functools import partial

import numpy as np
import pytest

from hive_envs.core.learned_eval import NO_NETWORK, SCORE_PER_LOGIT, new_scratch, random_network
from hive_envs.hoyito.search.alphabeta import COUNTER, THREAT, HoyitoAlphaBeta, evaluate
from hive_envs.hoyito.search.eval_features import (
    BUCKETS,
    MAX_ACTIVE,
    NUM_DENSE,
    NUM_FEATURES,
)
from tests.hoyito.search.test_alphabeta import position, unfinished_positions
from tests.search_tree import tree

WIDTH = 8


def features_of(game):
    scratch = new_scratch(NO_NETWORK, MAX_ACTIVE, NUM_DENSE)
    HoyitoAlphaBeta(depth=1).fill_features(game, scratch)
    return scratch


network = partial(
    random_network, sizes=(NUM_FEATURES, NUM_DENSE, WIDTH, WIDTH), spread=(0.3, 0.2, 0.3, 0.2, 1.0, 0.1, 0.05)
)


def hand_network():
    """Skip weights = the hand evaluation / 100, nothing else: its score is the hand score."""
    return network(1, skip=np.array([COUNTER, THREAT, 0, 0, 0, 0]) / SCORE_PER_LOGIT, output_scale=0.0)


def test_each_hole_is_one_feature_counted_from_each_players_first_hole():
    game = position([1, 0, 3, 17, 0, 2, 4, 4, 0, 1, 5, 2], [3, 6], to_move=1)
    scratch = features_of(game)
    board = [1, 0, 3, 17, 0, 2, 4, 4, 0, 1, 5, 2]
    north_first = board[6:] + board[:6]  # the mover (North) first
    for p, holes in enumerate((north_first, board)):
        assert scratch.counts[p] == 12
        assert scratch.indices[p, :12].tolist() == [
            j * BUCKETS + min(c, BUCKETS - 1) for j, c in enumerate(holes)
        ]
    np.testing.assert_array_equal(
        scratch.dense[[0, 2, 3, 4, 5]], [6 - 3, 6, 3, sum(board[6:]), sum(board[:6])]
    )


def test_the_dense_terms_give_the_hand_evaluation_through_its_weights():
    for game in unfinished_positions():
        o = game.options
        scratch = features_of(game)
        state = game.state.copy()
        hand = evaluate(
            state, o.holes_per_row, o.max_laps, o.no_capture_limit, state.copy(), np.zeros((0, 16), np.int32)
        )
        assert COUNTER * scratch.dense[0] + THREAT * scratch.dense[1] == hand


@pytest.mark.parametrize("depth", [4, 6])
def test_the_search_with_the_hand_network_is_the_hand_search_node_for_node(depth):
    for game in unfinished_positions(holes=(6, 12), seeds=range(3)):
        hand = HoyitoAlphaBeta(depth=depth).search(game)
        learned = HoyitoAlphaBeta(depth=depth, network=hand_network()).search(game)
        assert tree(learned) == tree(hand)


def test_another_network_changes_the_search():
    games = list(unfinished_positions(holes=(6,), seeds=range(2)))
    changed = sum(
        HoyitoAlphaBeta(depth=4, network=network(5)).search(g).score
        != HoyitoAlphaBeta(depth=4).search(g).score
        for g in games
    )
    assert changed > 0


def test_a_network_is_refused_with_board_values_or_on_a_board_over_twelve_holes_a_row():
    with pytest.raises(ValueError, match="not both"):
        HoyitoAlphaBeta(depth=2, board_values=np.zeros((12, 16), np.int32), network=hand_network())
    big = position([4] * 26, [0, 0], holes_per_row=13)
    with pytest.raises(ValueError, match="up to 12 holes a row; this game has 13"):
        HoyitoAlphaBeta(depth=2, network=hand_network()).search(big)
    with pytest.raises(ValueError, match="up to 12 holes a row"):
        features_of(big)
