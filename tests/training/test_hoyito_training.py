"""Training on Hoyito II: the lookahead features agree with the engine, and a tiny run of each
network writes a checkpoint that plays legal moves only."""

import numpy as np
import pytest

from hive_envs.agents.hoyito_features import FEATURES, SCALE, lookahead_features
from hive_envs.hoyito import HoyitoBatch, HoyitoGame
from tests.training.test_train_smoke import play_legal_moves_only, tiny_config
from training import ppo_selfplay


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
            taken = after.play(mover * n + k)
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
