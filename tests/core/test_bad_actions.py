"""Bad actions, move ids, rows and opponents: refused at once with ValueError naming them, state unchanged.

An action or move id is an integer (a Python int or a numpy integer); None, bools, floats, strings
and sequences are refused, never rounded or read as 0/1. Under `env()` the agent to move loses with
any of them (-1), as with an illegal integer. Opponents are checked when the env is made (a
checkpoint for another game or other options) and at their own move (an illegal or non-integer
action); the episode is then over. Batch rows are game indices in range.
"""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest

import hive_envs  # noqa: F401  (registers the env ids)
from hive_envs import hive_v0, hoyito_v0
from hive_envs.hive import HiveBatch, HiveGame
from hive_envs.hive.vector_env import HiveVectorEnv
from hive_envs.hoyito import HoyitoBatch, HoyitoGame
from hive_envs.hoyito.gym_env import HoyitoVectorEnv
from hive_envs.players import GreedyPlayer, RandomPlayer

BAD_VALUES = [
    None,
    True,
    False,
    np.bool_(True),
    1.0,
    2.7,
    np.float64(1.0),
    "1",
    b"1",
    [1],
    (1,),
    np.array([1]),
]
HUGE = [2**63, 2**70, -(2**70), np.uint64(2**64 - 1)]
AEC = {
    "hive": lambda: hive_v0.raw_env(),
    "hoyito": lambda: hoyito_v0.raw_env(),
}


def aec_state(env):
    return env.game.record(), env._mask.copy(), env.agent_selection, dict(env.rewards)


def same_aec_state(a, b):
    return a[0] == b[0] and np.array_equal(a[1], b[1]) and a[2:] == b[2:]


@pytest.mark.parametrize("game", AEC)
@pytest.mark.parametrize("action", BAD_VALUES + HUGE + [-1, 10**6])
def test_raw_env_refuses_non_integer_and_out_of_range_actions(game, action):
    env = AEC[game]()
    env.reset(seed=0)
    before = aec_state(env)
    with pytest.raises(ValueError, match="action"):
        env.step(action)
    assert same_aec_state(aec_state(env), before)


@pytest.mark.parametrize("game", ["hive", "hoyito"])
@pytest.mark.parametrize("action", BAD_VALUES + HUGE)
def test_env_makes_the_agent_to_move_lose_for_any_non_integer_action(game, action):
    env = (hive_v0 if game == "hive" else hoyito_v0).env()
    env.reset(seed=0)
    mover = env.agent_selection
    env.step(action)
    _, _, terminated, _, _ = env.last()
    assert env.rewards[mover] == -1.0 and all(env.terminations.values()) and terminated
    for _ in list(env.agents):  # the dead steps still take None
        env.step(None)


@pytest.mark.parametrize("game", ["hive", "hoyito"])
@pytest.mark.parametrize("kind", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64, int])
def test_numpy_integer_actions_keep_working(game, kind):
    for env in (AEC[game](), (hive_v0 if game == "hive" else hoyito_v0).env()):
        env.reset(seed=0)
        obs, *_ = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        if kind is not int:
            legal = legal[legal <= np.iinfo(kind).max]  # an action the type can hold
        if not legal.size:
            pytest.skip(f"no legal {game} action fits in {kind.__name__}")
        env.step(kind(legal[0]))
        assert not any(env.terminations.values())


@pytest.mark.parametrize("env_id", ["hive_envs/Hive-v0", "hive_envs/Hoyito-v0"])
@pytest.mark.parametrize("action", BAD_VALUES + HUGE)
def test_gym_env_refuses_non_integer_actions_state_unchanged(env_id, action):
    env = gym.make(env_id)
    env.reset(seed=0)
    mask = env.unwrapped.action_masks().copy()
    record = env.unwrapped.aec.game.record()
    with pytest.raises(ValueError, match="action"):
        env.step(action)
    assert env.unwrapped.aec.game.record() == record and np.array_equal(env.unwrapped.action_masks(), mask)
    env.step(np.int64(np.flatnonzero(mask)[0]))  # numpy integers work, and the episode goes on


GAMES = {"hive": HiveGame, "hoyito": HoyitoGame}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("move", BAD_VALUES + HUGE)
def test_games_refuse_moves_that_are_not_integers_or_too_large(game, move):
    g = GAMES[game]()
    legal = g.legal_move_ids()
    g.play_id(int(legal[-1]))
    record, state = g.record(), g.state.copy()
    for call in (g.play_id, g.move_name):
        with pytest.raises(ValueError):
            call(move)
        assert g.record() == record and np.array_equal(g.state, state)


@pytest.mark.parametrize("game", GAMES)
def test_games_take_numpy_integer_move_ids(game):
    g = GAMES[game]()
    move = g.legal_move_ids()[0]
    assert isinstance(move, np.integer)
    g.move_name(move)
    g.play_id(move)
    assert g.ply == 1


@pytest.mark.parametrize("name", [3, 3.0, None, "3.0", "1_0", "٣", " ", "--1", "-"])
def test_hoyito_move_names_are_ascii_hole_numbers(name):
    with pytest.raises(ValueError, match="not a hole number"):
        HoyitoGame().move_id(name)
    assert HoyitoGame().move_id(" 3 ") == 3
    with pytest.raises(ValueError, match="illegal move -1"):
        HoyitoGame().move_id("-1")


@pytest.mark.parametrize("game", ["hive", "hoyito"])
@pytest.mark.parametrize("move", [1.5, True, "3", 2**70])
def test_env_move_to_action_refuses_non_integer_move_ids(game, move):
    env = AEC[game]()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="move"):
        env.move_to_action(move)


# --------------------------------------------------------------------------- opponents
def illegal_after(turns):
    """A callable opponent that plays its first legal action, then (from its turn `turns` on) hole 0."""
    calls = {"n": 0}

    def policy(observation, action_mask):
        calls["n"] += 1
        return 0 if calls["n"] > turns else int(np.flatnonzero(action_mask)[0])

    return policy


def test_an_opponent_choosing_an_illegal_action_ends_the_episode_at_once():
    env = gym.make("hive_envs/Hoyito-v0", opponent=illegal_after(0), learner_seat=0)
    env.reset(seed=0)
    game = env.unwrapped.aec.game
    for _ in range(40):  # the learner plays its last legal hole until hole 0 of the opponent is empty
        try:
            env.step(int(np.flatnonzero(env.unwrapped.action_masks())[-1]))
        except ValueError as error:
            assert "opponent" in str(error) and "chose action 0" in str(error)
            break
    else:
        pytest.fail("the opponent never chose an illegal action")
    record = game.record()
    to_move = game.to_move
    assert to_move == 1  # the opponent's turn: the learner's move was played, the opponent's was not
    with pytest.raises(ValueError, match="reset"):
        env.step(int(np.flatnonzero(game.legal_move_ids() - to_move * 6)[0]))
    assert game.record() == record  # the learner's next step did not move the opponent's counters
    env.reset(seed=1)
    assert env.unwrapped.aec.game.ply == 0


@pytest.mark.parametrize("returned", [2.7, True, None, "1", 1.0, [1], 99, -1])
@pytest.mark.parametrize("env_id", ["hive_envs/Hoyito-v0", "hive_envs/Hive-v0"])
def test_callable_opponents_must_return_a_legal_integer(env_id, returned):
    env = gym.make(env_id, opponent=lambda observation, mask: returned, learner_seat=1)
    with pytest.raises(ValueError, match=f"opponent .* chose action {re.escape(repr(returned))}"):
        env.reset(seed=0)
    with pytest.raises(ValueError, match="reset"):
        env.step(0)


def test_vector_env_names_a_failing_opponent_and_needs_a_reset():
    vec = gym.make_vec("hive_envs/Hoyito-v0", num_envs=4, opponent=lambda o, m: 2.0, learner_seat=1)
    with pytest.raises(ValueError, match="opponent .* chose action 2.0"):
        vec.reset(seed=0)
    with pytest.raises(ValueError, match="reset"):
        vec.step(np.zeros(4, np.int64))


@pytest.mark.parametrize("vector_env, out_of_range", [(HiveVectorEnv, 99999), (HoyitoVectorEnv, 7)])
def test_vector_env_bad_actions_and_arguments_raise_naming_them(vector_env, out_of_range):
    vec = vector_env(3)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match=f"game 1: action {out_of_range} is out of range"):
        vec.step(np.array([0, out_of_range, 0]))
    with pytest.raises(ValueError, match="learner_seat"):
        vector_env(2, learner_seat=3)
    with pytest.raises(ValueError, match="opponent"):
        vector_env(2, opponent=42)


class IllegalPlayer(RandomPlayer):
    """A player whose move is never legal."""

    def choose(self, game, limits=None):
        return 10**6


def test_a_player_opponent_with_an_illegal_move_is_named():
    env = gym.make("hive_envs/Hoyito-v0", opponent=IllegalPlayer(name="bad"), learner_seat=1)
    with pytest.raises(ValueError, match="opponent .*bad.* chose move 1000000"):
        env.reset(seed=0)


@pytest.fixture
def checkpoints(tmp_path):
    pytest.importorskip("torch")
    from tests.play.helpers import tiny_hive_checkpoint, tiny_hoyito_checkpoint

    return {
        "seeds3": str(tiny_hoyito_checkpoint(tmp_path / "seeds3.pt", seeds_per_hole=3)),
        "limit99": str(tiny_hoyito_checkpoint(tmp_path / "limit99.pt", no_capture_limit=99)),
        "2x12": str(tiny_hoyito_checkpoint(tmp_path / "2x12.pt", holes_per_row=12)),
        "hiveM": str(tiny_hive_checkpoint(tmp_path / "hiveM.pt", expansions="M", kind="hexconv")),
        "hoyito": str(tiny_hoyito_checkpoint(tmp_path / "hoyito.pt")),
    }


@pytest.mark.parametrize(
    "env_id, checkpoint",
    [
        ("hive_envs/Hoyito-v0", "seeds3"),
        ("hive_envs/Hoyito-v0", "limit99"),
        ("hive_envs/Hoyito-v0", "2x12"),
        ("hive_envs/Hoyito-v0", "hiveM"),
        ("hive_envs/Hive-v0", "hiveM"),
        ("hive_envs/Hive-v0", "hoyito"),
    ],
)
def test_checkpoint_opponents_for_another_game_or_board_are_refused_when_the_env_is_made(
    checkpoints, env_id, checkpoint
):
    from hive_envs.agents import load_policy

    path = checkpoints[checkpoint]
    for make in (
        lambda: gym.make(env_id, opponent=path),
        lambda: gym.make_vec(env_id, num_envs=2, opponent=path),
        lambda: gym.make(env_id, opponent=load_policy(path)),
    ):
        with pytest.raises(ValueError, match="opponent"):
            make()


def test_a_matching_checkpoint_opponent_is_accepted(checkpoints):
    from hive_envs.agents import load_policy

    for opponent in (checkpoints["hoyito"], load_policy(checkpoints["hoyito"])):
        env = gym.make("hive_envs/Hoyito-v0", opponent=opponent, learner_seat=1)
        env.reset(seed=0)
        env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))


# --------------------------------------------------------------------------- batch rows
BATCHES = {"hive": lambda: HiveBatch(4), "hoyito": lambda: HoyitoBatch(4)}
BAD_ROWS = [[4], [-1], [0, 14], [0.5], [[0]], np.array([True]), [2**70], np.array([2**63], np.uint64), "0"]


def batch_state(batch):
    return batch.states.copy(), batch.observation.copy(), batch.action_mask.copy()


@pytest.mark.parametrize("game", BATCHES)
@pytest.mark.parametrize("rows", BAD_ROWS)
def test_batch_rows_are_checked_everywhere(game, rows):
    batch = BATCHES[game]()
    before = batch_state(batch)
    rng = np.random.default_rng(0)
    for call in (
        lambda: batch.greedy_actions(rows, rng),
        lambda: RandomPlayer(seed=0).act(batch, rows),
        lambda: GreedyPlayer(seed=0).act(batch, rows),
        lambda: IllegalPlayer(seed=0).act(batch, rows),  # the per-row form (choose on batch.game(row))
    ):
        with pytest.raises(ValueError, match="row"):
            call()
    assert all(np.array_equal(a, b) for a, b in zip(batch_state(batch), before))


@pytest.mark.parametrize("game", BATCHES)
@pytest.mark.parametrize("row", [4, -1, 1.0, True, "0", None, 2**70])
def test_single_rows_are_checked(game, row):
    batch = BATCHES[game]()
    with pytest.raises(ValueError, match="row"):
        batch.game(row)
    with pytest.raises(ValueError, match="row"):
        batch.move_to_action(row, 0)


@pytest.mark.parametrize("game", BATCHES)
@pytest.mark.parametrize("move", [1.5, True, "3", None, 2**70, -(2**70)])
def test_batch_move_ids_are_checked(game, move):
    batch = BATCHES[game]()
    with pytest.raises(ValueError, match="move"):
        batch.move_to_action(0, move)


def test_good_rows_still_work_in_any_integer_dtype():
    batch = HoyitoBatch(4)
    rng = np.random.default_rng(0)
    for rows in ([0, 3], np.array([1, 2], np.int32), np.array([3], np.uint8), []):
        assert batch.greedy_actions(rows, rng).shape == (len(rows),)
        assert RandomPlayer(seed=0).act(batch, rows).shape == (len(rows),)


# -- calls out of order on the raw env, and the Gym mask after an illegal action ---------------------


@pytest.mark.parametrize("game", sorted(AEC))
def test_raw_env_step_or_observe_before_reset_says_reset_first(game):
    env = AEC[game]()
    with pytest.raises(RuntimeError, match=r"reset\(\) needs to be called before step\(\)"):
        env.step(0)
    with pytest.raises(RuntimeError, match=r"reset\(\) needs to be called before observe\(\)"):
        env.observe("player_0")


@pytest.mark.parametrize("game", sorted(AEC))
def test_raw_env_step_after_every_agent_left_only_warns(game, caplog):
    env = AEC[game]()
    env.reset(seed=0)
    while env.agents:
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    record = env.game.record()
    env.step(None)
    assert "step() called after all agents are terminated or truncated" in caplog.text
    assert env.agents == [] and env.game.record() == record


@pytest.mark.parametrize("env_id", ["hive_envs/Hive-v0", "hive_envs/Hoyito-v0"])
def test_action_masks_are_all_true_after_an_illegal_action_lost_the_episode(env_id):
    env = gym.make(env_id)
    env.reset(seed=0)
    legal = env.unwrapped.action_masks()
    illegal = int(np.flatnonzero(~legal)[0]) if (~legal).any() else None
    if illegal is None:  # every action legal at the start (Hoyito): play until one is not
        while legal.all():
            env.step(int(np.flatnonzero(legal)[0]))
            legal = env.unwrapped.action_masks()
        illegal = int(np.flatnonzero(~legal)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]
    assert env.unwrapped.action_masks().all()
