"""Gymnasium envs for Hoyito II: `gym.make("hive_envs/Hoyito-v0")` and its vector version.

    env = gym.make("hive_envs/Hoyito-v0", opponent="greedy", learner_seat="random")
    vec = gym.make_vec("hive_envs/Hoyito-v0", num_envs=1024)

Observation: the Box of `hive_envs.hoyito_v0` (float32, 2n + 4 entries, the learner's view);
action k = the learner's k-th hole from its left; `action_masks()` gives the legal ones.
Options: the game options of `HoyitoGame`, `opponent` ("random", "greedy", a callable
`(observation, action_mask) -> action`, a player, or any player spec of `hive_envs.players`; see
`hive_envs.core.opponents`), `learner_seat` (0, 1 or "random" per episode), `render_mode`, and the
opt-in reward shaping of `hoyito_v0` (`reward_shaping="captured_margin"`, `shaping_coef`,
`shaping_gamma`). `rule_features=True` (Hive's per-action feature observation) is refused here with a
ValueError: Hoyito has none.
"""

from __future__ import annotations

from hive_envs.core.shaping import SHAPING_OPTIONS
from hive_envs.core.single_agent import GameOptionsEnv
from hive_envs.core.vector import BatchVectorEnv
from hive_envs.games import check_option_names
from hive_envs.hoyito.batch import HoyitoBatch
from hive_envs.hoyito.definition import HOYITO
from hive_envs.hoyito.encoding import observation_bounds
from hive_envs.hoyito.env import raw_env


class HoyitoEnv(GameOptionsEnv):
    """One learner seat of Hoyito II against an opponent inside the env (``rule_features=True`` is
    refused: Hoyito has no rule-feature observation)."""

    definition = HOYITO
    aec_env = raw_env


class HoyitoVectorEnv(BatchVectorEnv):
    """`num_envs` learner seats of Hoyito II stepped together by `HoyitoBatch`, opponents inside."""

    def __init__(
        self, num_envs=1, opponent="random", learner_seat=0, parallel=False, rule_features=False, **options
    ):
        check_option_names("hoyito", options, extra=SHAPING_OPTIONS)
        batch = HoyitoBatch(num_envs, parallel=parallel, **options)
        super().__init__(batch, *observation_bounds(batch.options), opponent, learner_seat, rule_features)
