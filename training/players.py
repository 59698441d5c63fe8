"""Players in batch form: pick one action for each of some rows of a batch of games.

`player.act(batch, rows) -> actions` reads the rows' observation and action mask (and, for
greedy, the batch's own one-move lookahead) and returns an int64 array, one legal action per
row. Players: uniform random, greedy (the game's one-ply heuristic, e.g. Hoyito's largest
immediate capture), and a network (sampled or argmax).
"""

from __future__ import annotations

import numpy as np
import torch

from hive_envs.agents.distributions import MaskedCategorical


def random_legal(action_mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of a (R, A) mask."""
    keys = rng.random(action_mask.shape) * (action_mask > 0)
    return keys.argmax(axis=1).astype(np.int64)


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, batch, rows: np.ndarray) -> np.ndarray:
        return random_legal(batch.action_mask[rows], self.rng)


class GreedyPlayer:
    """The batch's own greedy move (`batch.greedy_actions(rows, rng)`), ties broken at random."""

    name = "greedy"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, batch, rows: np.ndarray) -> np.ndarray:
        if not hasattr(batch, "greedy_actions"):
            raise ValueError(f"{type(batch).__name__} has no greedy player (no greedy_actions method)")
        return np.asarray(batch.greedy_actions(rows, self.rng), dtype=np.int64)


class NetworkPlayer:
    def __init__(
        self, network: torch.nn.Module, name: str, greedy: bool, device: torch.device, seed: int | None = None
    ):
        self.network = network
        self.name = name
        self.greedy = greedy
        self.device = device
        self.generator = torch.Generator(device=device)
        if seed is None:
            self.generator.seed()
        else:
            self.generator.manual_seed(seed)

    @torch.no_grad()
    def act(self, batch, rows: np.ndarray) -> np.ndarray:
        obs = torch.as_tensor(batch.observation[rows], device=self.device)
        mask = torch.as_tensor(batch.action_mask[rows], device=self.device)
        logits, _ = self.network(obs)
        dist = MaskedCategorical(logits, mask)
        actions = dist.mode() if self.greedy else dist.sample(self.generator)
        return actions.cpu().numpy().astype(np.int64)
