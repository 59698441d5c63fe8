"""`env()`'s wrappers (`hive_envs.core.aec.wrap_aec`) against PettingZoo's stock wrappers.

`wrap_aec` subclasses OrderEnforcingWrapper and TerminateIllegalWrapper so that a ply checks its
action once and skips the chains of `__getattr__` forwards. On everything the stock stack accepts
(legal actions, in-range illegal ones, dead steps, calls out of order, steps after the end) both must
give the same observations, rewards, flags, infos, errors and warnings, ply by ply.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from hive_envs import hive_v0, hoyito_v0
from hive_envs.core.aec import wrap_aec

RAW_ENVS = {
    "hive": lambda: hive_v0.raw_env(max_turns=40),
    "hoyito": lambda: hoyito_v0.raw_env(holes_per_row=4, seeds_per_hole=2),
}


def stock(raw):
    return wrappers.OrderEnforcingWrapper(wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1))


def outcome(call, *args):
    """What ``call(*args)`` returned or raised, and the warnings it gave (Python's and PettingZoo's
    `EnvLogger` ones), in comparable form."""
    EnvLogger.flush()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = ("returned", comparable(call(*args)))
        except Exception as error:  # noqa: BLE001 (the exception is what is compared)
            value = ("raised", type(error).__name__, str(error))
    logged = list(EnvLogger.mqueue)
    EnvLogger.flush()
    return value, [str(w.message) for w in caught] + logged


def comparable(value):
    if isinstance(value, dict):
        return {key: comparable(v) for key, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [comparable(v) for v in value]
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    return value


def state_of(env):
    return [
        outcome(getattr, env, name)
        for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos")
    ]


@pytest.mark.parametrize("game", sorted(RAW_ENVS))
@pytest.mark.parametrize("seed", [0, 1])
def test_wrap_aec_plays_like_the_stock_wrappers(game, seed):
    ours, theirs = wrap_aec(RAW_ENVS[game]()), stock(RAW_ENVS[game]())
    for name, args in (("step", (0,)), ("observe", ("player_0",))):  # before any reset
        assert outcome(getattr(ours, name), *args) == outcome(getattr(theirs, name), *args)
    # last() before reset: the stock stack fails reading agent_selection; ours says what to do
    assert outcome(ours.last)[0] == ("raised", "AssertionError", "reset() needs to be called before observe.")
    assert state_of(ours) == state_of(theirs)
    rng = np.random.default_rng(seed)
    illegal_plays = 0
    for episode in range(6):
        for env in (ours, theirs):
            env.reset(seed=seed + episode)
        while True:
            assert state_of(ours) == state_of(theirs)
            assert outcome(ours.last) == outcome(theirs.last)
            if not ours.agents:  # a step after the end: both warn and change nothing
                assert outcome(ours.step, 0) == outcome(theirs.step, 0)
                break
            agent = ours.agent_selection
            if ours.terminations[agent] or ours.truncations[agent]:
                action = None  # PettingZoo's dead step
            else:
                mask = ours.observe(agent)["action_mask"]
                lose = episode % 2 == 1 and rng.random() < 0.2 and not mask.all()
                choices = np.flatnonzero(mask == 0 if lose else mask)
                illegal_plays += lose
                action = int(choices[rng.integers(choices.size)])
            assert outcome(ours.step, action) == outcome(theirs.step, action)
    assert illegal_plays > 0  # the illegal-move ending was compared too


def test_agent_iter_runs_through_the_fast_attributes():
    env = hive_v0.env(max_turns=30)
    env.reset(seed=3)
    plies = 0
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0])
        env.step(action)
        plies += 1
    assert plies >= 30 and env.agents == []
