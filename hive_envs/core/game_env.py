"""`GameAECEnv`: the PettingZoo AEC env of any protocol game plus its encoder.

A game brings two things: a protocol game (`hive_envs.core.game.Game`, made fresh by the env's
``_make_game``) and an encoder with this interface (``HiveEncoding``, ``HoyitoEncoding``)::

    encoder.num_actions, encoder.observation_shape, encoder.observation_dtype
    encoder.observation_bounds() -> (low, high)
    encoder.observe(game, seat, out)          # seat's observation into out
    encoder.write_mask(game, out) -> count    # the mover's legal actions (int8 0/1); count or None
    encoder.legal_actions(game) -> (move ids, actions)   # the mover's legal moves, aligned
    encoder.action_to_move(game, action) -> move id      # for the player to move
    encoder.move_to_action(game, move_id) -> action
    encoder.label, encoder.describes(game), encoder.label_of(game)   # agents' checks (OneGameEncoder)

Everything else of an env comes from here and from `MaskedAECEnv`: stepping (``play_id`` of the
decoded action), the seat to move, the end and its rewards (``game.result``), the greedy action
values (``game.greedy_move_scores``) and move names (``game.move_name``). A subclass adds its
options, renderings and final infos.

Optional reward shaping (``shaping``, a `hive_envs.core.shaping.Shaping`; None = off): the extra
reward of a seat's transition is added to that seat's entry of the step's ``rewards`` when its
next decision arrives or the game ends (`hive_envs.core.shaping`), so an agent's ``last()`` reward,
summed over its decisions, telescopes. ``infos[agent]["raw_reward"]`` then holds the unshaped
reward of the step (the +1 / -1 / 0 at the end, else 0); ``raw_rewards`` the same for both agents.
"""

from __future__ import annotations

import numpy as np

from hive_envs.core.aec import MaskedAECEnv
from hive_envs.core.game import check_integer
from hive_envs.core.shaping import Shaping, ShapingLedger

KERNEL_INT_LIMIT = 2**62  #: move ids beyond it are no move of any game, and would overflow an int64
_ROW = np.zeros(1, dtype=np.int64)  # the one game of an AEC env, as a ledger row


class GameAECEnv(MaskedAECEnv):
    """The AEC env of ``self.game`` (a protocol game) through ``encoder``; see the module docstring."""

    def __init__(self, encoder, render_mode: str | None = None, shaping: Shaping | None = None):
        self.encoder = encoder
        low, high = encoder.observation_bounds()
        super().__init__(encoder.num_actions, low, high, encoder.observation_dtype, render_mode)
        self.game = self._make_game()
        self._over = self.game.is_terminal
        self.shaping = shaping
        self._ledger = None if shaping is None else ShapingLedger(shaping, 1)
        self.raw_rewards = dict.fromkeys(self.possible_agents, 0.0)

    # ----------------------------------------------------------------- reward shaping
    def reset(self, seed=None, options=None):
        super().reset(seed=seed, options=options)
        if self._ledger is not None:
            self._ledger.clear()
            self._decision_arrives(self._ledger)
            self.raw_rewards = dict.fromkeys(self.agents, 0.0)

    def _play(self, action: int) -> None:
        super()._play(action)
        ledger = self._ledger
        if ledger is not None:
            self._pay_shaping(ledger.close(_ROW)[0] if self._over else self._decision_arrives(ledger))

    def _decision_arrives(self, ledger: ShapingLedger) -> np.ndarray:
        """Per seat, the extra reward of the transition the mover's new decision closes."""
        seat = self.game.to_move
        pay = np.zeros(2)
        pay[seat] = ledger.decide(_ROW, np.array([seat]), np.array([self.game.potential(seat)]))[0]
        return pay

    def _pay_shaping(self, pay: np.ndarray) -> None:
        """Add ``pay`` (per seat) to this step's rewards (and to what `last()` returns); record the raw."""
        self.raw_rewards = dict(self.rewards)
        for seat, agent in enumerate(self.possible_agents):
            if agent in self.rewards:
                self.rewards[agent] += float(pay[seat])
                self._cumulative_rewards[agent] += float(pay[seat])
                self.infos[agent] = {**self.infos[agent], "raw_reward": self.raw_rewards[agent]}

    def close_shaping(self) -> np.ndarray:
        """End the game's shaping now (a forfeit): per seat, the closing extra reward (zeros when off)."""
        return np.zeros(2) if self._ledger is None else self._ledger.close(_ROW)[0]

    def _shape_forfeit(self) -> None:
        if self._ledger is not None:
            self._pay_shaping(self.close_shaping())

    def _make_game(self):
        """A new game at the start position (the subclass's options)."""
        raise NotImplementedError

    # ----------------------------------------------------------------- MaskedAECEnv hooks
    def _new_game(self) -> None:
        self.game = self._make_game()
        self._over = self.game.is_terminal

    def _apply(self, action: int) -> None:
        self.game.play_id(self.encoder.action_to_move(self.game, action))
        self._over = self.game.is_terminal  # read once per ply; the base asks several times

    def _seat_to_move(self) -> int:
        return self.game.to_move

    def _is_over(self) -> bool:
        return self._over

    def _write_mask(self, out: np.ndarray) -> int | None:
        return self.encoder.write_mask(self.game, out)

    def _write_observation(self, seat: int, out: np.ndarray) -> None:
        self.encoder.observe(self.game, seat, out)

    def _outcome(self) -> tuple[float, float]:
        result = self.game.result
        return result, -result + 0.0

    # ----------------------------------------------------------------- moves and actions
    def action_to_move(self, action) -> int:
        """The engine move id of a legal action of the agent to move (ValueError otherwise)."""
        return self.encoder.action_to_move(self.game, self._legal_action(action))

    def move_to_action(self, move_id: int) -> int:
        """The action index of a legal engine move of the agent to move (ValueError otherwise)."""
        move = check_integer(move_id, "move id")
        in_kernel_range = -KERNEL_INT_LIMIT < move < KERNEL_INT_LIMIT  # encoders' kernels take int64
        action = self.encoder.move_to_action(self.game, move) if in_kernel_range else -1
        if self._over or not 0 <= action < self.num_actions or not self._mask[action]:
            raise ValueError(f"move {move_id!r} is not legal now ({self._legal_count} legal actions)")
        return action

    def action_to_name(self, action) -> str:
        """The move name (`game.move_name`) of a legal action of the agent to move."""
        return self.game.move_name(self.action_to_move(action))

    def name_to_action(self, name: str) -> int:
        """The action index of a move name legal for the agent to move (ValueError otherwise)."""
        if not isinstance(name, str):
            raise ValueError(f"move must be a move name (str), got {name!r}")
        return self.move_to_action(self.game.move_id(name))

    def action_values(self) -> np.ndarray:
        """The game's 1-ply greedy score of each action for the player to move (-inf where illegal)."""
        values = np.full(self.num_actions, -np.inf)
        _, actions = self.encoder.legal_actions(self.game)
        values[actions] = self.game.greedy_move_scores()[1]  # both in legal_move_ids() order
        return values

    def _legal_action(self, action) -> int:
        a = self._action_index(action)
        if not 0 <= a < self.num_actions:
            raise ValueError(f"action {a} is out of range [0, {self.num_actions})")
        if self._over or not self._mask[a]:
            raise ValueError(
                f"action {a} is not legal in the current position ({self._legal_count} legal actions); "
                f"record {self.game.record()}"
            )
        return a
