"""Gymnasium env for Hive: `gym.make("hive_envs/Hive-v0")`, one learner seat, opponent inside.

    env = gym.make("hive_envs/Hive-v0", expansions="MLP", opponent="greedy", learner_seat="random")
    env = gym.make("hive_envs/HiveMLP-v0")            # the same game type by its convenience id

Observation: the Box of `hive_envs.hive_v0` (uint8 planes (P, C, C), the learner's view; with
`observation="pieces"` the int16 piece rows (2N + 1, 17) documented there); actions
and their decoding (`env.unwrapped.aec.action_to_uhp(a)`, also reachable as
`env.unwrapped.action_to_uhp(a)`) as documented there; `action_masks()` gives the legal ones.
Options: the game options of `hive_v0` (`expansions`, `tournament_opening`, `max_turns`,
`repetition_draw`), `opponent` ("random"; "greedy": 1-ply, the move that wins at once, else the one
maximising (occupied neighbours of the opponent's Queen) - (of its own Queen), ties at random;
a callable `(observation, action_mask) -> action`; a player; or any player spec of
`hive_envs.players` such as a checkpoint path; see `hive_envs.core.opponents`), `learner_seat`
(0 White, 1 Black, or "random" per episode), `render_mode` ("ansi", "rgb_array", "human"),
`observation` ("planes"; "pieces"),
`rule_features` (False; True: a Dict observation of the planes plus each legal action's rule
features, documented in `hive_envs.hive.feature_observation`), and the opt-in reward shaping of
`hive_v0` (`reward_shaping="queen_margin"`, `shaping_coef`, `shaping_gamma`): each step's reward is
then the learner's transition from this decision to its next one, raw + c * (gamma * Phi(s') -
Phi(s)) with Phi = 0 at the end, and `info["raw_reward"]` the raw.
"""

from __future__ import annotations

from hive_envs.core.single_agent import GameOptionsEnv
from hive_envs.hive.definition import HIVE
from hive_envs.hive.env import has_display, raw_env


class HiveEnv(GameOptionsEnv):
    """One learner seat of Hive against an opponent inside the env."""

    definition = HIVE
    aec_env = raw_env

    def _feature_observation(self, aec, planes):
        # imported on use: the feature kernel lives in hive_envs.agents, whose package imports torch
        from hive_envs.hive.feature_observation import HiveFeatureObservation

        return HiveFeatureObservation(aec.encoding, planes)

    def render(self):
        """`human` shows the picture in a window where a display exists (else prints the text board)."""
        if self.render_mode == "human" and has_display():
            self.aec.show_window()
            return None
        return super().render()

    def close(self):
        self.aec.close()

    @property
    def game(self):
        """The engine game (`HiveGame`) being played."""
        return self.aec.game

    def action_to_uhp(self, action) -> str:
        """UHP move string of a legal action of the learner (ValueError otherwise)."""
        return self.aec.action_to_uhp(action)

    def uhp_to_action(self, move: str) -> int:
        """Action index of a UHP move string legal for the learner (ValueError otherwise)."""
        return self.aec.uhp_to_action(move)
