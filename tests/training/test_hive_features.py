"""The Hive network's rule features (`hive_envs.hive.agent.features`) against a reference.

The reference plays every legal move and every reply on a `HiveGame` (the Python API, from the
game itself, not from a decoded observation) and names actions with the env's `uhp_to_action`;
the kernel under test decodes the observation and names actions with the encoder. Positions
come from random games, with the last plies before each decisive end over-sampled so that
winning moves and replies that win are exercised.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numba
import numpy as np
import pytest
import torch

from hive_envs.agents.network_kinds import build_network
from hive_envs.hive.agent.features import HiveRuleFeatures, _decode_states
from hive_envs.hive.agent.network import RULE_WEIGHTS as NETWORK_RULE_WEIGHTS
from hive_envs.hive.engine.game import HiveGame
from hive_envs.hive.engine.moves import move_piece
from hive_envs.hive.engine.rules import PASS_MOVE
from hive_envs.hive.engine.state import PCELL
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.env import raw_env
from hive_envs.hive.rule_features import (
    ACTION_FEATURES,
    EVAL_ACTION_FEATURES,
    EVAL_CLIP,
    EVAL_POSITION_FEATURES,
    EVAL_SCALE,
    MOBILITY_SCALE,
    OUTCOME_VALUE,
    POSITION_FEATURES,
    TWO_PLY_MARGIN,
    new_evaluation_cache,
)
from hive_envs.hive.search.alphabeta import HiveAlphaBeta
from hive_envs.hive.search.evaluation import EVAL_BUFFER_SIZE, RULE_WEIGHTS, evaluate
from tests.hive.env.positions import random_positions

MAX_TURNS = 200
REFERENCE = Path(__file__).resolve().parents[1] / "data" / "rule_features_reference.npz"


def _outcome_for(game, colour) -> int:
    return {"Draw": 0, "WhiteWins": 1 if colour == 0 else -1, "BlackWins": 1 if colour == 1 else -1}[
        game.outcome
    ]


def reference_features(expansions: str, gamestring: str) -> dict[int, np.ndarray]:
    """Action index -> feature vector, by playing the moves on the position's game."""
    env = raw_env(expansions=expansions, max_turns=MAX_TURNS)
    env.reset(options={"gamestring": gamestring})
    game = env.game.copy()
    me = game.to_move
    own_before, opp_before = game.queen_neighbours(me), game.queen_neighbours(1 - me)
    result = {}
    for move in game.legal_move_ids().tolist():
        action = env.uhp_to_action(game.move_name(move))
        f = np.zeros(ACTION_FEATURES, dtype=np.float32)
        f[0] = 1.0
        f[7] = float(move != PASS_MOVE and game.state[PCELL + move_piece(move)] < 0)
        game.play_id(move)
        own, opp = game.queen_neighbours(me), game.queen_neighbours(1 - me)
        f[1:4] = [(opp - own) / 6, (opp - opp_before) / 6, (own - own_before) / 6]
        if game.is_terminal:
            f[{1: 4, -1: 5, 0: 6}[_outcome_for(game, me)]] = 1.0
        else:
            replies = game.legal_move_ids().tolist()
            scores = []
            for reply in replies:
                game.play_id(reply)
                if game.is_terminal:
                    scores.append(6 * _outcome_for(game, me))
                else:
                    scores.append(game.queen_neighbours(1 - me) - game.queen_neighbours(me))
                game.undo()
            f[8] = min(scores) / 6
            f[9] = float(any(game_over_loss == -6 for game_over_loss in scores))
            f[10] = len(replies) / MOBILITY_SCALE
        game.undo()
        result[action] = f
    return result


def sampled_positions(expansions: str, seed: int):
    """(observation, gamestring): every 40th position of random games, plus the 3 plies before
    each decisive end."""
    recent: list = []
    for i, env in enumerate(random_positions(expansions, games=12, seed=seed, max_turns=MAX_TURNS)):
        if env.game.is_terminal:
            if env.game.outcome != "Draw":
                yield from recent[-3:]
            recent = []
            continue
        snapshot = (env.observe(env.agent_selection)["observation"].copy(), env.game.gamestring)
        recent.append(snapshot)
        if i % 40 == 0:
            yield snapshot


@pytest.mark.parametrize(("expansions", "seed"), [("", 6), ("MLP", 2)])
def test_features_equal_the_reference_on_random_positions(expansions, seed):
    extractor = HiveRuleFeatures(expansions, tournament_opening=True, max_turns=MAX_TURNS)
    seen = np.zeros(ACTION_FEATURES)
    positions = list(sampled_positions(expansions, seed))
    observations = np.stack([obs for obs, _ in positions])
    actions, features, _ = extractor(observations)
    for row, (_, gamestring) in enumerate(positions):
        expected = reference_features(expansions, gamestring)
        real = features[row, :, 0] > 0
        got = dict(zip(actions[row, real].tolist(), features[row, real]))
        assert got.keys() == expected.keys()
        for action, want in expected.items():
            np.testing.assert_allclose(got[action], want, atol=1e-6, err_msg=f"action {action}")
        assert (actions[row, ~real] == extractor.encoding.num_actions).all()
        assert (features[row, ~real] == 0).all()
        seen += np.abs(features[row, real]).sum(axis=0) > 0
    assert seen[4] > 0 and seen[9] > 0, "winning moves and winning replies were exercised"


def test_position_features_and_errors():
    extractor = HiveRuleFeatures("", tournament_opening=True, max_turns=300)
    env = next(iter(random_positions("", games=1, seed=3)))
    obs = env.observe(env.agent_selection)["observation"]
    actions, _, position = extractor(obs[None])
    assert actions.shape[1] == int(env._mask.sum()) and position.shape == (1, 5)
    assert position[0, 3] == position[0, 4] == 0.0, "no Queen in play on the first ply"
    empty_actions, _, _ = extractor(obs[None][:0])
    assert empty_actions.shape == (0, 1)
    with pytest.raises(ValueError, match="expected Hive observations"):
        extractor(np.zeros((1, 3, 24, 24), np.uint8))


def test_a_batch_wider_than_the_buffer_is_redone_with_room_for_it():
    observations = np.stack([obs for obs, _ in sampled_positions("", seed=6)][:20])
    wide = HiveRuleFeatures("", tournament_opening=True, max_turns=MAX_TURNS)
    narrow = HiveRuleFeatures("", tournament_opening=True, max_turns=MAX_TURNS)
    narrow.capacity = 3
    for got, want in zip(narrow(observations), wide(observations)):
        np.testing.assert_array_equal(got, want)
    assert narrow.capacity == wide(observations)[0].shape[1] > 3


def reference_evaluation_features(
    expansions: str, gamestring: str
) -> tuple[dict[int, np.ndarray], np.ndarray]:
    """Feature set 2's extra columns (action index -> columns 11-13) and position features 5-6, by
    plain minimax on the position's game: every move and every reply, no pruning, the alpha-beta
    evaluation of `HiveGame.state` at each leaf."""
    env = raw_env(expansions=expansions, max_turns=MAX_TURNS)
    env.reset(options={"gamestring": gamestring})
    game = env.game.copy()
    me, buffer, workspace = game.to_move, np.empty(EVAL_BUFFER_SIZE, np.int32), new_workspace()

    def evaluation() -> float:  # of the side to move
        return float(evaluate(game.state.copy(), workspace, buffer, RULE_WEIGHTS))

    def finished() -> float:
        return OUTCOME_VALUE * _outcome_for(game, me)

    one, two = {}, {}
    for move in game.legal_move_ids().tolist():
        action = env.uhp_to_action(game.move_name(move))
        game.play_id(move)
        if game.is_terminal:
            one[action] = two[action] = finished()
        else:
            one[action] = -evaluation()
            leaves = []
            for reply in game.legal_move_ids().tolist():
                game.play_id(reply)
                leaves.append(finished() if game.is_terminal else evaluation())
                game.undo()
            two[action] = min(leaves)
        game.undo()
    best = max(two.values())

    def scaled(value: float) -> float:
        return float(np.clip(value / EVAL_SCALE, -EVAL_CLIP, EVAL_CLIP))

    columns = {}
    for action, after_move in one.items():
        clipped = max(two[action], best - TWO_PLY_MARGIN)
        columns[action] = np.array(
            [scaled(after_move), (clipped - best) / TWO_PLY_MARGIN, scaled(clipped)], dtype=np.float32
        )
    return columns, np.array([scaled(best), scaled(evaluation())], dtype=np.float32)


@pytest.mark.parametrize(("expansions", "seed"), [("", 6), ("MLP", 2)])
def test_feature_set_2_extends_set_1_and_equals_plain_minimax(expansions, seed):
    """The kernel prunes the two-ply search (a move refuted by more than the margin stops early);
    the reference does not, so equal values show the pruning changes nothing after the clip."""
    positions = list(sampled_positions(expansions, seed))[:15]
    observations = np.stack([obs for obs, _ in positions])
    base = HiveRuleFeatures(expansions, tournament_opening=True, max_turns=MAX_TURNS)
    extended = HiveRuleFeatures(expansions, tournament_opening=True, max_turns=MAX_TURNS, feature_set=2)
    actions, features, position = extended(observations)
    assert features.shape[2] == EVAL_ACTION_FEATURES and position.shape[1] == EVAL_POSITION_FEATURES
    for got, want in zip(
        (actions, features[..., :ACTION_FEATURES], position[:, :POSITION_FEATURES]), base(observations)
    ):
        np.testing.assert_array_equal(got, want)
    refuted = 0
    for row, (_, gamestring) in enumerate(positions):
        columns, position_want = reference_evaluation_features(expansions, gamestring)
        real = features[row, :, 0] > 0
        got = dict(zip(actions[row, real].tolist(), features[row, real, ACTION_FEATURES:]))
        assert got.keys() == columns.keys()
        for action, want in columns.items():
            np.testing.assert_allclose(got[action], want, atol=1e-5, err_msg=f"action {action}")
        np.testing.assert_allclose(position[row, POSITION_FEATURES:], position_want, atol=1e-5)
        refuted += int((features[row, real, 12] == -1.0).sum())
    assert refuted > 0, "some moves were clipped at the margin (the pruned case was exercised)"


def test_an_unknown_feature_set_is_refused():
    with pytest.raises(ValueError, match="feature_set must be one of"):
        HiveRuleFeatures("", tournament_opening=True, max_turns=300, feature_set=3)


@pytest.mark.parametrize("tag, expansions", [("base", ""), ("MLP", "MLP")])
def test_the_cached_kernel_gives_the_reference_features_bit_for_bit(tag, expansions):
    """`tests/data/rule_features_reference.npz` holds what the kernel gave before its evaluation cache
    (`tests/data/make_rule_features_reference.py`: positions followed by their best children, as a
    search asks for them). `from_states` runs them through the cache, twice (the second time nearly
    every evaluation is a hit: only those whose slot a later position took are not), and the observation path runs them without one: all equal the file."""
    reference = np.load(REFERENCE)
    extractor = HiveRuleFeatures(expansions, tournament_opening=True, max_turns=MAX_TURNS, feature_set=2)
    want = [reference[f"{tag}_{name}"] for name in ("moves", "actions", "features", "position", "counts")]
    first = extractor.from_states(reference[f"{tag}_states"])
    assert extractor.evaluation_cache is not None
    lookups, hits, _ = extractor.evaluation_cache[-1]
    assert 0 < hits < lookups, "a child met some positions its parent evaluated"
    again = extractor.from_states(reference[f"{tag}_states"])
    assert extractor.evaluation_cache[-1, 0] - lookups == lookups, "the same evaluations are asked again"
    assert extractor.evaluation_cache[-1, 1] - hits > 0.9 * lookups
    for got in (first, again):
        for array, expected in zip(got[1:], want):
            np.testing.assert_array_equal(array, expected)
    for array, expected in zip(extractor(first[0]), want[1:4]):
        np.testing.assert_array_equal(array, expected)


def test_an_evaluation_cache_size_that_is_not_a_power_of_two_is_refused():
    assert new_evaluation_cache(0).shape == (1, 3)
    with pytest.raises(ValueError, match="power of two"):
        new_evaluation_cache(1000)


@pytest.mark.parametrize("tag, expansions", [("base", ""), ("MLP", "MLP")])
def test_the_two_ply_alpha_beta_gives_the_features_best_value_bit_for_bit(tag, expansions):
    """`best_value` (the search's value of a new leaf) is position feature 5 of the reference file,
    with an empty cache and with one the features already filled, and it evaluates fewer positions."""
    reference = np.load(REFERENCE)
    states, want = reference[f"{tag}_states"], reference[f"{tag}_position"][:, 5]
    alone = HiveRuleFeatures(expansions, tournament_opening=True, max_turns=MAX_TURNS, feature_set=2)
    got = np.array([alone.best_value(state) for state in states], dtype=np.float32)
    np.testing.assert_array_equal(got, want)
    assert alone.evaluation_cache is not None
    alpha_beta_lookups = alone.evaluation_cache[-1, 0]
    after_features = HiveRuleFeatures(expansions, tournament_opening=True, max_turns=MAX_TURNS, feature_set=2)
    after_features.from_states(states)
    assert after_features.evaluation_cache is not None
    feature_lookups = after_features.evaluation_cache[-1, 0]
    np.testing.assert_array_equal([after_features.best_value(state) for state in states], want)
    assert alpha_beta_lookups < 0.4 * feature_lookups  # measured: 0.24 (base), 0.19 (MLP)
    assert len(np.unique(want)) > 5, "the positions differ in value: the comparison says something"


@pytest.mark.parametrize("tag, expansions", [("base", ""), ("MLP", "MLP")])
def test_a_deeper_searched_value_is_the_alpha_beta_players_root_scores(tag, expansions):
    """With ``search_depth`` 3 the two-ply value's columns (12, 13; position 5) hold what a separate
    `HiveAlphaBeta` scores each move at depth 3 on a game made from the state, scaled as the two-ply
    value is; every other column is feature set 2's. `best_value` is the same best score, and the
    observation path equals `from_states` on the states the observations decode to."""
    reference = np.load(REFERENCE)
    states = reference[f"{tag}_states"][:12]
    plain = HiveRuleFeatures(expansions, tournament_opening=True, max_turns=MAX_TURNS, feature_set=2)
    deep = HiveRuleFeatures(expansions, True, MAX_TURNS, feature_set=2, search_depth=3)
    observations, moves, actions, features, position, counts = deep.from_states(states)
    two_ply = plain.from_states(states)
    np.testing.assert_array_equal(actions, two_ply[2])
    kept = [c for c in range(EVAL_ACTION_FEATURES) if c not in (12, 13)]
    np.testing.assert_array_equal(features[..., kept], two_ply[3][..., kept])
    np.testing.assert_array_equal(np.delete(position, 5, axis=1), np.delete(two_ply[4], 5, axis=1))
    searcher = HiveAlphaBeta(depth=3)
    changed = 0
    for row, state in enumerate(states):
        game = HiveGame.from_state(state)
        count = int(counts[row])
        scores, _ = searcher.move_scores(game, moves[row, :count], 3, int(TWO_PLY_MARGIN))
        best = scores.max()
        np.testing.assert_allclose(features[row, :count, 12], (scores - best) / TWO_PLY_MARGIN, atol=1e-6)
        np.testing.assert_allclose(
            features[row, :count, 13], np.clip(scores / EVAL_SCALE, -EVAL_CLIP, EVAL_CLIP)
        )
        np.testing.assert_allclose(position[row, 5], np.clip(best / EVAL_SCALE, -EVAL_CLIP, EVAL_CLIP))
        assert deep.best_value(state) == position[row, 5]
        changed += int(not np.array_equal(features[row, :count, 12], two_ply[3][row, :count, 12]))
    assert changed > 3, "the deeper search ranks the moves otherwise in several positions"
    decoded_path = deep(observations)
    decoded = np.empty_like(states)
    enc = deep.encoding
    _decode_states(
        observations, deep.template, enc.grid, enc.tiles_per_colour, enc.engine_slot, len(enc.kinds), decoded
    )
    for got, want in zip(decoded_path, deep.from_states(decoded)[2:5]):
        np.testing.assert_array_equal(got, want)


def test_the_deeper_search_on_threads_gives_one_threads_values(monkeypatch):
    """`from_states` with the deeper searched value spread over three threads writes, bit for bit, what
    one thread writes, and the rows did run on more than one thread; with ``threads`` None it runs on
    numba's thread count at the call (one after `play_on_one_thread`)."""
    states = np.load(REFERENCE)["base_states"][:12]
    one = HiveRuleFeatures("", True, MAX_TURNS, feature_set=2, search_depth=3, threads=1)
    three = HiveRuleFeatures("", True, MAX_TURNS, feature_set=2, search_depth=3, threads=3)
    threads_seen: dict[int, set[int]] = {}
    search = HiveAlphaBeta.move_scores

    def recorded(self, *args):
        threads_seen.setdefault(id(self), set()).add(threading.get_ident())
        return search(self, *args)

    monkeypatch.setattr(HiveAlphaBeta, "move_scores", recorded)
    want = one.from_states(states)
    assert len(one.searchers) == 1 and len(threads_seen) == 1
    threads_seen.clear()
    for got, expected in zip(three.from_states(states), want):
        np.testing.assert_array_equal(got, expected)
    assert len(three.searchers) == 3 and len(set.union(*threads_seen.values())) > 1
    default = HiveRuleFeatures("", True, MAX_TURNS, feature_set=2, search_depth=3)
    threads_before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        default.from_states(states[:4])
    finally:
        numba.set_num_threads(threads_before)
    assert len(default.searchers) == 1
    for threads in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="threads must be"):
            HiveRuleFeatures("", True, MAX_TURNS, feature_set=2, search_depth=3, threads=threads)


def test_a_deeper_searched_value_in_the_network_and_its_refusals():
    """The spec's ``search_depth`` reaches the extractor and the rule start (`init_from_rule`) reads
    its columns: the per-action part of each logit is the rule's weighted sum (the depth-3 value
    first), and its argmax is a move the depth-3 search scores within the margin of the best; bad
    depths are refused."""
    reference = np.load(REFERENCE)
    states = reference["base_states"][:8]
    rules = {"expansions": "", "tournament_opening": True, "max_turns": MAX_TURNS}
    shape = HiveRuleFeatures("", True, MAX_TURNS).encoding.observation_shape
    spec = {
        "kind": "hive_lookahead",
        "channels": 4,
        "blocks": 0,
        "rules": rules,
        "features": 2,
        "search_depth": 3,
    }
    network = build_network(spec, shape, HiveRuleFeatures("", True, MAX_TURNS).encoding.num_actions)
    assert network.extractor.search_depth == 3 and not network.keeps_time_limits
    network.init_from_rule()
    _, _, _, features, _, counts = network.extractor.from_states(states)
    with torch.no_grad():
        per_action = network.action_logit(network.action_embed(torch.as_tensor(features))).squeeze(-1)
    for row in range(len(states)):
        count = int(counts[row])
        rule = sum(weight * features[row, :count, f] for f, weight in NETWORK_RULE_WEIGHTS.items())
        np.testing.assert_allclose(per_action[row, :count].numpy(), rule, atol=1e-5)
        assert features[row, int(np.argmax(rule)), 12] > -1.0  # not a move refuted by the margin
    for depth, feature_set in ((1, 2), (14, 2), (3, 1), (True, 2), (3.0, 2)):
        with pytest.raises(ValueError, match="search_depth must be"):
            HiveRuleFeatures("", True, MAX_TURNS, feature_set=feature_set, search_depth=depth)
