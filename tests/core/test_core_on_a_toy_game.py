"""The shared env base on a second game (Nim), proving it is game-agnostic.

Nim here: a pile of stones, the mover takes 1..3 (action k takes k+1), taking the last wins.
Only the hooks are written; spaces, masks, illegal actions, dead steps, rewards, the
single-agent env and the opponents all come from hive_envs.core.
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from hive_envs.core import opponents
from hive_envs.core.aec import MaskedAECEnv, wrap_aec
from hive_envs.core.single_agent import SingleAgentEnv

PILE = 9


class NimAEC(MaskedAECEnv):
    def __init__(self, render_mode=None):
        super().__init__(3, np.zeros(PILE + 2), np.ones(PILE + 2), np.uint8, render_mode)

    def _new_game(self):
        self.stones, self.mover = PILE, 0

    def _apply(self, action):
        self.stones -= action + 1
        self.last_mover, self.mover = self.mover, 1 - self.mover

    def _seat_to_move(self):
        return self.mover

    def _is_over(self):
        return self.stones == 0

    def _write_mask(self, out):
        out[:] = np.arange(1, 4) <= self.stones

    def _write_observation(self, seat, out):
        out[:] = 0
        out[self.stones] = 1
        out[-1] = seat == self.mover

    def _outcome(self):
        return (1.0, -1.0) if self.last_mover == 0 else (-1.0, 1.0)

    def _render_text(self):
        return f"{self.stones} stones"

    def action_values(self):
        return np.array([self.stones == k + 1 for k in range(3)], dtype=float)


def test_pettingzoo_conformance_through_the_base():
    api_test(wrap_aec(NimAEC()), num_cycles=100)
    api_test(NimAEC(), num_cycles=100)
    seed_test(lambda: wrap_aec(NimAEC()), num_cycles=100)


def test_single_agent_env_passes_check_env_for_each_opponent_kind():
    for opponent in ("random", "greedy", lambda obs, mask: int(np.flatnonzero(mask)[0])):
        check_env(SingleAgentEnv(NimAEC(), opponent=opponent, learner_seat="random"), skip_render_check=True)


def test_greedy_opponent_takes_the_last_stones():
    env = SingleAgentEnv(NimAEC(), opponent="greedy", learner_seat=0)
    env.reset(seed=0)
    env.aec.stones = 5
    env.aec._after_ply()
    _, reward, terminated, _, _ = env.step(1)  # leaves 3: greedy takes them and wins
    assert (reward, terminated) == (-1.0, True)


def test_illegal_action_message_names_action_and_legal_count():
    env = NimAEC()
    env.reset()
    env.stones = 2
    env._after_ply()
    with pytest.raises(ValueError, match="action 2 is illegal for player_0; it has 2 legal actions"):
        env.step(2)


def test_unknown_opponent_string_is_refused_unless_a_loader_accepts_it(monkeypatch):
    monkeypatch.setattr(opponents, "_LOADERS", [])
    with pytest.raises(ValueError, match="opponent must be 'random', 'greedy', a callable"):
        opponents.load_opponent("ckpt.onnx")

    def fn(obs, mask):
        return 0

    opponents.register_opponent_loader(lambda spec: fn if spec.endswith(".onnx") else None)
    assert opponents.load_opponent("ckpt.onnx") is fn


def test_random_and_greedy_helpers_pick_only_legal_actions():
    rng = np.random.default_rng(0)
    masks = np.array([[0, 1, 0], [1, 0, 1]] * 50, dtype=np.int8)
    picks = opponents.random_actions(masks, rng)
    assert masks[np.arange(100), picks].all() and set(picks[1::2]) == {0, 2}
    assert {opponents.greedy_action(np.array([5, 1, 5]), np.array([1, 1, 1]), rng) for _ in range(40)} == {
        0,
        2,
    }
    assert opponents.greedy_action(np.array([5, 1, 5]), np.array([0, 1, 0]), rng) == 1
