"""HiveBatch: agreement with the AEC env, the contract's buffers, bad input, options, greedy player."""

from __future__ import annotations

import numpy as np
import pytest

from hive_envs.hive import HiveBatch, HiveGame
from hive_envs.hive.engine.moves import move_piece, pack_move
from hive_envs.hive.engine.state import PCELL
from hive_envs.hive.env import raw_env
from tests.hive.batch.lockstep import play_lockstep

# ------------------------------------------------------------------ agreement with the AEC env


def test_base_batch_agrees_with_aec_env_over_random_games():
    assert play_lockstep(8, 240, seed=0, max_turns=40) >= 40


def test_mlp_threaded_batch_agrees_with_aec_env():
    assert play_lockstep(8, 160, seed=1, parallel=True, expansions="MLP", max_turns=40) >= 24


def test_piece_observation_batches_agree_with_aec_env():
    assert play_lockstep(8, 200, seed=3, max_turns=40, observation="pieces") >= 30
    assert (
        play_lockstep(8, 120, seed=4, parallel=True, expansions="MLP", max_turns=40, observation="pieces")
        >= 16
    )


def test_the_piece_observation_is_written_in_place_as_int16_rows():
    b = HiveBatch(3, expansions="ML", observation="pieces")
    n = 13
    assert b.observation.shape == b.final_observation.shape == (3, 2 * n + 1, 17)
    assert b.observation.dtype == np.int16 and b.observation_shape == b.encoding.observation_shape
    view = b.observation
    b.step(b.action_mask.argmax(axis=1))
    assert view is b.observation and (view[:, -1, 6] == 1).all(), "the ply counter of the global row"


def test_free_opening_and_no_turn_cap_agree_with_aec_env():
    play_lockstep(4, 120, seed=2, expansions="P", tournament_opening=False, max_turns=None)


@pytest.mark.slow
@pytest.mark.parametrize("expansions", ["", "M", "L", "P", "ML", "MP", "LP", "MLP"])
def test_batch_agrees_with_aec_env_over_thousands_of_games(expansions):
    assert play_lockstep(64, 1000, seed=10, expansions=expansions, max_turns=60, parallel=True) >= 1000


@pytest.mark.slow
@pytest.mark.parametrize("expansions", ["", "MLP"])
def test_batch_agrees_with_aec_env_over_full_length_games(expansions):
    assert play_lockstep(64, 1200, seed=11, expansions=expansions) >= 200


# ------------------------------------------------------------------ repetition draw


def _repeating_cycle():
    """Opening moves, then a 4-ply Queen shuffle (both Queens out and back) restoring the position."""
    start = ["wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1-"]
    game = HiveGame("Base", max_turns=None)
    for move in start:
        game.play(move)
    white_queen, black_queen = 0, 14  # piece ids
    back = [
        pack_move(white_queen, int(game.state[PCELL + white_queen])),
        pack_move(black_queen, int(game.state[PCELL + black_queen])),
    ]
    for w_out in (int(m) for m in game.legal_move_ids() if move_piece(m) == white_queen):
        game.play_id(w_out)
        for b_out in (int(m) for m in game.legal_move_ids() if move_piece(m) == black_queen):
            game.play_id(b_out)
            if game.is_legal_id(back[0]):
                game.play_id(back[0])
                if game.is_legal_id(back[1]):
                    return start, [w_out, b_out, *back]
                game.undo()
            game.undo()
        game.undo()
    raise AssertionError("no Queen shuffle found")


def test_third_repetition_is_a_draw_in_batch_as_in_aec_env():
    start, cycle = _repeating_cycle()
    env = raw_env(max_turns=None, repetition_draw=True)
    env.reset()
    batch = HiveBatch(2, max_turns=None, repetition_draw=True)
    ended_at = None
    for ply in range(len(start) + 3 * len(cycle)):
        if ply < len(start):
            action = env.uhp_to_action(start[ply])
        else:
            move_id = cycle[(ply - len(start)) % len(cycle)]
            action = env.uhp_to_action(env.game.move_name(move_id))
        env.step(action)
        batch.step(np.array([action, action]))
        over = all(env.terminations.values())
        assert batch.terminated.tolist() == [over, over]
        if over:
            ended_at = ply + 1
            break
    assert ended_at == len(start) + 2 * len(cycle)  # the start position's third occurrence
    assert env.game.outcome == "Draw"
    assert batch.rewards.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert batch.episode_length.tolist() == [ended_at, ended_at]
    assert batch.states[0, 2104] == 0  # restarted


# ------------------------------------------------------------------ contract


def test_buffers_have_the_contract_shapes_and_dtypes():
    b = HiveBatch(3, expansions="ML")
    assert b.num_games == 3 and b.num_actions == raw_env(expansions="ML").num_actions
    assert b.observation.shape == (3, *b.observation_shape) and b.observation.dtype == b.observation_dtype
    assert b.action_mask.shape == (3, b.num_actions) and b.action_mask.dtype == np.int8
    assert b.to_move.dtype == np.int8 and b.rewards.shape == (3, 2) and b.rewards.dtype == np.float32
    assert b.terminated.dtype == bool and b.episode_length.dtype == np.int32
    assert b.final_observation.shape == b.observation.shape
    assert b.action_mask.sum(axis=1).min() > 0


def test_a_batch_of_1024_base_games_fits_in_well_under_a_gibibyte():
    b = HiveBatch(1024)
    assert b.nbytes < 2**30 // 8


def test_reset_with_a_seed_is_reproducible():
    a, b = HiveBatch(2), HiveBatch(2)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.np_random.random() == b.np_random.random()


def test_inactive_games_keep_their_buffers_and_final_view_chooses_the_viewer():
    b = HiveBatch(2, max_turns=2)
    before = b.observation[1].copy()
    b.step(np.array([b.action_mask[0].argmax(), 0]), active=np.array([True, False]))
    assert np.array_equal(b.observation[1], before) and b.states[1, 2104] == 0
    b.step(
        np.array([b.action_mask[0].argmax(), 0]), active=np.array([True, False]), final_view=np.array([1, 0])
    )
    assert b.terminated.tolist() == [True, False] and b.episode_length[0] == 2
    env = raw_env(max_turns=2)
    env.reset()
    for _ in range(2):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    np.testing.assert_array_equal(b.final_observation[0], env.observe("player_1")["observation"])


# ------------------------------------------------------------------ bad input


def _snapshot(b):
    return [x.copy() for x in (b.states, b.observation, b.action_mask, b.to_move, b.rewards, b.terminated)]


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (np.zeros(3, np.int64), r"shape \(4,\)"),
        (np.zeros((4, 1), np.int64), r"shape \(4,\)"),
        (np.zeros(4, np.float32), "integer array"),
    ],
)
def test_wrong_action_array_raises_and_changes_nothing(actions, message):
    b = HiveBatch(4)
    before = _snapshot(b)
    with pytest.raises(ValueError, match=message):
        b.step(actions)
    assert all(np.array_equal(x, y) for x, y in zip(before, _snapshot(b)))


@pytest.mark.parametrize("bad", [-1, 10**6])
def test_out_of_range_action_names_the_game_and_changes_nothing(bad):
    b = HiveBatch(4)
    actions = b.action_mask.argmax(axis=1)
    actions[2] = bad
    before = _snapshot(b)
    with pytest.raises(ValueError, match=rf"game 2: action {bad} is out of range"):
        b.step(actions)
    assert all(np.array_equal(x, y) for x, y in zip(before, _snapshot(b)))


def test_illegal_action_names_the_game_and_changes_nothing():
    b = HiveBatch(4)
    actions = b.action_mask.argmax(axis=1)
    actions[3] = int(np.flatnonzero(b.action_mask[3] == 0)[0])
    before = _snapshot(b)
    with pytest.raises(ValueError, match=rf"game 3: action {actions[3]} is illegal"):
        b.step(actions)
    assert all(np.array_equal(x, y) for x, y in zip(before, _snapshot(b)))


def test_parallel_must_be_true_or_false():
    # the game's options are refused on every surface in tests/core/test_bad_options.py
    with pytest.raises(ValueError, match="parallel"):
        HiveBatch(2, parallel="yes")


@pytest.mark.parametrize("n", [0, -3, 2.0, True])
def test_bad_num_games_raises(n):
    with pytest.raises(ValueError, match="num_games"):
        HiveBatch(n)


# ------------------------------------------------------------------ greedy player


def test_greedy_actions_pick_a_best_move_by_the_players_greedy_scores():
    b = HiveBatch(6, expansions="P")
    rng = np.random.default_rng(0)
    envs = [raw_env(expansions="P") for _ in range(6)]
    for env in envs:
        env.reset()
    for _ in range(30):
        actions = b.greedy_actions(np.arange(6), rng)
        for g, env in enumerate(envs):
            values = env.action_values()  # game.greedy_move_scores per action, -inf where illegal
            assert values[actions[g]] == values.max()
            env.step(int(actions[g]))
            if all(env.terminations.values()):
                env.reset()
        b.step(actions)


def test_potentials_are_each_seats_queen_margin():
    b = HiveBatch(4)
    envs = [raw_env() for _ in range(4)]
    for env in envs:
        env.reset()
    rng = np.random.default_rng(1)
    for _ in range(80):
        phi = b.potentials()
        for g, env in enumerate(envs):
            white, black = env.game.queen_neighbours(0), env.game.queen_neighbours(1)
            np.testing.assert_allclose(phi[g], [(black - white) / 6, (white - black) / 6], atol=1e-6)
        actions = b.greedy_actions(np.arange(4), rng)
        for g, env in enumerate(envs):
            env.step(int(actions[g]))
            if all(env.terminations.values()):
                env.reset()
        b.step(actions)


def test_buffers_go_to_torch_without_a_copy():
    torch = pytest.importorskip("torch")
    b = HiveBatch(2)
    obs, mask = torch.from_numpy(b.observation), torch.from_numpy(b.action_mask)
    b.step(b.action_mask.argmax(axis=1))  # in place: the tensors see the new position
    assert obs.data_ptr() == b.observation.ctypes.data and mask.data_ptr() == b.action_mask.ctypes.data
    assert torch.equal(obs, torch.from_numpy(b.observation.copy()))
