"""The Hive PettingZoo AEC env (`raw_env`); documentation in `hive_envs.hive_v0`."""

from __future__ import annotations

import os
from typing import ClassVar

from hive_envs.core.aec import MaskedAECEnv
from hive_envs.core.env_input import check_reset_options
from hive_envs.core.game_env import GameAECEnv
from hive_envs.core.shaping import parse_shaping
from hive_envs.hive import HiveGame, render
from hive_envs.hive.engine.heuristics import POTENTIAL_NAME
from hive_envs.hive.engine.options import HiveOptions
from hive_envs.hive.observations import make_hive_encoding


class raw_env(GameAECEnv):
    """Hive AEC env; options `expansions`, `tournament_opening`, `max_turns`, `repetition_draw`, the
    opt-in reward shaping `reward_shaping` ("queen_margin"), `shaping_coef`, `shaping_gamma`, and
    `observation` ("planes"; "pieces": the piece-centred observation)."""

    metadata: ClassVar[dict] = {**MaskedAECEnv.metadata, "name": "hive_v0"}

    def __init__(
        self,
        expansions: str = "",
        tournament_opening: bool = True,
        max_turns: int = 300,
        repetition_draw: bool = False,
        render_mode: str | None = None,
        reward_shaping: str | None = None,
        shaping_coef: float = 1.0,
        shaping_gamma: float = 1.0,
        observation: str = "planes",
    ):
        self.options = options = HiveOptions(expansions, tournament_opening, max_turns, repetition_draw)
        shaping = parse_shaping(POTENTIAL_NAME, reward_shaping, shaping_coef, shaping_gamma)
        self.encoding = make_hive_encoding(options.expansions, observation)
        self._window = None
        self._start = None  # game to start from on the next reset (options["gamestring"])
        super().__init__(self.encoding, render_mode, shaping)

    RESET_OPTIONS = ("gamestring",)

    # ----------------------------------------------------------------- game hooks
    def reset(self, seed=None, options=None):
        """Start a new game; ``options={"gamestring": "Base;InProgress;..."}`` starts from that position.

        ValueError (nothing reset) for a bad or finished GameString, one of another game type, or a
        misspelt option key (`hive_envs.core.env_input`)."""
        options = check_reset_options(options, self.RESET_OPTIONS, self.metadata["name"])
        start = None
        if options.get("gamestring") is not None:
            o = self.options
            start = HiveGame.from_gamestring(
                options["gamestring"], o.tournament_opening, o.max_turns, o.repetition_draw
            )
            if start.game_type != o.game_type:
                raise ValueError(f"gamestring is a {start.game_type} game; this env plays {o.game_type}")
            if start.is_terminal:
                raise ValueError(f"gamestring describes a finished game ({start.outcome}); nothing to play")
        self._start = start
        super().reset(seed=seed)

    def _make_game(self) -> HiveGame:
        game, self._start = self._start, None
        return game if game is not None else HiveGame.from_options(self.options)

    def _final_info(self):
        # Not the GameString: formatting ~300 moves costs more than the whole game's encoding;
        # `env.unwrapped.game.gamestring` gives it on demand.
        return {"outcome": self.game.outcome}

    def _render_text(self):
        return render.render_ansi(self.game)

    def _render_rgb(self):
        return render.render_rgb(self.game)

    def render(self):
        """`human` opens a matplotlib window where a display exists (else prints the text board)."""
        if self.render_mode == "human" and has_display():
            self.show_window()
            return None
        return super().render()

    def close(self):
        if self._window is not None:
            import matplotlib.pyplot as plt

            plt.close(self._window[0])
            self._window = None

    def show_window(self):
        """Draw the position in a matplotlib window (opened on first use, then updated)."""
        import matplotlib.pyplot as plt

        picture = self._render_rgb()
        if self._window is None:
            plt.ion()
            fig, ax = plt.subplots(figsize=(6, 6))
            ax.set_axis_off()
            self._window = (fig, ax.imshow(picture))
        else:
            self._window[1].set_data(picture)
        self._window[0].canvas.draw_idle()
        plt.pause(1 / self.metadata["render_fps"])

    # ----------------------------------------------------------------- move names
    def action_to_uhp(self, action) -> str:
        """UHP move string of a legal action of the agent to move (ValueError otherwise)."""
        return self.action_to_name(action)

    def uhp_to_action(self, move: str) -> int:
        """Action index of a UHP move string legal for the agent to move (ValueError otherwise)."""
        return self.name_to_action(move)


def has_display() -> bool:
    """Whether a window can be opened (an X / Wayland display, or Windows)."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or os.name == "nt"
