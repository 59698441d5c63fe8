"""Training on Hoyito II: the lookahead features agree with the engine (feature set 2 with the
alpha-beta searcher), the network's two forms agree, the rule it starts from plays the searcher's
moves, and a tiny run of each network writes a checkpoint that plays legal moves only."""

import numpy as np
import pytest
import torch

from hive_envs.agents.network_kinds import build_network
from hive_envs.core.alphabeta import MATE_BOUND
from hive_envs.hoyito import HoyitoAlphaBeta, HoyitoBatch, HoyitoGame
from hive_envs.hoyito.agent.features import (
    FEATURES,
    SCALE,
    SEARCH_CLIP,
    SEARCH_SCALE,
    HoyitoRuleFeatures,
    lookahead_features,
)
from hive_envs.hoyito.agent.network import RULE_VALUE_WEIGHT as HOYITO_RULE_VALUE_WEIGHT
from hive_envs.hoyito.search.alphabeta import BOARD_BUCKETS
from hive_envs.training import ppo_selfplay
from tests.training.test_train_smoke import play_legal_moves_only, tiny_config


def positions(holes_per_row, games=64, plies=40, seed=0):
    """A batch after `plies` random plies in every game (some games restarted on the way)."""
    batch = HoyitoBatch(games, holes_per_row=holes_per_row)
    batch.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        batch.step((rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1))
    return batch


@pytest.mark.parametrize("holes_per_row", [6, 12])
def test_lookahead_features_agree_with_the_engine(holes_per_row):
    batch = positions(holes_per_row)
    o = batch.options
    n, m = o.holes_per_row, 2 * o.holes_per_row
    out = np.zeros((batch.num_games, n, FEATURES), dtype=np.float32)
    lookahead_features(batch.observation, n, o.seeds_per_hole, o.max_laps, o.no_capture_limit, out)
    for g in range(batch.num_games):
        s = batch.states[g]
        mover = int(batch.to_move[g])
        game = HoyitoGame.from_position(
            s[:m].tolist(),
            (int(s[m]), int(s[m + 1])),
            mover,
            plies_without_capture=int(s[m + 3]),
            holes_per_row=n,
        )
        for k in range(n):
            legal = bool(batch.action_mask[g, k])
            assert out[g, k, 0] == float(legal)
            if not legal:
                assert not out[g, k].any()
                continue
            after = game.copy()
            taken = after.play_id(mover * n + k)
            assert out[g, k, 1] * SCALE == pytest.approx(taken)
            margin = after.captured[mover] - after.captured[1 - mover]
            assert out[g, k, 2] == pytest.approx(margin / o.total_counters, abs=1e-6)
            assert out[g, k, 3] == float(after.is_terminal)
            if after.is_terminal:
                continue
            best = max(max(after.capture_values()), 0)
            own, theirs = (best, 0) if after.to_move == mover else (0, best)
            assert out[g, k, 4] * SCALE == pytest.approx(own)
            assert out[g, k, 5] * SCALE == pytest.approx(theirs)


def game_of(batch, g):
    """Row ``g`` of a batch as a `HoyitoGame` (same position, same player to move)."""
    o, s = batch.options, batch.states[g]
    m = 2 * o.holes_per_row
    return HoyitoGame.from_position(
        s[:m].tolist(),
        (int(s[m]), int(s[m + 1])),
        int(batch.to_move[g]),
        plies_without_capture=int(s[m + 3]),
        holes_per_row=o.holes_per_row,
    )


def extractor(batch, depth, feature_set=2):
    o = batch.options
    return HoyitoRuleFeatures(
        o.holes_per_row, o.seeds_per_hole, o.max_laps, o.no_capture_limit, feature_set, depth
    )


@pytest.mark.parametrize("depth", [1, 3])
def test_search_features_are_the_searchers_value_after_each_move(depth):
    """Feature 6 (and 7) against `HoyitoAlphaBeta` searching the position after each move (a
    different code path: the player's own table, its game object, its score sign for the mover)."""
    batch = positions(6, games=48, plies=30, seed=3)
    out = extractor(batch, depth)(batch.observation)
    checked = 0
    for g in range(batch.num_games):
        game = game_of(batch, g)
        mover = game.to_move
        for k in range(6):
            if not batch.action_mask[g, k]:
                assert not out[g, k].any()
                continue
            after = game.copy()
            after.play_id(mover * 6 + k)
            if after.is_terminal:
                won = after.winner
                expected_proof = 0.0 if won is None or won < 0 else (1.0 if won == mover else -1.0)
                assert out[g, k, 7] == expected_proof
                continue
            if len(after.legal_move_ids()) == 1:
                continue  # played before the search (forced reply): checked by the argmax test below
            result = HoyitoAlphaBeta(depth=depth).search(after)
            score = result.score if after.to_move == mover else -result.score
            if abs(score) > MATE_BOUND:
                assert out[g, k, 7] == np.sign(score)
                assert out[g, k, 6] == np.sign(score) * SEARCH_CLIP
            else:
                assert out[g, k, 7] == 0.0
                assert out[g, k, 6] == pytest.approx(np.clip(score / SEARCH_SCALE, -SEARCH_CLIP, SEARCH_CLIP))
            checked += 1
    assert checked > 100


def test_search_features_on_threads_equal_one_thread():
    """Feature set 2's search split over three threads (slices of the rows, with board values) writes
    what one thread writes, bit for bit; a bad thread count is refused."""
    batch = positions(6, games=40, plies=30, seed=5)
    o = batch.options
    rules = (o.holes_per_row, o.seeds_per_hole, o.max_laps, o.no_capture_limit)
    one = HoyitoRuleFeatures(*rules, feature_set=2, search_depth=4, threads=1)
    three = HoyitoRuleFeatures(*rules, feature_set=2, search_depth=4, threads=3)
    values = np.random.default_rng(0).integers(-30, 30, (12, BOARD_BUCKETS), dtype=np.int32)
    for features in (one, three):
        features.board_values = values
    want = one(batch.observation)
    np.testing.assert_array_equal(three(batch.observation), want)
    assert len(one.pvs) == 1 and len(three.pvs) == 3
    np.testing.assert_array_equal(three(batch.observation[:1]), want[:1])  # fewer rows than threads
    assert np.abs(want[..., 6]).sum() > 0
    for threads in (0, 2.0, False):
        with pytest.raises(ValueError, match="threads must be"):
            HoyitoRuleFeatures(*rules, feature_set=2, threads=threads)


def test_the_rule_network_plays_a_best_move_of_the_deeper_search():
    """After `init_from_rule` the network's argmax is a move whose searched value is the best,
    and that value is the root value of `HoyitoAlphaBeta` one ply deeper (unproven positions)."""
    depth = 2
    batch = positions(6, games=64, plies=24, seed=5)
    o = batch.options
    rules = {
        "seeds_per_hole": o.seeds_per_hole,
        "max_laps": o.max_laps,
        "no_capture_limit": o.no_capture_limit,
    }
    spec = {
        "kind": "hoyito_lookahead",
        "hidden_sizes": [16],
        "rules": rules,
        "features": 2,
        "search_depth": depth,
    }
    network = build_network(spec, batch.observation.shape[1:], 6)
    network.init_from_rule()
    obs = torch.as_tensor(batch.observation)
    with torch.no_grad():
        features = network.rule_features(obs)
        logits, _ = network.legal_policy(obs, features)
        dense, _ = network(obs)
        rule = network.rule_value(features).numpy()  # the search's leaf value with rule_value_share
    torch.testing.assert_close(dense, logits)  # entry k is hole k in both forms
    searched = features[1][..., 6].numpy()
    compared = 0
    for g in range(batch.num_games):
        legal = batch.action_mask[g].astype(bool)
        choice = int(np.where(legal, logits[g].numpy(), -np.inf).argmax())
        best = searched[g][legal].max()
        assert searched[g, choice] == best or abs(best) == SEARCH_CLIP
        assert rule[g] == pytest.approx(HOYITO_RULE_VALUE_WEIGHT * best)
        result = HoyitoAlphaBeta(depth=depth + 1).search(game_of(batch, g))
        if abs(result.score) < MATE_BOUND and abs(best) < SEARCH_CLIP:
            compared += 1
            assert (
                rule[g] / HOYITO_RULE_VALUE_WEIGHT * SEARCH_SCALE == pytest.approx(result.score, abs=1e-3)
                or len(game_of(batch, g).legal_move_ids()) == 1
            )
    assert compared > 30


def test_feature_set_options_are_checked():
    batch = positions(6, games=2, plies=0)
    with pytest.raises(ValueError, match="feature_set"):
        extractor(batch, 3, feature_set=3)
    with pytest.raises(ValueError, match="search_depth"):
        extractor(batch, 0)
    rules = {"seeds_per_hole": 4, "max_laps": 1000, "no_capture_limit": 600}
    spec = {"kind": "hoyito_lookahead", "hidden_sizes": [8], "rules": rules}
    with pytest.raises(ValueError, match="feature set 2"):
        build_network(spec, (16,), 6).init_from_rule()


@pytest.mark.parametrize("network", ["mlp", "hoyito_lookahead"])
def test_tiny_hoyito_run_writes_a_checkpoint_that_plays_legal_moves(tmp_path, network):
    config = tiny_config(tmp_path, game="hoyito", game_options={"holes_per_row": 6}, network=network)
    summary = ppo_selfplay.train(config)
    assert summary["global_step"] == 384
    play_legal_moves_only(tmp_path / "tiny" / "checkpoints" / "latest.pt", "hoyito", {"holes_per_row": 6})


def test_a_checkpoint_path_is_an_opponent_of_the_gymnasium_env(tmp_path):
    import gymnasium as gym

    import hive_envs.agents  # noqa: F401  (registers '.pt' paths as opponents)

    ppo_selfplay.train(tiny_config(tmp_path, game="hoyito", game_options={}, final_eval_games=0))
    path = str(tmp_path / "tiny" / "checkpoints" / "latest.pt")
    env = gym.make("hive_envs/Hoyito-v0", opponent=path)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(300):
        legal = np.flatnonzero(env.unwrapped.action_masks())
        _, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            break
    assert terminated


def test_tiny_run_with_search_features_starts_from_the_rule(tmp_path):
    config = tiny_config(
        tmp_path, game="hoyito", game_options={"holes_per_row": 6}, network="hoyito_lookahead",
        network_options={"features": 2, "search_depth": 2}, init_from_rule=True,
        search_prior_temperature=2.0, search_rule_value_share=0.5,
    )  # fmt: skip
    ppo_selfplay.train(config)
    path = tmp_path / "tiny" / "checkpoints" / "latest.pt"
    play_legal_moves_only(path, "hoyito", {"holes_per_row": 6})
    from hive_envs.agents.checkpoint import load_checkpoint
    from hive_envs.players import make_player
    from hive_envs.players.checkpoint import AgentPlayer

    data = load_checkpoint(path)
    assert (data["network"]["features"], data["network"]["search_depth"]) == (2, 2)
    assert data["search"] == {"prior_temperature": 2.0, "rule_value_share": 0.5}
    player = make_player(f"{path}@4")  # PATH@N searches as the config said
    assert player.config.prior_temperature == 2.0 and player.evaluator.rule_value_share == 0.5
    plain = AgentPlayer.load(path, 4, prior_temperature=1.0, rule_value_share=0.0)  # given: they win
    assert plain.config.prior_temperature == 1.0 and plain.evaluator.rule_value_share == 0.0
