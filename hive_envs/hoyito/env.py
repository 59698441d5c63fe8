"""The Hoyito II PettingZoo AEC env (`raw_env`); documentation in `hive_envs.hoyito_v0`."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from hive_envs.core.aec import MaskedAECEnv
from hive_envs.hoyito import render
from hive_envs.hoyito.encoding import OBS_DTYPE, observation_bounds
from hive_envs.hoyito.engine import kernels as K
from hive_envs.hoyito.engine.game import HoyitoGame


class raw_env(MaskedAECEnv):
    """Hoyito II AEC env; keyword options as `HoyitoGame` plus `render_mode`."""

    metadata: ClassVar[dict] = {**MaskedAECEnv.metadata, "name": "hoyito_v0"}

    def __init__(
        self, holes_per_row=6, seeds_per_hole=4, max_laps=1000, no_capture_limit=None, render_mode=None
    ):
        self.game = HoyitoGame(holes_per_row, seeds_per_hole, max_laps, no_capture_limit)
        self.options = self.game.options
        low, high = observation_bounds(self.options)
        super().__init__(self.options.holes_per_row, low, high, OBS_DTYPE, render_mode)
        o = self.options
        self._n, self._m = o.holes_per_row, o.num_holes
        self._params = (o.holes_per_row, o.max_laps, o.no_capture_limit)
        self._total = o.total_counters

    def _new_game(self):
        K.init_state(self.game.state, self._n, self.options.seeds_per_hole)

    def _apply(self, action):
        s = self.game.state
        n, max_laps, limit = self._params
        K.play(s, s[self._m + K.TURN] * n + action, n, max_laps, limit)

    def _seat_to_move(self):
        return int(self.game.state[self._m + K.TURN])

    def _is_over(self):
        return bool(self.game.state[self._m + K.OVER])

    def _write_mask(self, out):
        K.legal_mask(self.game.state, self._n, out)

    def _write_observation(self, seat, out):
        K.encode(self.game.state, seat, self._n, self._params[2], self._total, out)

    def _outcome(self):
        w = self.game.winner
        return (0.0, 0.0) if w == -1 else ((1.0, -1.0) if w == 0 else (-1.0, 1.0))

    def _final_info(self):
        c0, c1 = self.game.captured
        w = self.game.winner
        return {"score": (c0, c1), "winner": None if w == -1 else self.possible_agents[w]}

    def _render_text(self):
        return render.render_text(self.game)

    def _render_rgb(self):
        return render.render_rgb(self.game)

    def action_values(self) -> np.ndarray:
        """Counters each action would capture now (-1 where illegal): the greedy opponent's choice."""
        return self.game.capture_values()
