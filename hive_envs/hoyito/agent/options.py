"""The options of Hoyito's ``hoyito_lookahead`` network kind: what a config's ``network_options:`` holds.

    network: hoyito_lookahead
    hidden_sizes: [128, 128]    # the mlp trunk's widths (`hive_envs.core.network_kind.Trunk`)
    network_options:
      features: 2               # 1: the two-ply features; 2: plus an alpha-beta search after each move
      search_depth: 7           # features 2: plies that search looks ahead
      board_values_games: 2048  # features 2: fit the search's learned board values to this many games first

Torch-free: configs are checked with it before anything is built. Earlier versions named these
``hoyito_features``, ``hoyito_search_depth`` and ``hoyito_board_values_games`` at the config's top
level (still read, with a warning).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hive_envs.core.network_kind import NetworkOptions, Trunk, check_choice, check_int

DEFAULT_SEARCH_DEPTH = 5
"""Plies searched after each move by feature set 2 (`hive_envs.hoyito.agent.features`)."""
MAX_SEARCH_DEPTH = 20
"""The deepest search a config asks for: the alpha-beta's own cap (`hive_envs.hoyito.search.alphabeta.MAX_DEPTH`,
written out here so that checking a config loads no numba; a test keeps them equal)."""


@dataclass(frozen=True)
class HoyitoLookaheadOptions(NetworkOptions):
    """``features``: the rule feature set, 1 (the two-ply features, 6 per action) or 2 (plus an
    alpha-beta search of ``search_depth`` plies after each move, 8 per action); ``board_values_games``
    (features 2): at the start of a new run, fit the learned board values its search adds to the
    evaluation to this many self-play games of ``alphabeta:4`` (within the run's time;
    `hive_envs.hoyito.agent.board_values`), 0 for the hand evaluation alone."""

    features: int = 1
    search_depth: int = DEFAULT_SEARCH_DEPTH
    board_values_games: int = 0

    def __post_init__(self) -> None:
        owner = "network 'hoyito_lookahead'"
        check_choice(owner, "features", self.features, (1, 2))
        check_int(owner, "search_depth", self.search_depth, 1, MAX_SEARCH_DEPTH)
        check_int(owner, "board_values_games", self.board_values_games, 0)
        searched = {
            "search_depth": self.search_depth != DEFAULT_SEARCH_DEPTH,
            "board_values_games": self.board_values_games != 0,
        }
        for name, given in searched.items():
            if given and self.features != 2:
                raise ValueError(
                    f"{owner} option {name!r} is for features 2, the feature set that searches (got "
                    f"{name} {getattr(self, name)}, features {self.features})"
                )

    def spec(self, trunk: Trunk) -> dict[str, Any]:
        spec: dict[str, Any] = {"hidden_sizes": list(trunk.hidden_sizes)}
        if self.features != 1:  # set 1: as specs before set 2
            spec.update(features=self.features, search_depth=self.search_depth)
        if self.board_values_games:
            spec["board_values"] = True
        return spec

    @property
    def rule_value(self) -> bool:
        return self.features == 2
