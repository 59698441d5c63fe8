"""Gymnasium vector env for Hive: `gym.make_vec("hive_envs/Hive-v0", num_envs=N)`, over `HiveBatch`.

    vec = gym.make_vec("hive_envs/Hive-v0", num_envs=1024)                 # Base, random opponent
    vec = gym.make_vec("hive_envs/HiveMLP-v0", num_envs=256, opponent="greedy", learner_seat="random")

Each sub-env is one learner seat against an opponent inside, as `gym.make("hive_envs/Hive-v0")`;
all of them advance through `HiveBatch`'s one compiled call per ply (the plumbing, autoreset mode
and infos are those of `hive_envs.core.vector.BatchVectorEnv`). Observation and action spaces are
the single env's, batched; ``infos["action_mask"]`` is not added: read ``vec.action_masks()``.

Opponents: ``"random"`` draws one uniformly random legal action per game with a compiled scan
of the mask (the generic `opponents.random_actions` draws a float per action, 12,673+ per game,
which would cost more than the Hive step itself); ``"greedy"`` is `HiveBatch.greedy_actions`;
a callable or a loader-made opponent is called once per game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hive_envs.core.vector import BatchVectorEnv
from hive_envs.hive.batch import HiveBatch

_BLOCK = 256
"""Mask entries summed at a time by `random_legal_actions`."""


@njit(cache=True)
def random_legal_actions(masks, rows, u, out):
    """``out[i]``: a uniformly random legal action of ``masks[rows[i]]``, picked by ``u[i]`` in [0, 1).

    The ``int(u[i] * count)``-th legal action (from 0, in index order) of a row of 0/1 entries,
    never all zeros. One pass sums the row block by block, then only the block holding the chosen
    action is scanned entry by entry: a scan with a branch per entry of a 12,673-entry Hive row
    cost more than the Hive step itself. The sums loop over slices from index 0, which numba
    vectorises (a loop from a computed start index it does not).
    """
    size = masks.shape[1]
    sums = np.empty((size + _BLOCK - 1) // _BLOCK, dtype=np.int64)
    for i in range(rows.shape[0]):
        row = masks[rows[i]]
        count = 0
        for b in range(sums.shape[0]):
            block = row[b * _BLOCK : (b + 1) * _BLOCK]
            in_block = 0
            for a in range(block.shape[0]):
                in_block += block[a]
            sums[b] = in_block
            count += in_block
        pick = int(u[i] * count)
        b = 0
        while pick >= sums[b]:
            pick -= sums[b]
            b += 1
        block = row[b * _BLOCK : (b + 1) * _BLOCK]
        for a in range(block.shape[0]):
            if block[a]:
                if pick == 0:
                    out[i] = b * _BLOCK + a
                    break
                pick -= 1


class HiveVectorEnv(BatchVectorEnv):
    """`num_envs` learner seats of Hive stepped together by `HiveBatch`, opponents inside."""

    def __init__(
        self,
        num_envs=1,
        expansions="",
        tournament_opening=True,
        max_turns=300,
        repetition_draw=False,
        opponent="random",
        learner_seat=0,
        parallel=False,
    ):
        batch = HiveBatch(num_envs, expansions, tournament_opening, max_turns, repetition_draw, parallel)
        enc = batch.encoding
        super().__init__(
            batch, np.zeros(enc.obs_shape, np.uint8), enc.observation_high(), opponent, learner_seat
        )

    def _opponent_actions(self, rows: np.ndarray) -> np.ndarray:
        if self.opponent != "random":
            return super()._opponent_actions(rows)
        out = np.empty(rows.size, np.int64)
        random_legal_actions(self.batch.action_mask, rows, self.np_random.random(rows.size), out)
        return out
