"""`AecBatch` (any PettingZoo AEC env under the batched contract) against the compiled batches, and its
refusals. Lock-step: the same seeds and the same random legal actions give identical buffers."""

from __future__ import annotations

import numpy as np
import pytest

from hive_envs.core import aec_source
from hive_envs.core.aec_batch import AecBatch
from hive_envs.core.aec_game import AecGame, replay
from hive_envs.core.aec_source import AecOptions
from hive_envs.hive import HiveBatch
from hive_envs.hoyito import HoyitoBatch

TOY = "tests.core.aec_toy_envs"
BUFFERS = ("observation", "action_mask", "to_move", "rewards", "terminated")


def lock_step(adapter, compiled, steps: int, seed: int) -> int:
    """Step both with the same random legal actions; assert every buffer equal; return games ended."""
    adapter.reset(seed=seed)
    compiled.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ended = 0
    for step in range(steps):
        for name in BUFFERS:
            np.testing.assert_array_equal(
                getattr(adapter, name), getattr(compiled, name), err_msg=f"{name} at step {step}"
            )
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in compiled.action_mask])
        adapter.step(actions)
        compiled.step(actions)
        done = compiled.terminated
        np.testing.assert_array_equal(adapter.terminated, done, err_msg=f"terminated after step {step}")
        np.testing.assert_array_equal(adapter.final_observation[done], compiled.final_observation[done])
        np.testing.assert_array_equal(adapter.episode_length[done], compiled.episode_length[done])
        ended += int(done.sum())
    return ended


@pytest.mark.parametrize("expansions", ["", "M", "L", "P", "ML", "MP", "LP", "MLP"])
def test_adapter_over_hive_v0_steps_as_hive_batch(expansions):
    options = {"expansions": expansions, "max_turns": 8}  # short games: auto-resets within the test
    adapter = AecBatch(2, "pettingzoo:hive_envs/hive-v0", options)
    assert lock_step(adapter, HiveBatch(2, **options), steps=40, seed=3) >= 2


@pytest.mark.parametrize("holes", [6, 12])
def test_adapter_over_hoyito_v0_steps_as_hoyito_batch(holes):
    options = {"holes_per_row": holes, "no_capture_limit": 12}  # short games: auto-resets within the test
    adapter = AecBatch(4, "hive_envs.hoyito_v0", options)
    assert lock_step(adapter, HoyitoBatch(4, **options), steps=80, seed=5) >= 2


def test_adapter_follows_agent_selection_when_a_side_moves_twice():
    """Hoyito gives a capture another move: the adapter's to_move repeats a seat, as the batch does."""
    adapter = AecBatch(8, "pettingzoo:hive_envs/hoyito-v0")
    rng = np.random.default_rng(0)
    repeats = 0
    for _ in range(60):
        before = adapter.to_move.copy()
        adapter.step(np.array([rng.choice(np.flatnonzero(m)) for m in adapter.action_mask]))
        repeats += int(((adapter.to_move == before) & ~adapter.terminated).sum())
    assert repeats > 0


def test_final_view_chooses_whose_observation_ends_a_game():
    batch = AecBatch(1, f"{TOY}:honest", {"counters": 1})  # the fixture below trusts the toy module
    batch.step(np.array([0]), final_view=np.array([1], dtype=np.int8))
    assert batch.terminated[0] and batch.rewards[0].tolist() == [1.0, -1.0]
    assert batch.episode_length[0] == 1 and batch.to_move[0] == 0  # restarted


def test_game_of_a_row_is_an_independent_replay():
    batch = AecBatch(2, "pettingzoo.classic.connect_four_v3")
    batch.step(np.array([3, 4]))
    game = batch.game(1)
    assert isinstance(game, AecGame) and game.ply == 1 and game.to_move == 1
    np.testing.assert_array_equal(game.legal_move_ids(), np.flatnonzero(batch.action_mask[1]))
    game.play_id(4)
    game.undo()
    assert game.ply == 1 and batch.game(1).record() == game.record()


@pytest.mark.parametrize("env", ["pettingzoo.classic.connect_four_v3", "pettingzoo:hive_envs/hive-v0"])
def test_a_copied_game_plays_on_as_a_replay_and_leaves_the_original(env):
    """`copy_env` copies the position (``copy.deepcopy`` of a classic env would build a new env)."""
    rng = np.random.default_rng(1)
    game = AecGame(AecOptions(env), seed=4)
    for _ in range(5):
        game.play_id(int(rng.choice(game.legal_move_ids())))
    before = game.record(), game.env.observe(game.env.agent_selection)["observation"].copy()
    copied, replayed = (
        game.copy(),
        replay(AecOptions(env), 4, [int(m) for m in game.record().split("=")[-1].split()]),
    )
    for _ in range(6):
        move = int(rng.choice(copied.legal_move_ids()))
        copied.play_id(move)
        replayed.play_id(move)
        agent = copied.env.agent_selection
        np.testing.assert_array_equal(
            copied.env.observe(agent)["observation"], replayed.env.observe(agent)["observation"]
        )
    assert copied.record() == replayed.record() != before[0]
    assert game.record() == before[0]
    np.testing.assert_array_equal(game.env.observe(game.env.agent_selection)["observation"], before[1])


@pytest.mark.parametrize(
    "env, compiled", [("pettingzoo:hive_envs/hoyito-v0", HoyitoBatch), ("hive_envs.hive_v0", HiveBatch)]
)
def test_the_greedy_heuristic_of_our_envs_is_their_games_in_actions(env, compiled):
    adapter, compiled = AecBatch(3, env), compiled(3)
    assert lock_step(adapter, compiled, steps=9, seed=2) == 0
    assert hasattr(adapter, "greedy_actions")
    for row in range(3):
        actions, scores = adapter.game(row).greedy_move_scores()
        moves, expected = compiled.game(row).greedy_move_scores()
        np.testing.assert_array_equal(actions, [compiled.move_to_action(row, m) for m in moves])
        np.testing.assert_array_equal(scores, expected)
        best = actions[scores == scores.max()]
        assert adapter.greedy_actions(np.array([row]), np.random.default_rng(row))[0] in best


def test_greedy_on_an_env_without_a_game_of_ours_wins_at_once_else_plays_at_random():
    batch = AecBatch(2, "pettingzoo.classic.connect_four_v3")
    # row 0: the first player, to move, has three in column 0; row 1: no one has three in a line
    for row_0, row_1 in zip([0, 1, 0, 1, 0, 2], [0, 1, 2, 3, 4, 5]):
        batch.step(np.array([row_0, row_1]))
    actions, scores = batch.game(0).greedy_move_scores()
    np.testing.assert_array_equal(actions, np.flatnonzero(batch.action_mask[0]))
    np.testing.assert_array_equal(scores, (actions == 0).astype(float))
    _, scores = batch.game(1).greedy_move_scores()
    assert not scores.any()
    before = (batch.observation.copy(), batch.action_mask.copy())
    rng = np.random.default_rng(0)
    assert [int(batch.greedy_actions(np.array([0]), rng)[0]) for _ in range(5)] == [0] * 5
    seen = {int(batch.greedy_actions(np.array([1]), rng)[0]) for _ in range(60)}
    assert seen == set(np.flatnonzero(batch.action_mask[1]).tolist())  # ties: uniformly random
    np.testing.assert_array_equal(batch.observation, before[0])  # scored in copies of the envs
    np.testing.assert_array_equal(batch.action_mask, before[1])


@pytest.fixture(autouse=True)
def trust_toy_envs():
    for name in ("honest", "no_mask", "lying_mask", "penalising_lying_mask", "uncopyable"):
        aec_source.trust_env_module(f"{TOY}:{name}")
    yield
    aec_source._trusted.clear()


def test_refuses_an_env_without_action_mask():
    with pytest.raises(ValueError, match="'observation' and 'action_mask'"):
        AecBatch(2, f"{TOY}:no_mask")


def test_refuses_a_mask_the_env_raises_on():
    with pytest.raises(ValueError, match="marks legal, raised ValueError: cannot take 3"):
        AecBatch(2, f"{TOY}:lying_mask")


def test_refuses_a_mask_the_env_penalises_as_illegal():
    with pytest.raises(ValueError, match="penalised as an illegal move"):
        AecBatch(2, f"{TOY}:penalising_lying_mask")


def test_refuses_an_env_it_cannot_copy_in_one_line_naming_the_copy():
    with pytest.raises(ValueError) as refused:
        AecBatch(2, f"{TOY}:uncopyable")
    message = str(refused.value)
    assert (
        message.startswith(f"env {TOY}:uncopyable(): the adapter cannot drive it: ") and "\n" not in message
    )
    assert "copy_env" in message and "TypeError: cannot pickle '_thread.lock' object" in message


def test_refuses_hanabi_which_cannot_be_copied_position_by_position():
    pytest.importorskip("pettingzoo.classic.hanabi_v5")  # needs open_spiel (the test extra)
    with pytest.raises(ValueError, match=r"hanabi_v5\(\): the adapter cannot drive it: playing a copy of it"):
        AecBatch(2, "pettingzoo.classic.hanabi_v5")
    with pytest.raises(
        ValueError, match=r"needs exactly two possible_agents, has \['player_0', 'player_1', 'player_2'\]"
    ):
        AecBatch(2, "pettingzoo.classic.hanabi_v5", {"players": 3})


def test_a_render_mode_is_refused_before_any_env_is_made(monkeypatch):
    made = []
    monkeypatch.setattr(aec_source, "import_factory", lambda env: made.append(env), raising=False)
    for mode in ("human", "rgb_array"):
        with pytest.raises(ValueError, match=f"render_mode '{mode}' is refused: the adapter draws nothing"):
            AecBatch(2, "pettingzoo.classic.connect_four_v3", {"render_mode": mode})
    assert made == []
    AecOptions("pettingzoo.classic.connect_four_v3", {"render_mode": None})  # None draws nothing


@pytest.mark.parametrize(
    ("options", "too_large"),
    [
        ({"sizes": list(range(100))}, "at most 64 values"),
        ({"name": "x" * 2000}, "1024 characters"),
        ({"board_size": 16**5000}, "integers of 64 bits"),
        ({"a": [[[[1]]]]}, "nested 3 deep"),
    ],
)
def test_env_options_past_their_ceilings_are_refused_in_one_short_line(options, too_large):
    with pytest.raises(ValueError, match=too_large) as refused:
        AecOptions("pettingzoo.classic.go_v5", options)
    assert len(str(refused.value)) < 500


def test_refuses_an_action_outside_the_mask_and_moves_no_game():
    batch = AecBatch(2, "pettingzoo.classic.connect_four_v3")
    for _ in range(6):
        batch.step(np.array([0, 1]))  # column 0 of game 0 is full now
    before = batch.observation.copy()
    with pytest.raises(ValueError, match="action 0 is not legal in game 0"):
        batch.step(np.array([0, 1]))
    np.testing.assert_array_equal(batch.observation, before)


@pytest.mark.parametrize(
    "name, message",
    [
        ("os:system", "imported only when the command line says --trust-env-module os:system"),
        ("pettingzoo.butterfly.pistonball_v6", "is not an AEC env name"),
        ("pettingzoo:other/x-v0", "no such id in hive_envs' PettingZoo registry"),
        ("", "non-empty string"),
    ],
)
def test_names_from_files_never_import_other_modules(name, message):
    with pytest.raises(ValueError, match=message):
        AecOptions(name)


def test_a_trusted_module_is_made_with_its_options():
    batch = AecBatch(2, f"{TOY}:honest", {"counters": 3})
    assert batch.observation[:, 0].tolist() == [3, 3]
    with pytest.raises(ValueError, match="unexpected keyword argument 'piles'"):
        AecBatch(2, f"{TOY}:honest", {"piles": 3})
