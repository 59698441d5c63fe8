"""Gymnasium vector env for Hive: `gym.make_vec("hive_envs/Hive-v0", num_envs=N)`, over `HiveBatch`.

    vec = gym.make_vec("hive_envs/Hive-v0", num_envs=1024)                 # Base, random opponent
    vec = gym.make_vec("hive_envs/HiveMLP-v0", num_envs=256, opponent="greedy", learner_seat="random")

Each sub-env is one learner seat against an opponent inside, as `gym.make("hive_envs/Hive-v0")`;
all of them advance through `HiveBatch`'s one compiled call per ply (the plumbing, autoreset mode
and infos are those of `hive_envs.core.vector.BatchVectorEnv`). Observation and action spaces are
the single env's, batched; ``infos["action_mask"]`` is not added: read ``vec.action_masks()``.

``observation="pieces"`` gives the piece rows of `hive_envs.hive_v0` instead of the planes (written by
`HiveBatch`'s compiled step), ``rule_features=True`` the Dict observation of `hive_envs.hive.feature_observation` (computed
for every sub-env's learner from the batch's engine states, one compiled call per step), and
``reward_shaping="queen_margin"`` the shaped rewards of `hive_envs.hive_v0`.

Opponents are `hive_envs.core.opponents`'s: ``"random"`` draws one uniformly random legal action per
game with a compiled scan of the mask, ``"greedy"`` is `HiveBatch.greedy_actions`; any other player
chooses on each game (``batch.game(row)``), a callable is called once per game.
"""

from __future__ import annotations

from hive_envs.core.shaping import SHAPING_OPTIONS
from hive_envs.core.vector import BatchVectorEnv
from hive_envs.games import check_option_names
from hive_envs.hive.batch import HiveBatch


class HiveVectorEnv(BatchVectorEnv):
    """`num_envs` learner seats of Hive stepped together by `HiveBatch`, opponents inside."""

    def __init__(
        self, num_envs=1, opponent="random", learner_seat=0, parallel=False, rule_features=False, **options
    ):
        check_option_names("hive", options, extra=SHAPING_OPTIONS)
        batch = HiveBatch(num_envs, parallel=parallel, **options)
        super().__init__(batch, *batch.encoding.observation_bounds(), opponent, learner_seat, rule_features)

    def _feature_observation(self, batch, planes):
        # imported on use: the feature kernel lives in hive_envs.agents, whose package imports torch
        from hive_envs.hive.feature_observation import HiveFeatureObservation

        return HiveFeatureObservation(batch.encoding, planes)
