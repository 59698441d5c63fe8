"""Opponents inside the single-agent and vector envs: the `opponent` argument made into a player.

Accepted `opponent` arguments:

- a callable ``(observation, action_mask) -> action``: called with the opponent's own observation;
- a player object (``choose(game, limits) -> move id``, see `hive_envs.players`);
- a player spec string, resolved by `hive_envs.players.make_player` (``"random"``, ``"greedy"``, a
  checkpoint path ``"x.pt"`` (sampled play; torch is imported then, not before), ``"x.pt@N"``,
  ``"uhp:COMMAND"``, and every kind registered there later).

A player chooses on the env's protocol game (``aec.game``) and its move is mapped to an action by the
env's encoder; in a vector env it chooses per row of the batch, or in one batched call when it has one
(random, greedy, a network's raw policy). Players are reseeded from the env's ``np_random`` on every
reset, so seeded episodes replay.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hive_envs.players import PlayerContext, batch_actions, make_player

ObservationPolicy = Callable[[np.ndarray, np.ndarray], int]


class Opponent:
    """An `opponent` argument resolved for an env (see the module docstring)."""

    def __init__(self, spec, game_name: str | None = None):
        self.spec = spec
        self._policy: ObservationPolicy | None = None
        self._player = None
        if callable(spec) and not hasattr(spec, "choose"):
            self._policy = spec
            return
        try:  # env opponents sample from a checkpoint's policy (a fixed argmax would repeat games)
            self._player = make_player(spec, PlayerContext(game=game_name, sample=True))
        except ValueError as error:
            raise ValueError(f"opponent {spec!r}: {error}") from None

    def seed(self, seed: int) -> None:
        if self._player is not None:
            self._player.seed(seed)

    def action(self, aec) -> int:
        """The opponent's action for the agent to move in the AEC env ``aec`` (a `GameAECEnv`)."""
        if self._policy is None:
            return aec.move_to_action(self._player.choose(aec.game))
        observed = aec.observe(aec.agent_selection)
        action = self._policy(observed["observation"], observed["action_mask"])
        return self._checked(action, aec._mask)

    def actions(self, batch, rows: np.ndarray) -> np.ndarray:
        """The opponent's actions for the listed rows of ``batch`` (each row's player to move)."""
        if self._policy is None:
            return batch_actions(self._player, batch, rows)
        out = np.empty(rows.size, np.int64)
        for i, g in enumerate(rows):
            mask = batch.action_mask[g]
            out[i] = self._checked(self._policy(batch.observation[g].copy(), mask.copy()), mask)
        return out

    def _checked(self, action, mask: np.ndarray) -> int:
        try:
            a = int(action)
        except (TypeError, ValueError):
            a = -1
        if not (0 <= a < mask.size and mask[a]):
            raise ValueError(f"opponent {self.spec!r} chose illegal action {action!r}")
        return a

    def close(self) -> None:
        if self._player is not None:
            self._player.close()
