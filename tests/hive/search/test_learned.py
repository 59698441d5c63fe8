"""Hive's learned evaluation inside the search (`hive_envs.hive.search.learned`, `eval_features`,
`hive_envs.core.learned_eval`): its features, its compiled network, and the search that reads it."""

from functools import partial
from pathlib import Path

import numpy as np
import pytest

from hive_envs.core.learned_eval import (
    MAX_LEARNED_SCORE,
    NO_NETWORK,
    SCORE_PER_LOGIT,
    learned_network,
    logit_score,
    network_logit,
)
from hive_envs.core.learned_eval import random_network as random_learned_network
from hive_envs.hive import HiveAlphaBeta, HiveGame
from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS, NUM_PIECES
from hive_envs.hive.engine.state import I_KINDS, I_TO_MOVE, PCELL, PUNDER
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.search.eval_features import (
    COVERED,
    FAR,
    GROUND,
    NO_QUEEN,
    NUM_DENSE,
    NUM_FEATURES,
    ON_STACK,
    PIECE_FEATURES,
    hand_feature,
    piece_feature,
)
from hive_envs.hive.search.evaluation import (
    EVAL_BUFFER_SIZE,
    NUM_TERMS,
    SEARCH_WEIGHTS,
    guessed_evaluation_terms,
    quick_evaluate,
)
from hive_envs.hive.search.learned import learned_evaluate, learned_evaluation
from tests.hive.search.reference_positions import features_of, reference_states
from tests.search_tree import tree

WIDTH, HIDDEN = 8, 8


random_network = partial(
    random_learned_network,
    sizes=(NUM_FEATURES, NUM_DENSE, WIDTH, HIDDEN),
    spread=(0.2, 0.2, 0.3, 0.2, 1.0, 0.1, 0.01),
)


def hand_network():
    """A network whose logit is the hand evaluation / 100: its search score is the hand score."""
    return random_network(1, skip=SEARCH_WEIGHTS / SCORE_PER_LOGIT, output_scale=0.0)


# --- the features -------------------------------------------------------------------------------


def test_every_piece_in_play_and_every_kind_in_hand_is_one_feature_of_each_perspective():
    for state in reference_states(300):
        scratch = features_of(state)
        in_play = int((state[PCELL : PCELL + 2 * NUM_PIECE_SLOTS] >= 0).sum())
        kinds = int(state[I_KINDS]).bit_count()
        assert scratch.counts[0] == scratch.counts[1] == in_play + 2 * kinds
        for p in range(2):
            active = scratch.indices[p, : scratch.counts[p]]
            assert ((active >= 0) & (active < NUM_FEATURES)).all()
            assert (active < PIECE_FEATURES).sum() == in_play
            assert (active >= PIECE_FEATURES).sum() == 2 * kinds


def test_the_dense_terms_are_the_hand_evaluations_guessed_terms():
    workspace, buffer = new_workspace(), np.zeros(EVAL_BUFFER_SIZE, dtype=np.int32)
    for state in reference_states(200):
        terms = np.zeros(NUM_TERMS, dtype=np.int32)
        guessed_evaluation_terms(state.copy(), workspace, buffer, terms)
        np.testing.assert_array_equal(features_of(state).dense, terms.astype(np.float32))


def test_the_other_perspective_is_the_same_board_with_the_other_side_to_move():
    """Perspective 1 of a position is perspective 0 of the same board with the other side to move:
    the features name whose a piece is, not who moves."""
    for state in reference_states(200):
        flipped = state.copy()
        flipped[I_TO_MOVE] = 1 - state[I_TO_MOVE]
        a, b = features_of(state), features_of(flipped)
        for p in range(2):
            assert sorted(a.indices[p, : a.counts[p]]) == sorted(b.indices[1 - p, : b.counts[1 - p]])


def test_a_piece_feature_names_kind_owner_stack_mobility_and_both_queen_distances():
    """wQ; bS1 wQ-; wA1 -wQ; bQ bS1-: White's Ant is free at distance 1 from its Queen and 3 from
    Black's; Black's Spider, between the Queens, is pinned, at distance 1 from each."""
    game = HiveGame("Base", tournament_opening=False)
    for move in ("wQ", "bS1 wQ-", "wA1 -wQ", "bQ bS1-"):
        game.play(move)
    scratch = features_of(game.state)
    assert game.to_move == 0
    white_view = set(scratch.indices[0, : scratch.counts[0]].tolist())
    black_view = set(scratch.indices[1, : scratch.counts[1]].tolist())
    ant, spider = 4, 1
    assert piece_feature(ant, 1, GROUND, 1, 1, 3) in white_view
    assert piece_feature(ant, 0, GROUND, 1, 3, 1) in black_view
    assert piece_feature(spider, 0, GROUND, 0, 1, 1) in white_view
    assert piece_feature(spider, 1, GROUND, 0, 1, 1) in black_view
    assert hand_feature(ant, 1, 2) in white_view  # two white Ants left in hand
    assert hand_feature(spider, 0, 1) in white_view  # one black Spider left


def oracle_features(state: np.ndarray, perspective: int) -> list[int]:
    """The features of one perspective read off the board in Python: the slow check of the kernel."""
    from hive_envs.hive.engine.grid import cell_to_qr, hex_distance
    from hive_envs.hive.engine.pieces import KIND_COUNT, KIND_FIRST_SLOT, PIECE_KIND
    from hive_envs.hive.engine.state import TOP
    from hive_envs.hive.search.evaluation import PER_PIECE

    buffer = np.zeros(EVAL_BUFFER_SIZE, dtype=np.int32)
    guessed_evaluation_terms(state.copy(), new_workspace(), buffer, np.zeros(NUM_TERMS, dtype=np.int32))
    viewer = state[I_TO_MOVE] if perspective == 0 else 1 - state[I_TO_MOVE]

    def distance(cell: int, queen: int) -> int:
        if queen < 0:
            return NO_QUEEN
        (q1, r1), (q2, r2) = cell_to_qr(cell), cell_to_qr(queen)
        return min(hex_distance(q1 - q2, r1 - r2), FAR)

    own_queen, other_queen = (
        state[PCELL + viewer * NUM_PIECE_SLOTS],
        state[PCELL + (1 - viewer) * NUM_PIECE_SLOTS],
    )
    found = []
    for piece in range(NUM_PIECES):
        cell = state[PCELL + piece]
        if cell < 0:
            continue
        stack = COVERED if state[TOP + cell] != piece else ON_STACK if state[PUNDER + piece] >= 0 else GROUND
        own = int(piece // NUM_PIECE_SLOTS == viewer)
        mobile = int(buffer[PER_PIECE + piece] > 0)
        found.append(
            piece_feature(
                PIECE_KIND[piece], own, stack, mobile, distance(cell, own_queen), distance(cell, other_queen)
            )
        )
    for kind in range(8):
        if (state[I_KINDS] >> kind) & 1:
            for colour in range(2):
                first = colour * NUM_PIECE_SLOTS + KIND_FIRST_SLOT[kind]
                in_hand = int((state[PCELL + first : PCELL + first + KIND_COUNT[kind]] < 0).sum())
                found.append(hand_feature(kind, int(colour == viewer), in_hand))
    return sorted(found)


def test_the_features_are_those_an_independent_reading_of_the_board_gives():
    """Every reference position (stacks, covered pieces, Queens not yet in play, every game type)."""
    states = reference_states(400)
    assert any((s[PUNDER : PUNDER + NUM_PIECES] >= 0).any() for s in states)  # stacks are among them
    assert any(s[PCELL] < 0 and (s[PCELL : PCELL + NUM_PIECES] >= 0).any() for s in states)  # a Queen in hand
    for state in states:
        scratch = features_of(state)
        for p in range(2):
            assert sorted(scratch.indices[p, : scratch.counts[p]].tolist()) == oracle_features(state, p)


# --- the compiled network and the search ----------------------------------------------------------


def test_the_learned_score_is_the_logit_times_the_scale_rounded_and_clipped():
    network = random_network(3)
    workspace, buffer = new_workspace(), np.zeros(EVAL_BUFFER_SIZE, dtype=np.int32)
    evaluation = learned_evaluation(network)
    for state in reference_states(100):
        before = state.copy()
        score = learned_evaluate(state, workspace, buffer, network, evaluation.scratch)
        np.testing.assert_array_equal(state, before)
        logit = network_logit(network, evaluation.scratch)  # the features `learned_evaluate` left there
        assert score == int(
            np.clip(np.floor(logit * SCORE_PER_LOGIT + 0.5), -MAX_LEARNED_SCORE, MAX_LEARNED_SCORE)
        )
    assert (
        logit_score(np.float32(1e9)) == MAX_LEARNED_SCORE
        and logit_score(np.float32(-1e9)) == -MAX_LEARNED_SCORE
    )


def test_a_network_that_computes_the_hand_evaluation_scores_every_position_as_it_does():
    network = hand_network()
    workspace, buffer = new_workspace(), np.zeros(EVAL_BUFFER_SIZE, dtype=np.int32)
    scratch = learned_evaluation(network).scratch
    for state in reference_states(500):
        hand = quick_evaluate(state.copy(), workspace, buffer, SEARCH_WEIGHTS)
        assert learned_evaluate(state.copy(), workspace, buffer, network, scratch) == hand


@pytest.mark.parametrize("depth", [2, 3])
def test_the_search_with_that_network_is_the_hand_search_move_for_move_and_node_for_node(depth):
    """The leaf hook is the only difference: the same scores give the same tree."""
    network = hand_network()
    lines = Path(__file__).resolve().parents[3].joinpath("benchmarks", "data", "search_positions.txt")
    for text in lines.read_text().splitlines()[:8]:
        game = HiveGame.from_gamestring(text)
        hand = HiveAlphaBeta(depth=depth).search(game)
        learned = HiveAlphaBeta(depth=depth, network=network).search(game)
        assert tree(learned) == tree(hand)


def test_another_network_changes_the_search():
    game = HiveGame.from_gamestring(
        Path(__file__)
        .resolve()
        .parents[3]
        .joinpath("benchmarks", "data", "search_positions.txt")
        .read_text()
        .splitlines()[0]
    )
    hand = HiveAlphaBeta(depth=2).search(game)
    learned = HiveAlphaBeta(depth=2, network=random_network(5)).search(game)
    assert (learned.score, learned.nodes) != (hand.score, hand.nodes)


@pytest.mark.parametrize(
    "network, message",
    [
        ("weights", "must be a LearnedNetwork"),
        (NO_NETWORK, "feature_weights has shape"),
    ],
)
def test_the_searcher_refuses_what_is_not_a_network_of_hive_s_features(network, message):
    with pytest.raises(ValueError, match=message):
        HiveAlphaBeta(depth=2, network=network)
    with pytest.raises(ValueError, match="not both"):
        HiveAlphaBeta(depth=2, weights=SEARCH_WEIGHTS, network=hand_network())


def test_a_network_of_other_sizes_or_with_nan_weights_is_refused():
    arrays = hand_network()._asdict()
    with pytest.raises(ValueError, match="skip_weights has shape"):
        learned_network({**arrays, "skip_weights": np.zeros(NUM_DENSE + 1)}, NUM_FEATURES, NUM_DENSE)
    bad = arrays["hidden_bias"].copy()
    bad[0] = np.nan
    with pytest.raises(ValueError, match="hidden_bias holds NaN"):
        learned_network({**arrays, "hidden_bias": bad}, NUM_FEATURES, NUM_DENSE)
    with pytest.raises(ValueError, match="missing arrays"):
        learned_network({"feature_bias": arrays["feature_bias"]}, NUM_FEATURES, NUM_DENSE)
