"""The Hoyito II PettingZoo AEC env (`raw_env`); documentation in `hive_envs.hoyito_v0`."""

from __future__ import annotations

from typing import ClassVar

from hive_envs.core.aec import MaskedAECEnv
from hive_envs.core.game_env import GameAECEnv
from hive_envs.core.shaping import parse_shaping
from hive_envs.hoyito import render
from hive_envs.hoyito.encoding import HoyitoEncoding
from hive_envs.hoyito.engine.game import POTENTIAL_NAME, HoyitoGame
from hive_envs.hoyito.engine.options import HoyitoOptions


class raw_env(GameAECEnv):
    """Hoyito II AEC env; keyword options as `HoyitoGame` plus `render_mode` and the opt-in reward
    shaping `reward_shaping` ("captured_margin"), `shaping_coef`, `shaping_gamma`."""

    metadata: ClassVar[dict] = {**MaskedAECEnv.metadata, "name": "hoyito_v0"}

    def __init__(
        self,
        holes_per_row=6,
        seeds_per_hole=4,
        max_laps=1000,
        no_capture_limit=None,
        render_mode=None,
        reward_shaping=None,
        shaping_coef=1.0,
        shaping_gamma=1.0,
    ):
        self.options = HoyitoOptions(holes_per_row, seeds_per_hole, max_laps, no_capture_limit)
        shaping = parse_shaping(POTENTIAL_NAME, reward_shaping, shaping_coef, shaping_gamma)
        super().__init__(HoyitoEncoding(self.options), render_mode, shaping)

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
