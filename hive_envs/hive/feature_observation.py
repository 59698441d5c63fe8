"""The Hive Gymnasium envs' ``rule_features=True`` observation: the planes plus per-action rule features.

    env = gym.make("hive_envs/Hive-v0", rule_features=True)        # also gym.make_vec(...)

A framework's own network (SB3, RLlib, CleanRL, TorchRL ...) gets, beside the planes, what the rules
say each legal action does: the features the package's own Hive network reads
(`hive_envs.hive.rule_features`, the one kernel, which `hive_envs.hive.agent.features` runs on
decoded observations; here it runs on the engine state the env already holds, once per learner
decision). Space, a `gymnasium.spaces.Dict`:

=====================  ===================  =====================================================
key                    space                meaning
=====================  ===================  =====================================================
``observation``        Box uint8 (P, C, C)  the planes of `hive_envs.hive_v0`, unchanged
``legal_actions``      Box int64 (K,)       the learner's legal action indices (the engine's move
                       in [0, A]            order), then padding = A (one past the last action)
``action_features``    Box float32 (K, F)   row i: the F = 11 features of ``legal_actions[i]``
                                            (table in `hive_envs.hive.rule_features`: 0 = 1.0
                                            for a real row, 1 = Queen margin after the move / 6,
                                            2-3 = change of each Queen's neighbours / 6, 4-6 = wins
                                            / loses / draws at once, 7 = placement, 8 = the worst
                                            margin the opponent's best reply leaves / 6, 9 = the
                                            opponent can then win, 10 = its reply count / 64);
                                            padding rows all zero
``position_features``  Box float32 (G,)     G = 5: own and opponent's Queen neighbours / 6, the
                                            learner's legal-move count / 64, each Queen in play
=====================  ===================  =====================================================

``K = MAX_MOVES = 4096``, the engine's move-list buffer (`hive_envs.hive.engine.movegen`): the engine
cannot list more legal moves than that, so every legal action the mask allows has its row; no
position is cut. Real positions have far fewer (random and greedy play reach ~150 in Base and ~240
in Base+MLP), so a network should cut each batch to its longest real row (rows with
``action_features[..., 0] == 1``); the price of the fixed cap is memory: ~180 KB of features per
observation (float32), twice the planes as float32. The action mask is `action_masks()`, as without
features (``legal_actions`` lists the same set). Once the game is over (an episode's last
observation) there is no decision: ``legal_actions`` is all padding and both feature arrays are zero.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from hive_envs.hive.encoding import HiveEncoding
from hive_envs.hive.engine.movegen import MAX_MOVES
from hive_envs.hive.engine.workspace import new_workspace
from hive_envs.hive.rule_features import ACTION_FEATURES, POSITION_FEATURES, feature_bounds, states_features

SLOTS = MAX_MOVES
"""K, the number of rows of ``legal_actions`` and ``action_features``."""


class HiveFeatureObservation:
    """Builds the ``rule_features=True`` observation (``space``) of one Hive game type."""

    def __init__(self, encoding: HiveEncoding, planes: spaces.Box):
        self.encoding = encoding
        self.num_actions = encoding.num_actions
        action_low, action_high, position_low, position_high = feature_bounds()
        self.space = spaces.Dict(
            {
                "observation": planes,
                "legal_actions": spaces.Box(0, self.num_actions, (SLOTS,), dtype=np.int64),
                "action_features": spaces.Box(
                    np.broadcast_to(action_low, (SLOTS, ACTION_FEATURES)),
                    np.broadcast_to(action_high, (SLOTS, ACTION_FEATURES)),
                    dtype=np.float32,
                ),
                "position_features": spaces.Box(position_low, position_high, dtype=np.float32),
            }
        )
        self._workspace = new_workspace()

    def observe(self, planes: np.ndarray, game) -> dict[str, np.ndarray]:
        """The observation of the player to move in ``game`` (a `HiveGame`) with these ``planes``."""
        if game.is_terminal:
            batch = self.final(planes[None])
        else:
            batch = self.observe_states(planes[None], game.state[None])
        return {key: value[0] for key, value in batch.items()}

    def observe_states(self, planes: np.ndarray, states: np.ndarray) -> dict[str, np.ndarray]:
        """Batched: row b for the player to move in engine state ``states[b]`` (games not over)."""
        out = self.final(planes)
        counts = np.zeros(len(states), dtype=np.int64)
        enc = self.encoding
        states_features(
            np.array(states, dtype=np.int32),  # a copy: the kernel plays moves on it
            enc.grid, enc.tiles_per_colour, enc.slot_of, self._workspace,
            out["legal_actions"], out["action_features"], out["position_features"], counts,
        )  # fmt: skip
        return out

    def final(self, planes: np.ndarray) -> dict[str, np.ndarray]:
        """Batched observations of finished games: the planes, all padding, zero features."""
        rows = len(planes)
        return {
            "observation": planes,
            "legal_actions": np.full((rows, SLOTS), self.num_actions, dtype=np.int64),
            "action_features": np.zeros((rows, SLOTS, ACTION_FEATURES), dtype=np.float32),
            "position_features": np.zeros((rows, POSITION_FEATURES), dtype=np.float32),
        }
