"""`AecLoopHiveBatch`: the batched contract over N AEC envs stepped one by one in Python.

This is the "before" of the throughput work: what batched rollouts cost when each game is a
PettingZoo AEC env (`hive_envs.hive.env.raw_env`) stepped in a Python loop. The suite uses it for
a comparison row and for PPO self-play steps/s before `HiveBatch`: training plays it as the game
`AEC_LOOP_HIVE` (Hive's definition with this batch, once added with `hive_envs.games.add_game`).
Same buffers and semantics as `HiveBatch` (auto-reset, final observation from the last mover's view);
only ``step(actions)``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from hive_envs.hive.definition import HIVE
from hive_envs.hive.env import raw_env


class AecLoopHiveBatch:
    encoding_version = "v0"
    game_name = "hive"  # as HiveBatch: the hive_lookahead network reads the game and its options

    def __init__(self, num_games: int, **options):
        self.num_games = num_games
        self.envs = [raw_env(**options) for _ in range(num_games)]
        space = self.envs[0].observation_space("player_0")["observation"]
        self.num_actions = self.envs[0].num_actions
        game = self.envs[0].game  # the validated options, as HiveBatch exposes them
        self.options = game.options
        self.expansions, self.tournament_opening, self.max_turns = (
            game.expansions,
            game.tournament_opening,
            game.max_turns,
        )
        self.observation_shape = space.shape
        self.observation_dtype = space.dtype
        self.observation = np.zeros((num_games, *space.shape), dtype=space.dtype)
        self.action_mask = np.zeros((num_games, self.num_actions), dtype=np.int8)
        self.to_move = np.zeros(num_games, dtype=np.int8)
        self.rewards = np.zeros((num_games, 2), dtype=np.float32)
        self.terminated = np.zeros(num_games, dtype=bool)
        self.final_observation = np.zeros_like(self.observation)
        self.episode_length = np.zeros(num_games, dtype=np.int32)
        self.reset()

    def reset(self, seed=None) -> None:
        for g, env in enumerate(self.envs):
            env.reset(seed=None if seed is None else seed + g)
            self._publish(g)
        self.rewards[:] = 0
        self.terminated[:] = False

    def step(self, actions) -> None:
        for g, env in enumerate(self.envs):
            mover = env.agent_selection
            env.step(int(actions[g]))
            over = all(env.terminations.values())
            self.terminated[g] = over
            self.rewards[g] = (env.rewards["player_0"], env.rewards["player_1"]) if over else (0.0, 0.0)
            if over:
                self.final_observation[g] = env.observe(mover)["observation"]
                self.episode_length[g] = env.game.turn_number
                env.reset()
            self._publish(g)

    def _publish(self, g: int) -> None:
        env = self.envs[g]
        obs = env.observe(env.agent_selection)
        self.observation[g] = obs["observation"]
        self.action_mask[g] = obs["action_mask"]
        self.to_move[g] = env.possible_agents.index(env.agent_selection)


AEC_LOOP_HIVE = dataclasses.replace(
    HIVE,
    name="hive_aec_loop",
    batch=AecLoopHiveBatch,
    aec_id=None,
    gym_envs={},
    networks=(),
    rule_networks=(),
)
"""Hive with the AEC-loop batch: the game the PPO benchmark's "before" row trains on (its lookahead
network reads Hive's rules from the batch's ``game_name``)."""
