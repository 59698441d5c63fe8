"""Opt-in potential-based reward shaping (`hive_envs.core.shaping`) on every Hive env and the batch.

Each test recomputes the shaping term from the game itself (`HiveGame.potential`, or the batch's
`potentials()`) and compares it with what the env paid; the telescoping tests check that a seat's
shaping terms, discounted per own decision, sum to -c * Phi(first decision) = 0 over whole games of
every game type; the off-by-default tests check that the rewards are the plain +1 / -1 / 0 at the
end, equal to the raw rewards a shaped env reports for the same moves.
Games mix greedy and random moves so that most of them end with a surrounded Queen.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import hive_envs  # noqa: F401  (registers the ids)
from hive_envs import hive_v0
from hive_envs.hive import HiveBatch
from hive_envs.hive.env import raw_env
from tests.core.shaping_lockstep import lockstep, step_in_lockstep
from tests.hive.env.positions import EXPANSION_SETS

SHAPED = {"reward_shaping": "queen_margin", "shaping_coef": 0.5, "shaping_gamma": 0.9}
MAX_TURNS = 160


def mixed_action(values: np.ndarray, mask, rng, greed: float = 0.7) -> int:
    """The greedy action with probability ``greed``, else a random legal one."""
    legal = np.flatnonzero(mask)
    if rng.random() < greed:
        best = np.flatnonzero(values == values.max())
        return int(rng.choice(best))
    return int(rng.choice(legal))


def play_aec(env, seed: int):
    """One game through the wrapped AEC env; per agent, the list of (reward, raw, potential now) that
    `last()` reports before each of its decisions and at the end. The seat ``seed % 2`` plays mostly
    greedy moves, the other mostly random ones, so that most games end with a win."""
    env.reset(seed=seed)
    raw = env.unwrapped
    rng = np.random.default_rng(seed)
    seen = {a: [] for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        seat = env.possible_agents.index(agent)
        potential = 0.0 if term else raw.game.potential(seat)
        seen[agent].append((reward, info.get("raw_reward", 0.0), potential))
        if term or trunc:
            env.step(None)
        else:
            greed = 0.9 if seat == seed % 2 else 0.2
            env.step(mixed_action(raw.action_values(), obs["action_mask"], rng, greed))
    return seen, raw.game


@pytest.mark.parametrize("expansions", EXPANSION_SETS)
def test_aec_pays_each_transition_its_term_and_the_game_telescopes(expansions):
    c, gamma = SHAPED["shaping_coef"], SHAPED["shaping_gamma"]
    env = hive_v0.env(expansions=expansions, max_turns=MAX_TURNS, **SHAPED)
    decisive = shaped_steps = 0
    for seed in range(3):
        seen, game = play_aec(env, seed)
        decisive += game.result != 0
        for seat, agent in enumerate(env.possible_agents):
            rows = seen[agent]
            assert rows[0][:2] == (0.0, 0.0), "a first decision earns nothing"
            discounted = 0.0
            for k in range(1, len(rows)):
                reward, raw, potential = rows[k]
                extra = reward - raw
                assert extra == pytest.approx(c * (gamma * potential - rows[k - 1][2]), abs=1e-12)
                discounted += gamma ** (k - 1) * extra
                shaped_steps += extra != 0
            assert rows[-1][1] == (game.result if seat == 0 else -game.result)
            assert discounted == pytest.approx(-c * rows[0][2], abs=1e-12) and rows[0][2] == 0.0
    assert shaped_steps > 0 and decisive > 0, "the test saw shaping terms and decisive games"


def test_aec_forfeit_pays_the_closing_terms():
    env = hive_v0.env(**SHAPED)
    env.reset(seed=1)
    raw = env.unwrapped
    rng = np.random.default_rng(1)
    potentials = {}
    while not any(potentials.values()):  # until a closing term is not zero: a Queen has neighbours
        greed = 0.9 if env.agent_selection == "player_0" else 0.0
        env.step(mixed_action(raw.action_values(), env.last()[0]["action_mask"], rng, greed))
        potentials = {a: raw._ledger.last[0, i] for i, a in enumerate(env.possible_agents)}
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0])
    env.step(illegal)
    for agent in env.possible_agents:
        reward, info = env.rewards[agent], env.infos[agent]
        expected_raw = -1.0 if agent == offender else 0.0
        assert info["raw_reward"] == expected_raw
        assert reward == pytest.approx(expected_raw - SHAPED["shaping_coef"] * potentials[agent])


@pytest.mark.parametrize("expansions", EXPANSION_SETS)
def test_gym_env_rewards_are_the_learners_shaped_transitions(expansions):
    c, gamma = SHAPED["shaping_coef"], SHAPED["shaping_gamma"]
    env = gym.make(
        "hive_envs/Hive-v0", expansions=expansions, max_turns=MAX_TURNS, opponent="greedy",
        learner_seat="random", **SHAPED,
    )  # fmt: skip
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        game, seat = env.unwrapped.game, env.unwrapped.learner_seat
        before, discounted, raw_total, k, done = game.potential(seat), 0.0, 0.0, 0, False
        start = before
        while not done:
            values = env.unwrapped.aec.action_values()
            _, reward, done, _, info = env.step(mixed_action(values, env.unwrapped.action_masks(), rng))
            after = 0.0 if done else game.potential(seat)
            assert reward - info["raw_reward"] == pytest.approx(c * (gamma * after - before), abs=1e-12)
            discounted += gamma**k * (reward - info["raw_reward"])
            raw_total += info["raw_reward"]
            before, k = after, k + 1
        assert discounted == pytest.approx(-c * start, abs=1e-12)
        assert raw_total == env.unwrapped.aec._outcome()[seat]


@pytest.mark.parametrize("expansions", EXPANSION_SETS)
def test_make_vec_rewards_are_the_learners_shaped_transitions(expansions):
    c, gamma = SHAPED["shaping_coef"], SHAPED["shaping_gamma"]
    n = 8
    vec = gym.make_vec(
        "hive_envs/Hive-v0", num_envs=n, expansions=expansions, max_turns=MAX_TURNS, opponent="greedy",
        learner_seat="random", **SHAPED,
    )  # fmt: skip
    batch = vec.unwrapped.batch
    vec.reset(seed=0)
    rng = np.random.default_rng(0)
    rows = np.arange(n)
    discounted, decisions, ended = np.zeros(n), np.zeros(n, int), 0
    for _ in range(120):
        seats = vec.unwrapped.learner_seat.copy()
        before = batch.potentials()[rows, seats]
        greedy = batch.greedy_actions(rows, rng)
        random = (rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1)
        actions = np.where(rng.random(n) < 0.7, greedy, random)
        _, reward, terminated, _, info = vec.step(actions)
        after = np.where(terminated, 0.0, batch.potentials()[rows, seats])
        extra = reward - info["raw_reward"]
        np.testing.assert_allclose(extra, c * (gamma * after - before), atol=1e-6)
        discounted += gamma**decisions * extra
        decisions += 1
        assert set(np.unique(info["raw_reward"][~terminated])) <= {0.0}
        np.testing.assert_allclose(discounted[terminated], 0.0, atol=1e-5)  # Phi(start) = 0
        ended += terminated.sum()
        discounted[terminated], decisions[terminated] = 0.0, 0
    assert ended > 0


@pytest.mark.parametrize("expansions", EXPANSION_SETS)
def test_batch_rewards_equal_the_aec_envs_in_lockstep_and_telescope(expansions):
    n, gamma = 6, SHAPED["shaping_gamma"]
    options = {"expansions": expansions, "max_turns": MAX_TURNS, **SHAPED}
    batch, envs = lockstep(HiveBatch, raw_env, n, seed=2, **options)
    rng = np.random.default_rng(2)
    discounted = np.zeros((n, 2))
    decisions = np.zeros((n, 2), int)  # per seat: decisions of the running game so far
    decisions[:, 0] = 1
    finished = 0
    for _ in range(150):
        greedy = batch.greedy_actions(np.arange(n), rng)
        random = (rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1)
        step_in_lockstep(batch, envs, np.where(rng.random(n) < 0.7, greedy, random))
        for g in range(n):
            # a seat is paid when its next decision arrives (closing transition decisions - 1) or at
            # the end; the other seat's extra reward is 0
            extra = batch.rewards[g] - batch.raw_rewards[g]
            discounted[g] += gamma ** np.maximum(decisions[g] - 1, 0) * extra
            if batch.terminated[g]:
                np.testing.assert_allclose(discounted[g], 0.0, atol=1e-5)
                discounted[g], decisions[g] = 0.0, 0
                finished += 1
            decisions[g, batch.to_move[g]] += 1
    assert finished > 0


def test_shaping_off_rewards_are_the_plain_end_rewards_and_the_shaped_envs_raw_ones():
    """Off by default: the same moves give 0.0 at every step and the result at the end, exactly the
    raw rewards of the shaped env, in every env and the batch."""
    plain, shaped = hive_v0.env(max_turns=MAX_TURNS), hive_v0.env(max_turns=MAX_TURNS, **SHAPED)
    for seed in range(2):
        a, _ = play_aec(plain, seed)
        b, _ = play_aec(shaped, seed)
        for agent in plain.possible_agents:
            assert [r for r, _, _ in a[agent]] == [raw for _, raw, _ in b[agent]]
            assert all(r == 0.0 for r, _, _ in a[agent][:-1]) and a[agent][-1][0] in (-1.0, 0.0, 1.0)

    kwargs = {"max_turns": MAX_TURNS, "opponent": "greedy", "learner_seat": "random"}
    envs = [gym.make("hive_envs/Hive-v0", **kwargs, **extra) for extra in ({}, SHAPED)]
    for env in envs:
        env.reset(seed=4)
    rng = np.random.default_rng(4)
    done = False
    while not done:
        action = mixed_action(envs[0].unwrapped.aec.action_values(), envs[0].unwrapped.action_masks(), rng)
        _, r0, done, _, info0 = envs[0].step(action)
        _, _, done1, _, info1 = envs[1].step(action)
        assert done == done1 and type(r0) is float and r0 == info1["raw_reward"]
        assert "raw_reward" not in info0 and (done or r0 == 0.0)

    vecs = [gym.make_vec("hive_envs/Hive-v0", num_envs=4, **kwargs, **extra) for extra in ({}, SHAPED)]
    for vec in vecs:
        vec.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(80):
        mask = vecs[0].unwrapped.action_masks()
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        _, r0, t0, _, info0 = vecs[0].step(actions)
        _, _, t1, _, info1 = vecs[1].step(actions)
        assert r0.dtype == np.float32 and r0.tobytes() == info1["raw_reward"].tobytes()
        assert (t0 == t1).all() and "raw_reward" not in info0

    batches = [HiveBatch(4, max_turns=MAX_TURNS, **extra) for extra in ({}, SHAPED)]
    for batch in batches:
        batch.reset(seed=6)
    assert batches[0].raw_rewards is batches[0].rewards
    for _ in range(200):
        actions = (rng.random((4, batches[0].num_actions)) * batches[0].action_mask).argmax(axis=1)
        for batch in batches:
            batch.step(actions)
        assert batches[0].rewards.tobytes() == batches[1].raw_rewards.tobytes()


BAD = [
    ({"reward_shaping": "queen"}, "reward_shaping"),
    ({"reward_shaping": "captured_margin"}, "reward_shaping"),
    ({"reward_shaping": True}, "reward_shaping"),
    ({"reward_shaping": "queen_margin", "shaping_coef": -0.1}, "shaping_coef"),
    ({"reward_shaping": "queen_margin", "shaping_coef": float("nan")}, "shaping_coef"),
    ({"reward_shaping": "queen_margin", "shaping_coef": float("inf")}, "shaping_coef"),
    ({"reward_shaping": "queen_margin", "shaping_coef": "1"}, "shaping_coef"),
    ({"reward_shaping": "queen_margin", "shaping_coef": True}, "shaping_coef"),
    ({"reward_shaping": "queen_margin", "shaping_gamma": 0.0}, "shaping_gamma"),
    ({"reward_shaping": "queen_margin", "shaping_gamma": 1.5}, "shaping_gamma"),
    ({"reward_shaping": "queen_margin", "shaping_gamma": float("nan")}, "shaping_gamma"),
    ({"shaping_coef": 0.5}, "reward_shaping"),
]
MAKERS = {
    "hive_v0.env": hive_v0.env,
    "raw_env": raw_env,
    "gym.make": lambda **o: gym.make("hive_envs/Hive-v0", **o),
    "gym.make_vec": lambda **o: gym.make_vec("hive_envs/Hive-v0", num_envs=2, **o),
    "HiveBatch": lambda **o: HiveBatch(2, **o),
}


@pytest.mark.parametrize("maker", MAKERS)
@pytest.mark.parametrize(("options", "name"), BAD)
def test_bad_shaping_options_raise_naming_the_option(maker, options, name):
    with pytest.raises(ValueError, match=name):
        MAKERS[maker](**options)
