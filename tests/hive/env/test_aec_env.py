"""The PettingZoo AEC env `hive_envs.hive_v0`: conformance, masks, rewards, bad input."""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

import hive_envs  # noqa: F401 (registers the ids)
from hive_envs import hive_v0

from .positions import EXPANSION_SETS

FORCED_PASS = (
    "Base;InProgress;White[9];wS1;bB1 wS1-;wQ -wS1;bQ bB1-;wQ /wS1;bQ bB1\\;wQ -wS1;bQ /bB1;wQ /wS1;"
    "bB1 wS1;wQ -bB1;bB2 bB1-;wQ /bB1;bB2 bB1;wQ -bB2;bB2 wQ"
)


@pytest.mark.parametrize("expansions", EXPANSION_SETS)
def test_pettingzoo_api_and_seed_tests_pass(expansions):
    api_test(hive_v0.env(expansions=expansions), num_cycles=60)
    seed_test(lambda: hive_v0.env(expansions=expansions), num_cycles=60)


@pytest.mark.parametrize("expansions", ["", "MLP"])
def test_pettingzoo_api_and_seed_tests_pass_with_the_piece_observation(expansions):
    api_test(hive_v0.env(expansions=expansions, observation="pieces"), num_cycles=60)
    seed_test(lambda: hive_v0.env(expansions=expansions, observation="pieces"), num_cycles=60)


def test_the_piece_observation_changes_only_the_observation():
    planes, pieces = hive_v0.raw_env(max_turns=40), hive_v0.raw_env(max_turns=40, observation="pieces")
    space = pieces.observation_space("player_0")["observation"]
    assert space.shape == (23, 17) and space.dtype == np.int16
    assert pieces.action_space("player_0") == planes.action_space("player_0")
    rng = np.random.default_rng(0)
    for env in (planes, pieces):
        env.reset(seed=0)
    while not planes.game.is_terminal:
        assert np.array_equal(planes._mask, pieces._mask)
        assert space.contains(pieces.observe(pieces.agent_selection)["observation"])
        legal = np.flatnonzero(planes._mask)
        action = int(legal[rng.integers(legal.size)])
        for env in (planes, pieces):
            env.step(action)
    assert pieces.game.is_terminal and pieces.rewards == planes.rewards


def test_registered_for_pettingzoo_make():
    env = pettingzoo.make("aec", "hive_envs/hive-v0", expansions="MLP")
    env.reset(seed=0)
    assert env.unwrapped.game.game_type == "Base+MLP"
    assert env.action_space("player_0").n == 2 * 14 * 30 * 30 + 1


def test_player_0_is_white_and_spaces_are_stable():
    env = hive_v0.raw_env()
    env.reset(seed=0)
    assert env.agent_selection == "player_0" and env.game.to_move == 0
    assert env.observation_space("player_0") is env.observation_space("player_0")
    assert env.observation_space("player_0")["observation"].shape == (42, 24, 24)
    assert env.observe("player_1")["action_mask"].sum() == 0, "the waiting agent's mask is all zeros"


def _play_out(env, rng):
    while not env.game.is_terminal:
        obs = env.observe(env.agent_selection)
        assert obs["action_mask"].any(), "the agent to move never gets an all-zero mask"
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))


def test_final_mask_is_all_ones_and_rewards_are_zero_sum():
    rng = np.random.default_rng(0)
    env = hive_v0.raw_env(max_turns=60)
    for g in range(8):
        env.reset(seed=g)
        _play_out(env, rng)
        for agent in env.agents:
            assert env.observe(agent)["action_mask"].all()
            assert env.terminations[agent] and not env.truncations[agent]
        r0, r1 = env.rewards["player_0"], env.rewards["player_1"]
        assert r0 == -r1 and r0 in (-1.0, 0.0, 1.0)
        want = {"WhiteWins": 1.0, "BlackWins": -1.0, "Draw": 0.0}[env.game.outcome]
        assert r0 == want and env.infos["player_0"]["outcome"] == env.game.outcome
    assert env.game.ply <= 60


def test_won_games_reward_plus_one_and_minus_one():
    """Greedy self-play ends in wins; the winner gets +1, the loser -1, on the final step only."""
    env = hive_v0.raw_env()
    rng = np.random.default_rng(1)
    seen = set()
    for g in range(20):
        env.reset(seed=g)
        while not env.game.is_terminal:
            values = env.action_values()
            legal = np.flatnonzero(env._mask)
            assert np.isfinite(values[legal]).all() and np.isneginf(np.delete(values, legal)).all()
            best = legal[values[legal] == values[legal].max()]
            env.step(int(best[rng.integers(best.size)]))
        if env.game.outcome != "Draw":
            win = "player_0" if env.game.outcome == "WhiteWins" else "player_1"
            lose = "player_1" if win == "player_0" else "player_0"
            assert env.rewards == {win: 1.0, lose: -1.0}
            assert env._cumulative_rewards == {win: 1.0, lose: -1.0}
            seen.add(env.game.outcome)
        if len(seen) == 2:
            break
    assert seen, "greedy self-play should finish some games with a win"


def test_forced_pass_is_the_only_legal_action():
    env = hive_v0.raw_env()
    env.reset(options={"gamestring": FORCED_PASS})
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    assert legal.tolist() == [env.encoding.pass_action]
    assert env.action_to_uhp(int(legal[0])) == "pass" and env.uhp_to_action("pass") == legal[0]
    env.step(int(legal[0]))
    assert env.game.ply == 17 and env.game.passes_in_a_row == 1 and not env.game.is_terminal
    assert env.observe(env.agent_selection)["observation"][2 * 11 + 2 * 5 + 4].all(), "last_ply_pass plane"


def test_illegal_and_out_of_range_actions_raise_and_leave_the_state_unchanged():
    env = hive_v0.raw_env()
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env._mask)[0]))
    before = env.game.gamestring
    illegal = int(np.flatnonzero(env._mask == 0)[0])
    for bad in (illegal, -1, env.num_actions, 2.5, "3"):
        with pytest.raises(ValueError, match="action"):
            env.step(bad)
        assert env.game.gamestring == before
    with pytest.raises(ValueError, match="not legal"):
        env.action_to_uhp(illegal)
    with pytest.raises(ValueError, match="out of range"):
        env.action_to_uhp(env.num_actions)
    for text in ("wQ wS1-", "xyz", "wA1 -bX9", "", "wS1 wS1 wS1"):
        with pytest.raises(ValueError):
            env.uhp_to_action(text)
    with pytest.raises(ValueError):
        env.uhp_to_action(7)
    assert env.game.gamestring == before


def test_wrapped_env_makes_an_illegal_action_lose():
    env = hive_v0.env()
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.observe("player_0")["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.rewards["player_0"] == -1
    assert all(env.terminations.values())


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"expansions": "X"}, "expansions"),
        ({"expansions": "LM"}, "expansions"),
        ({"expansions": None}, "expansions"),
        ({"max_turns": 0}, "max_turns"),
        ({"max_turns": "300"}, "max_turns"),
        ({"tournament_opening": "yes"}, "tournament_opening"),
        ({"render_mode": "svg"}, "render_mode"),
    ],
)
def test_invalid_options_name_the_option(options, name):
    with pytest.raises(ValueError, match=name):
        hive_v0.raw_env(**options)


def test_reset_from_a_gamestring_checks_the_game_type():
    env = hive_v0.raw_env(expansions="M")
    with pytest.raises(ValueError, match="Base\\+M"):
        env.reset(options={"gamestring": "Base;InProgress;White[2];wS1;bS1 wS1-"})


def test_options_reach_the_engine():
    env = hive_v0.raw_env(expansions="LP", tournament_opening=False, max_turns=40)
    env.reset(seed=0)
    g = env.game
    assert (g.game_type, g.tournament_opening, g.max_turns) == ("Base+LP", False, 40)
    assert "wQ" in [env.action_to_uhp(int(a)) for a in np.flatnonzero(env._mask)]


def test_no_turn_cap_and_repetition_draw_options():
    env = hive_v0.raw_env(max_turns=None, repetition_draw=True)
    env.reset(seed=0)
    assert env.game.max_turns is None and env.game.repetition_draw
    names = env.encoding.plane_names()
    assert (env.observe("player_0")["observation"][names.index("plies_left")] == 255).all()
    rng = np.random.default_rng(3)
    for _ in range(40):
        legal = np.flatnonzero(env._mask)
        env.step(int(legal[rng.integers(legal.size)]))
    assert env.game.ply == 40 or env.game.is_terminal
