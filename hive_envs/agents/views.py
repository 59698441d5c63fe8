"""How a checkpoint sees a game: the game's encoder under the options the checkpoint was trained with.

A `GameView` pairs a protocol game (`hive_envs.core.game`) with its encoder:

- ``view.encode(game) -> (observation, moves, actions)``: the observation of the player to move, the
  legal moves (engine move ids) and, in the same order, their action indices in the network's space;
- ``view.check_game(game)``: ValueError unless the game is one the checkpoint can play (Hive: the same
  game type; Hoyito: the same options);
- ``view.new_game()``: a game at the start position under the checkpoint's options.

`view_for_checkpoint(data)` builds the view a checkpoint's ``game`` / ``game_options`` call for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hive_envs.core.definition import GameDefinition
from hive_envs.core.game import Game
from hive_envs.games import game_entry


@dataclass(frozen=True)
class GameView:
    entry: GameDefinition
    options: Any
    encoder: Any

    @property
    def game_name(self) -> str:
        return self.entry.name

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return tuple(self.encoder.observation_shape)

    @property
    def num_actions(self) -> int:
        return int(self.encoder.num_actions)

    def new_game(self) -> Game:
        return self.entry.new_game(self.options)

    def check_game(self, game: Game) -> None:
        if not self.encoder.describes(game):
            raise ValueError(
                f"the agent plays {self.encoder.label}; this game is {self.encoder.label_of(game)}"
            )

    def encode(self, game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        observation = np.zeros(self.observation_shape, dtype=self.encoder.observation_dtype)
        self.encoder.observe(game, game.to_move, observation)
        moves, actions = self.encoder.legal_actions(game)
        return observation, moves, actions


def view_for(game: str, options: dict) -> GameView:
    """The view of ``game`` (a name) under keyword ``options`` (the rules, and env options such as Hive's
    ``observation``, which choose the encoder); ValueError for an unknown game."""
    entry = game_entry(game)
    return GameView(entry, entry.parse_options(options), entry.make_encoder(options))


def view_for_checkpoint(data: dict) -> GameView:
    """The view of a loaded checkpoint's game; ValueError for a game no view knows, or spaces that
    do not match what the view computes (a checkpoint from another encoding)."""
    game = data["game"]
    options = {k: v for k, v in dict(data["game_options"]).items() if k != "parallel"}  # a batch setting
    try:
        view = view_for(game, options)
    except ValueError as error:
        raise ValueError(f"checkpoint is for game {game!r}: {error}") from None
    if (
        tuple(data["observation_shape"]) != view.observation_shape
        or int(data["num_actions"]) != view.num_actions
    ):
        raise ValueError(
            f"checkpoint spaces (observation {tuple(data['observation_shape'])}, {data['num_actions']} actions) "
            f"do not match the {game} encoding (observation {view.observation_shape}, {view.num_actions} actions)"
        )
    return view
