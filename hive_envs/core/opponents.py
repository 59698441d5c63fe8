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

Checks. An opponent (player or callable) with a ``check_game(game)`` method, such as a checkpoint
player or a `load_policy` callable, is checked against the env's game when the env is made: a
checkpoint of another game or other options (another board, other limits) is refused then, not
mid-episode. A callable's action must be an integer (`hive_envs.core.game.as_integer`: 2.7 or True
are refused, never rounded) that is legal now; a player's move must be legal. Every failure raises
ValueError naming the opponent and what it chose, at the opponent's own move.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from hive_envs.core.game import as_integer
from hive_envs.players import PlayerContext, batch_actions, make_player

ObservationPolicy = Callable[[np.ndarray, np.ndarray], int]


class Opponent:
    """An `opponent` argument resolved for an env (see the module docstring)."""

    def __init__(self, spec, game):
        """``game``: the env's protocol game (its name picks checkpoints; ``check_game`` runs on it)."""
        self.spec = spec
        self._policy: ObservationPolicy | None = None
        self._player = None
        if callable(spec) and not hasattr(spec, "choose"):
            self._policy = spec
        else:
            try:  # env opponents sample from a checkpoint's policy (a fixed argmax would repeat games)
                self._player = make_player(spec, PlayerContext(game=game.game_name, sample=True))
            except ValueError as error:
                raise ValueError(f"opponent {spec!r}: {error}") from None
        check_game = getattr(self._player or self._policy, "check_game", None)
        if check_game is not None:
            try:
                check_game(game)
            except ValueError as error:
                self.close()
                raise ValueError(f"opponent {spec!r}: {error}") from None

    def seed(self, seed: int) -> None:
        if self._player is not None:
            self._player.seed(seed)

    def action(self, aec) -> int:
        """The opponent's action for the agent to move in the AEC env ``aec`` (a `GameAECEnv`)."""
        if self._policy is None:
            move = self._player.choose(aec.game)
            try:
                return aec.move_to_action(move)
            except ValueError as error:
                raise ValueError(f"opponent {self.spec!r} chose move {move!r}: {error}") from None
        observed = aec.observe(aec.agent_selection)
        action = self._policy(observed["observation"], observed["action_mask"])
        return self._checked(action, aec._mask)

    def actions(self, batch, rows: np.ndarray) -> np.ndarray:
        """The opponent's actions for the listed rows of ``batch`` (each row's player to move)."""
        if self._policy is None:
            try:
                return batch_actions(self._player, batch, rows)
            except ValueError as error:  # a move that is not legal in its row
                raise ValueError(f"opponent {self.spec!r}: {error}") from None
        out = np.empty(rows.size, np.int64)
        for i, g in enumerate(rows):
            mask = batch.action_mask[g]
            out[i] = self._checked(self._policy(batch.observation[g].copy(), mask.copy()), mask)
        return out

    def _checked(self, action, mask: np.ndarray) -> int:
        a = as_integer(action)
        if a is None or not (0 <= a < mask.size and mask[a]):
            legal = np.flatnonzero(mask)
            shown = ", ".join(map(str, legal[:20])) + (", ..." if legal.size > 20 else "")
            raise ValueError(
                f"opponent {self.spec!r} chose action {action!r}, which is not a legal action "
                f"(an integer with mask 1; {legal.size} legal: {shown})"
            )
        return a

    def close(self) -> None:
        if self._player is not None:
            self._player.close()
