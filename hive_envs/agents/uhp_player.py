"""A checkpoint as a player: raw policy or PUCT search (`search.py`), for Hive and Hoyito.

`AgentPlayer.load(path, simulations=64)` reads a checkpoint from `training/` and picks moves:

- ``choose(game, limits) -> move`` in the engine's own form (Hive move id, Hoyito hole);
- ``choose_move(game, limits) -> str``: the UHP `Player` protocol (`hive_envs.hive.players`), so
  ``UHPEngine(player=AgentPlayer.load(...))`` answers ``bestmove`` with the agent.

How limits are used when ``simulations > 0`` (search on): plain ``bestmove`` runs ``simulations``
simulations; ``bestmove depth N`` runs them with the tree cut at N plies (0 = raw policy);
``bestmove time hh:mm:ss`` searches until 90% of the time is spent (minus 50 ms for the answer).
With ``simulations = 0`` every request is answered by the raw policy at once. Moves are the argmax
of the policy / most visited move; ``sample=True`` samples from the policy / in proportion to visits.

The UHP ``options`` command lists and sets ``Simulations`` and ``SampleMoves`` (`uhp_options`).
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace

import numpy as np

from hive_envs.agents.search import NetworkEvaluator, SearchConfig, choose, search
from hive_envs.agents.views import view_for_checkpoint

MAX_SIMULATIONS = 100_000
TIME_SHARE, TIME_RESERVE_S = 0.9, 0.05


class AgentPlayer:
    """A policy-value network behind a game view, with optional search (see the module docstring)."""

    def __init__(
        self,
        network,
        view,
        config: SearchConfig,
        sample: bool = False,
        seed: int | None = None,
        name: str = "agent",
    ):
        self.view = view
        self.evaluator = NetworkEvaluator(network, view)
        self.config = config
        self.sample = bool(sample)
        self.name = name
        self._rng = np.random.default_rng(seed)

    @classmethod
    def load(
        cls,
        path: str | os.PathLike,
        simulations: int = 64,
        c_puct: float = 1.5,
        sample: bool = False,
        seed: int | None = None,
    ) -> AgentPlayer:
        """Load a checkpoint (ValueError naming the path and the reason when it cannot be used)."""
        from hive_envs.agents.checkpoint import load_checkpoint, network_from_checkpoint

        config = SearchConfig(simulations=simulations, c_puct=c_puct)
        data = load_checkpoint(path)
        try:
            view = view_for_checkpoint(data)
        except ValueError as error:
            raise ValueError(f"checkpoint {str(path)!r}: {error}") from None
        return cls(
            network_from_checkpoint(data), view, config, sample, seed, name=os.path.basename(str(path))
        )

    # -- choosing -------------------------------------------------------------------------------
    def config_for(self, limits) -> SearchConfig:
        """The search budget for UHP limits (an object with ``depth`` and ``time_s``, or None)."""
        depth = getattr(limits, "depth", None)
        time_s = getattr(limits, "time_s", None)
        if self.config.simulations == 0:
            return self.config
        if depth is not None:
            return replace(self.config, max_depth=int(depth))
        if time_s is not None:
            budget = max(0.0, TIME_SHARE * float(time_s) - TIME_RESERVE_S)
            return replace(self.config, simulations=MAX_SIMULATIONS, time_s=budget)
        return self.config

    def choose(self, game, limits=None) -> int:
        """A legal move of ``game`` in the engine's form; ``game`` is left unchanged."""
        self.view.check_game(game)
        if game.is_terminal:
            raise ValueError("the game is over; there is no move to choose")
        config = self.config_for(limits)
        if config.simulations == 0 or config.max_depth == 0:
            moves, priors, _ = self.evaluator(game)
            weights = priors
            visits = np.zeros(len(moves), dtype=np.int64)
        else:
            moves, visits, priors = search(self.view.searchable(game), self.evaluator, config)
            weights = visits / visits.sum()
        if self.sample:
            return int(moves[self._rng.choice(len(moves), p=weights / weights.sum())])
        return choose(moves, visits, priors)

    def choose_move(self, game, limits=None) -> str:
        """UHP `Player` protocol: the chosen move as a UHP move string (a game the agent was not trained
        for is a UHP error, answered ``err``)."""
        try:
            self.view.check_game(game)
        except ValueError as error:
            from hive_envs.hive.uhp import UHPError

            raise UHPError(str(error)) from None
        return self.view.move_name(game, self.choose(game, limits))

    # -- UHP options ----------------------------------------------------------------------------
    def uhp_options(self) -> list[tuple[str, str, bool | int, bool | int, int, int]]:
        """(name, type, value, default, min, max) of each setting the UHP ``options`` command shows."""
        return [
            ("Simulations", "int", self.config.simulations, 64, 0, MAX_SIMULATIONS),
            ("SampleMoves", "bool", self.sample, False, 0, 0),
        ]

    def set_uhp_option(self, name: str, value: bool | int) -> None:
        if name == "Simulations":
            self.config = replace(self.config, simulations=int(value))
        elif name == "SampleMoves":
            self.sample = bool(value)
        else:
            raise ValueError(f"unknown agent option {name!r}")


class UnloadedAgent:
    """Stands in for an agent whose checkpoint could not be loaded: the UHP engine keeps running and
    answers every ``bestmove`` with ``err`` and the reason (the protocol forbids dying)."""

    def __init__(self, path: str, reason: str):
        self.path, self.reason = path, reason

    def choose_move(self, game, limits=None) -> str:
        from hive_envs.hive.uhp import UHPError

        raise UHPError(f"no agent: cannot load {self.path!r}: {self.reason}")


def load_uhp_agent(
    path: str, simulations: int = 64, c_puct: float = 1.5, sample: bool = False, seed: int | None = None
):
    """An `AgentPlayer` for a Hive checkpoint, or an `UnloadedAgent` carrying the reason it failed."""
    try:
        player = AgentPlayer.load(path, simulations=simulations, c_puct=c_puct, sample=sample, seed=seed)
    except Exception as error:  # noqa: BLE001 - any failure (bad file, wrong game) is reported, not raised
        return _unloaded(path, " ".join(str(error).split()) or type(error).__name__)
    if player.view.game_name != "hive":
        return _unloaded(path, f"it is a {player.view.game_name} agent; the UHP engine plays Hive")
    _warm_up(player)
    return player


def _warm_up(player: AgentPlayer) -> None:
    """A few simulations on an empty board, so that the compiled kernels load now and the first timed
    ``bestmove`` is not spent loading them."""
    from hive_envs.hive import HiveGame

    search(
        player.view.searchable(HiveGame(player.view.game_type)), player.evaluator, SearchConfig(simulations=8)
    )


def _unloaded(path: str, reason: str) -> UnloadedAgent:
    print(f"hive_envs.uhp: cannot load agent {path!r}: {reason}", file=sys.stderr)
    return UnloadedAgent(path, reason)
