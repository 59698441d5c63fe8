"""The shared env base on a third game (Nim, `tests.nim`), proving that a game is one protocol class plus an encoder.

Nim: a pile of stones, the mover takes 1..3 (move id k takes k stones), taking the last wins.
For the env only `NimGame` (the game protocol of `hive_envs.core.game`) and `NimEncoder` are written; the AEC env,
spaces, masks, illegal actions, dead steps, rewards, the single-agent env, the opponents (random,
greedy, callables, registered player kinds) and the PUCT search all come from the package.
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from hive_envs.agents.search import SearchConfig, choose, search
from hive_envs.core.aec import wrap_aec
from hive_envs.core.game import Game
from hive_envs.core.single_agent import SingleAgentEnv
from hive_envs.players import BasePlayer, make_player, player_kinds, register_player_kind
from hive_envs.players import specs as player_specs
from tests import nim

PILE = 9


def NimAEC():
    return nim.NimAEC(pile=PILE)


def NimGame():
    return nim.NimGame(nim.NimOptions(pile=PILE))


def test_the_toy_game_is_a_protocol_game():
    assert isinstance(NimGame(), Game)


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
    env.aec.game.stones = 5
    env.aec._after_ply()
    _, reward, terminated, _, _ = env.step(1)  # takes 2, leaves 3: greedy takes them and wins
    assert (reward, terminated) == (-1.0, True)


def test_illegal_action_message_names_action_and_legal_count():
    env = NimAEC()
    env.reset()
    env.game.stones = 2
    env._after_ply()
    with pytest.raises(ValueError, match="action 2 is illegal for player_0; it has 2 legal actions"):
        env.step(2)


def test_moves_names_and_greedy_values_come_from_the_protocol():
    env = NimAEC()
    env.reset()
    assert env.action_to_name(2) == "take 3" and env.name_to_action("take 1") == 0
    env.game.stones = 2
    env._after_ply()
    assert env.action_values().tolist() == [0.0, 1.0, -np.inf]
    with pytest.raises(ValueError, match="not legal"):
        env.action_to_name(2)


def test_search_solves_the_toy_game():
    game = NimGame()  # 9 stones: take 1 and leave a multiple of 4

    def uniform(g):
        moves = g.legal_move_ids()
        return moves, np.full(len(moves), 1 / len(moves)), 0.0

    moves, visits, priors = search(game, uniform, SearchConfig(simulations=600))
    assert choose(moves, visits, priors) == 1 and game.record() == ""


def test_a_registered_player_kind_plays_as_an_env_opponent(monkeypatch):
    monkeypatch.setattr(player_specs, "_KINDS", dict(player_specs._KINDS))
    seen = []

    class TakeMost(BasePlayer):
        def choose(self, game, limits=None):
            seen.append(game.record())
            return int(game.legal_move_ids()[-1])

    register_player_kind("most", lambda arg, context: TakeMost(f"most:{arg}", context.seed), syntax="most:X")
    assert "most" in [kind.name for kind in player_kinds()]
    env = SingleAgentEnv(NimAEC(), opponent="most:1", learner_seat=1)
    env.reset(seed=0)
    assert seen == [""] and env.aec.game.stones == PILE - 3
    with pytest.raises(ValueError, match="already registered"):
        register_player_kind("most", lambda arg, context: None)


def test_unknown_opponent_strings_are_refused_naming_the_specs():
    with pytest.raises(ValueError, match=r"opponent 'ckpt.onnx'.*random \| greedy"):
        SingleAgentEnv(NimAEC(), opponent="ckpt.onnx")
    with pytest.raises(ValueError, match="opponent"):
        SingleAgentEnv(NimAEC(), opponent=42)
    assert make_player("random").name == "random"
