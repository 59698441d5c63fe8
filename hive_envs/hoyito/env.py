"""The Hoyito II PettingZoo AEC env (`raw_env`); documentation in `hive_envs.hoyito_v0`."""

from __future__ import annotations

from typing import ClassVar

from hive_envs.core.aec import MaskedAECEnv
from hive_envs.core.game_env import GameAECEnv
from hive_envs.hoyito import render
from hive_envs.hoyito.encoding import HoyitoEncoding
from hive_envs.hoyito.engine.game import HoyitoGame
from hive_envs.hoyito.engine.options import HoyitoOptions


class raw_env(GameAECEnv):
    """Hoyito II AEC env; keyword options as `HoyitoGame` plus `render_mode`."""

    metadata: ClassVar[dict] = {**MaskedAECEnv.metadata, "name": "hoyito_v0"}

    def __init__(
        self, holes_per_row=6, seeds_per_hole=4, max_laps=1000, no_capture_limit=None, render_mode=None
    ):
        self.options = HoyitoOptions(holes_per_row, seeds_per_hole, max_laps, no_capture_limit)
        super().__init__(HoyitoEncoding(self.options), render_mode)

    def _make_game(self) -> HoyitoGame:
        o = self.options
        return HoyitoGame(o.holes_per_row, o.seeds_per_hole, o.max_laps, o.no_capture_limit)

    def _final_info(self):
        winner = self.game.winner
        return {"score": self.game.captured, "winner": None if winner == -1 else self.possible_agents[winner]}

    def _render_text(self):
        return render.render_text(self.game)

    def _render_rgb(self):
        return render.render_rgb(self.game)
