"""The PettingZoo AEC env hoyito_v0: conformance, observation layout, turns, bad input, rendering."""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

import hive_envs  # noqa: F401  (registers the ids)
from hive_envs import hoyito_v0
from hive_envs.hoyito import HoyitoGame


@pytest.mark.parametrize("holes", [6, 12])
def test_pettingzoo_api_test_and_seed_test_pass(holes):
    api_test(hoyito_v0.env(holes_per_row=holes), num_cycles=300)
    api_test(hoyito_v0.raw_env(holes_per_row=holes), num_cycles=300)
    seed_test(lambda: hoyito_v0.env(holes_per_row=holes), num_cycles=300)


def test_registered_for_pettingzoo_make():
    env = pettingzoo.make("aec", "hive_envs/hoyito-v0", holes_per_row=12)
    env.reset()
    assert env.action_space("player_0").n == 12


def test_spaces_are_the_same_object_every_call():
    env = hoyito_v0.env()
    assert env.observation_space("player_0") is env.observation_space("player_0")
    assert env.action_space("player_1") is env.action_space("player_1")
    box = env.observation_space("player_0")["observation"]
    assert box.shape == (16,) and box.dtype == np.float32


def set_position(env, board, captured, to_move, stall=0):
    """Put a raw env at a position (through the engine's own from_position)."""
    g = HoyitoGame.from_position(board, captured, to_move, plies_without_capture=stall)
    env.reset()
    env.game.state[:] = g.state
    env._after_ply()
    env.agent_selection = env.agents[env._seat_to_move()]


def test_observation_is_from_the_observers_side_own_row_first():
    env = hoyito_v0.raw_env()
    board = [1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 2]  # 30 on the board
    set_position(env, board, (10, 8), 1, stall=300)
    north = env.observe("player_1")["observation"]
    south = env.observe("player_0")["observation"]
    assert north[:12].tolist() == [b / 4 for b in board[6:] + board[:6]]
    assert south[:12].tolist() == [b / 4 for b in board]
    np.testing.assert_array_equal(north[12:], np.float32([8 / 48, 10 / 48, 0.5, 1.0]))
    np.testing.assert_array_equal(south[12:], np.float32([10 / 48, 8 / 48, 0.5, 0.0]))


def test_masks_mover_legal_waiting_agent_zero():
    env = hoyito_v0.raw_env()
    set_position(env, [0, 2, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0], (20, 23), 0)
    assert env.observe("player_0")["action_mask"].tolist() == [0, 1, 0, 1, 0, 0]
    assert env.observe("player_1")["action_mask"].tolist() == [0] * 6


def test_after_a_capture_the_same_agent_acts_again():
    env = hoyito_v0.raw_env()
    set_position(env, [1, 3, 0, 0, 0, 2, 1, 1, 1, 1, 1, 1], (36, 0), 0)
    env.step(0)
    assert env.agent_selection == "player_0"


def test_agent_without_counters_is_skipped_even_after_an_extra_turn():
    env = hoyito_v0.raw_env()
    set_position(env, [1, 3, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], (38, 0), 0)
    env.step(0)
    assert env.agent_selection == "player_1"
    assert env.observe("player_1")["action_mask"].any()


def test_end_rewards_infos_and_all_ones_final_mask():
    env = hoyito_v0.raw_env()
    set_position(env, [1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2], (20, 20), 0)
    env.step(0)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert env.infos["player_1"] == {"score": (28, 20), "winner": "player_0"}
    for agent in env.agents:
        assert env.observe(agent)["action_mask"].tolist() == [1] * 6


def test_draw_is_a_termination_with_zero_rewards():
    env = hoyito_v0.raw_env()
    set_position(env, [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2], (22, 22), 0, stall=599)
    env.step(0)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert env.infos["player_0"]["winner"] is None


@pytest.mark.parametrize(
    "action, message",
    [
        (3, "action 3 is illegal"),
        (6, "action 6 is out of range"),
        (-1, "action -1 is out of range"),
        (1.5, "integer"),
        (None, "integer"),
    ],
)
def test_raw_env_raises_naming_the_action_and_leaves_state_unchanged(action, message):
    env = hoyito_v0.raw_env()
    set_position(env, [1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1], (37, 0), 0)
    before = env.game.state.copy()
    with pytest.raises(ValueError, match=message):
        env.step(action)
    if action == 3:
        with pytest.raises(ValueError, match="5 legal actions"):
            env.step(action)
    assert np.array_equal(env.game.state, before) and env.agent_selection == "player_0"


@pytest.mark.parametrize("action", [3, 6, 99, -1])
def test_wrapped_env_ends_the_game_with_minus_one_for_the_offender(action):
    env = hoyito_v0.env()
    env.reset()
    env.unwrapped.game.state[3] = 0  # make hole 3 empty (and thereby illegal) for South
    env.unwrapped.game.state[12] = 4
    env.unwrapped._after_ply()
    env.step(action)
    assert env._cumulative_rewards == {"player_0": -1.0, "player_1": 0.0}
    assert all(env.terminations.values())


def test_finished_game_follows_dead_step_rules():
    env = hoyito_v0.raw_env()
    set_position(env, [1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2], (20, 20), 0)
    env.step(0)
    with pytest.raises(ValueError):
        env.step(1)  # a dead agent may only step None
    env.step(None)
    env.step(None)
    assert env.agents == []


def test_invalid_options_raise_naming_the_option():
    with pytest.raises(ValueError, match="holes_per_row"):
        hoyito_v0.env(holes_per_row=1)
    with pytest.raises(ValueError, match="render_mode"):
        hoyito_v0.env(render_mode="video")


def test_render_modes(capsys):
    env = hoyito_v0.env(render_mode="ansi")
    env.reset()
    text = env.render()
    assert "South captured   0 |   4   4   4   4   4   4" in text and "to move: South" in text
    env = hoyito_v0.env(render_mode="rgb_array", holes_per_row=12)
    env.reset()
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.shape[1] > picture.shape[0] and picture.std() > 0
    env = hoyito_v0.env(render_mode="human")
    env.reset()
    assert "North captured" in capsys.readouterr().out


def test_random_games_never_ask_an_agent_without_a_legal_move():
    env = hoyito_v0.env()
    rng = np.random.default_rng(0)
    for episode in range(30):
        env.reset(seed=episode)
        for agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            assert obs["action_mask"].any()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_pettingzoo_render_test_passes_for_every_mode(capsys):
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: hoyito_v0.env(render_mode=render_mode))
