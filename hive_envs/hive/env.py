"""The Hive PettingZoo AEC env (`raw_env`); documentation in `hive_envs.hive_v0`."""

from __future__ import annotations

import os
from typing import ClassVar

import numpy as np

from hive_envs.core.aec import MaskedAECEnv
from hive_envs.hive import HiveGame, render
from hive_envs.hive import encoding as E
from hive_envs.hive.engine.options import HiveOptions
from hive_envs.hive.engine.state import I_STATUS, I_TO_MOVE

_REWARDS = {"WhiteWins": (1.0, -1.0), "BlackWins": (-1.0, 1.0), "Draw": (0.0, 0.0)}


class raw_env(MaskedAECEnv):
    """Hive AEC env; options `expansions`, `tournament_opening`, `max_turns`, `repetition_draw`."""

    metadata: ClassVar[dict] = {**MaskedAECEnv.metadata, "name": "hive_v0"}

    def __init__(
        self,
        expansions: str = "",
        tournament_opening: bool = True,
        max_turns: int = 300,
        repetition_draw: bool = False,
        render_mode: str | None = None,
    ):
        self.options = options = HiveOptions(expansions, tournament_opening, max_turns, repetition_draw)
        self.game = HiveGame.from_options(options)
        self.encoding = enc = E.make_encoding(options.expansions)
        super().__init__(
            enc.num_actions, np.zeros(enc.obs_shape, np.uint8), enc.observation_high(), np.uint8, render_mode
        )
        self._grid, self._n, self._slot_of, self._engine_slot = (
            enc.grid,
            enc.tiles_per_colour,
            enc.slot_of,
            enc.engine_slot,
        )
        self._kinds = enc.kinds
        # Hive frame of the current ply, written with the mask.
        self._frame = np.zeros(E.FRAME_SIZE, dtype=np.int32)
        self._window = None
        self._start = None  # game to start from on the next reset (options["gamestring"])

    # ----------------------------------------------------------------- game hooks
    def reset(self, seed=None, options=None):
        """Start a new game; ``options={"gamestring": "Base;InProgress;..."}`` starts from that position."""
        self._start = None
        if options and options.get("gamestring") is not None:
            o = self.options
            game = HiveGame.from_gamestring(
                options["gamestring"], o.tournament_opening, o.max_turns, o.repetition_draw
            )
            if game.game_type != o.game_type:
                raise ValueError(f"gamestring is a {game.game_type} game; this env plays {o.game_type}")
            if game.is_terminal:
                raise ValueError(f"gamestring describes a finished game ({game.outcome}); nothing to play")
            self._start = game
        super().reset(seed=seed, options=options)

    def _new_game(self):
        self.game = self._start if self._start is not None else HiveGame.from_options(self.options)
        self._start = None
        self._s = self.game.state  # read-only view of the engine's state array, updated in place
        self._over = bool(self._s[I_STATUS] != 0)

    def _apply(self, action):
        move = E.action_to_move_id(self._s, action, self._frame, self._grid, self._n, self._engine_slot)
        self.game.play_id(int(move))
        self._over = bool(self._s[I_STATUS] != 0)  # read once per ply; the base asks several times

    def _seat_to_move(self):
        return int(self._s[I_TO_MOVE])

    def _is_over(self):
        return self._over

    def _write_mask(self, out):
        """Write the mover's mask and the frame of this ply; return the number of legal actions."""
        ids = self.game.valid_move_ids()
        return E.encode_mask(self._s, ids, len(ids), self._frame, self._grid, self._n, self._slot_of, out)

    def _write_observation(self, seat, out):
        E.encode_observation(self._s, seat, self._grid, self._n, self._slot_of, self._kinds, out)

    def _outcome(self):
        return _REWARDS[self.game.outcome]

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
        a = self._legal_action(action)
        g = self.game
        E.hive_frame(g.state, self._grid, self._frame)
        return g.move_id_to_uhp(
            int(E.action_to_move_id(g.state, a, self._frame, self._grid, self._n, self._engine_slot))
        )

    def uhp_to_action(self, move: str) -> int:
        """Action index of a UHP move string legal for the agent to move (ValueError otherwise)."""
        if not isinstance(move, str):
            raise ValueError(f"move must be a UHP move string, got {move!r}")
        g = self.game
        move_id = g.uhp_to_move_id(move)
        E.hive_frame(g.state, self._grid, self._frame)
        return int(E.move_id_to_action(g.state, move_id, self._frame, self._grid, self._n, self._slot_of))

    def _legal_action(self, action) -> int:
        a = self._action_index(action)
        if not 0 <= a < self.num_actions:
            raise ValueError(f"action {a} is out of range [0, {self.num_actions})")
        if self.game.is_terminal or not self._mask[a]:
            raise ValueError(
                f"action {a} is not legal in the current position ({self._legal_count} legal actions); "
                f"GameString {self.game.gamestring}"
            )
        return a

    # ----------------------------------------------------------------- greedy opponent
    def action_values(self) -> np.ndarray:
        """1-ply greedy score of each action for the player to move (-inf where illegal).

        Score (from `hive_envs.hive.players.greedy_scores`): +100 a win, -100 a loss, 0 a draw, else
        (occupied neighbours of the opponent's Queen) - (occupied neighbours of the mover's Queen).
        """
        values = np.full(self.num_actions, -np.inf)
        ids, scores = self.game.greedy_move_scores()
        actions = np.empty(len(ids), dtype=np.int64)
        E.hive_frame(self._s, self._grid, self._frame)
        E.actions_of_moves(self._s, ids, len(ids), self._frame, self._grid, self._n, self._slot_of, actions)
        values[actions] = scores
        return values


def has_display() -> bool:
    """Whether a window can be opened (an X / Wayland display, or Windows)."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or os.name == "nt"
