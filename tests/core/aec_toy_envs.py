"""Toy PettingZoo AEC envs for the adapter's refusal tests: Nim (take 1 or 2 of 5 counters; who takes
the last wins), correct, without a mask, with masks that disagree with the env's own rules, and one
that cannot be copied."""

from __future__ import annotations

import threading
from typing import ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

AGENTS = ["player_0", "player_1"]


class Nim(AECEnv):
    metadata: ClassVar[dict] = {"name": "toy_nim_v0"}

    def __init__(self, counters: int = 5, mask: str = "honest", refusal: str = "raise"):
        """``mask``: "honest", "none" (plain Box observations), or "lies" (also marks taking 3 legal);
        ``refusal``: what the env does with an illegal take: "raise" or "penalise" (loses, as
        TerminateIllegalWrapper's ending)."""
        super().__init__()
        self.counters, self.mask, self.refusal = counters, mask, refusal
        self.possible_agents = list(AGENTS)
        board = spaces.Box(0, counters, (1,), np.int64)
        obs = (
            board
            if mask == "none"
            else spaces.Dict({"observation": board, "action_mask": spaces.Box(0, 1, (3,), np.int8)})
        )
        self.observation_spaces = dict.fromkeys(AGENTS, obs)
        self.action_spaces = {a: spaces.Discrete(3) for a in AGENTS}  # take 1, 2 or 3

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self.agents = list(AGENTS)
        self.left = self.counters
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    def observe(self, agent):
        board = np.array([self.left], dtype=np.int64)
        if self.mask == "none":
            return board
        mask = np.array([self.left >= 1, self.left >= 2, self.mask == "lies"], dtype=np.int8)
        return {"observation": board, "action_mask": mask * (agent == self.agent_selection)}

    def step(self, action):
        agent = self.agent_selection
        other = AGENTS[1 - AGENTS.index(agent)]
        take = int(action) + 1
        if take > min(2, self.left):
            if self.refusal == "raise":
                raise ValueError(f"cannot take {take}")
            EnvLogger.warn_on_illegal_move()
            self.rewards = {agent: -1.0, other: 0.0}
            self.terminations = dict.fromkeys(AGENTS, True)
            return
        self.left -= take
        if self.left == 0:
            self.rewards = {agent: 1.0, other: -1.0}
            self.terminations = dict.fromkeys(AGENTS, True)
        self.agent_selection = other


def honest(**options):
    return Nim(**options)


def no_mask():
    return Nim(mask="none")


def lying_mask():
    return Nim(mask="lies")


def penalising_lying_mask():
    return Nim(mask="lies", refusal="penalise")


def uncopyable():
    """Nim holding a lock, as a drawing env holds pygame's clock: no deep copy of it can be made."""
    env = Nim()
    env.lock = threading.Lock()
    return env
