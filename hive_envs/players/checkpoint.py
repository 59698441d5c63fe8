"""A trained checkpoint as a player: raw policy or PUCT search (`hive_envs.agents.search`), any game.

``AgentPlayer.load(path, simulations=64)`` reads a checkpoint from `training/` (spec ``PATH@64``;
``PATH`` alone is the raw policy; ``move_time_s=S``, spec ``PATH@T=S``: search each move until the time
limit below, however many simulations that is). It imports torch, so `hive_envs.players.specs` imports this
module only when a checkpoint spec is resolved.

- ``choose(game, limits) -> move id`` on a protocol game of the checkpoint's game and options; what
  the choice saw (the search's root: visits, values, policy; or the raw policy) is kept as
  ``last_search`` (`hive_envs.agents.root_summary`) for a tool to show;
- ``act(batch, rows)``: the raw policy is one batched forward pass over the rows' observations (the
  speed ``evaluate.py`` needs); with search, each row's game is searched in turn;
- an `AgentPlayer` made without a view (``view=None``) plays batched only.

How limits are used when ``simulations > 0`` (search on): no limits run ``simulations`` simulations;
``depth N`` runs them with the tree cut at N plies (0 = raw policy); ``time_s`` searches until 95% of
the time is spent (minus 50 ms for the answer), eight leaves per network call (`TIMED_LEAF_BATCH`),
starting no call that would end after that (`search.Deadline`). With ``simulations = 0`` every request is answered by
the raw policy at once. Moves are the argmax of the policy / the most visited move; ``sample=True``
samples from the policy / in proportion to the visits. With ``avoid_repetition`` (on by default),
``choose`` on a Hive game leaves out the moves that return to a position the game has already been
in, unless every move does (`hive_envs.hive.agent.history`: the observation has no history, so the
network cannot see it); the batched ``act`` has no history and plays the network's move as it is.
With ``reuse_tree`` (on by default), a search by time starts from the part of the player's last tree
that the game went on into (`hive_envs.agents.kept_tree`: Hive); a search by simulations always
starts afresh, so ``PATH@N`` makes N simulations a move.

A network whose features run a search of their own (Hive's ``search_depth`` 3 or more) is refused a
search by time (`check_timed`): one call of it can pass any limit. A search by time ends with a tactical check (``tactical_depth``, `TACTICAL_DEPTH` plies by default; 0:
off): the PUCT search gets 88% of the time (`TACTICS_SHARE`), and in the rest the game's alpha-beta
plays a forced win it finds, or passes over a move after which the opponent wins by force
(`hive_envs.agents.tactics`). A search by simulations has no check, so ``PATH@N`` is the PUCT search
alone.

The UHP ``options`` command lists and sets ``Simulations``, ``SampleMoves``, ``AvoidRepetition``,
``ReuseTree`` and ``TacticalDepth`` (`uhp_options`).
"""

from __future__ import annotations

import os
import time
from dataclasses import replace

import numpy as np
import torch

from hive_envs.agents.checkpoint import load_checkpoint, network_from_checkpoint, stored_search
from hive_envs.agents.kept_tree import KeptTree
from hive_envs.agents.policy import policy_actions
from hive_envs.agents.root_summary import RootSummary, mean_values, untempered
from hive_envs.agents.search import NetworkEvaluator, SearchConfig, ranked, search, search_root
from hive_envs.agents.tactics import MAX_TACTICAL_DEPTH, TACTICAL_DEPTH, TacticalCheck
from hive_envs.agents.views import GameView, view_for_checkpoint
from hive_envs.core.batch import check_rows
from hive_envs.core.game import Game
from hive_envs.games import game_entry
from hive_envs.players.base import MAX_SIMULATIONS, BasePlayer, SearchLimits

TIME_SHARE, TIME_RESERVE_S = 0.95, 0.05
"""A search by time starts no network call after 95% of the limit minus 50 ms (0.90 s of 1 s): a move
ends within about 50 ms of the search's share, so it stays under the limit (the moves' times:
docs/experiments/hive_timed_search.md)."""
TACTICS_SHARE = 0.12
"""Of a search by time, the share left to the tactical check (0.11 s of 1 s): its depth-3 searches take
8 ms at the median in a Hive middle game and 0.11 s at the 99th percentile."""

_READ: dict[tuple[str, int, int], dict] = {}
READ_CACHE_SIZE = 8


def read_checkpoint(path: str | os.PathLike) -> dict:
    """`load_checkpoint(path)`, read once per process while the file stays the same (its real path,
    size and modification time; at most `READ_CACHE_SIZE` files kept): an arena worker plays chunk
    after chunk of games with the same players and reads each checkpoint once. The data is shared
    between callers: read it, never change it."""
    try:
        stat = os.stat(path)
    except OSError:
        return load_checkpoint(path)  # its ValueError names the path and the reason
    key = (os.path.realpath(path), stat.st_mtime_ns, stat.st_size)
    if key not in _READ:
        data = load_checkpoint(path)
        if len(_READ) >= READ_CACHE_SIZE:
            del _READ[next(iter(_READ))]
        _READ[key] = data
    return _READ[key]


def set_torch_threads(threads: int) -> None:
    """torch's CPU threads in this process, for the tools that play checkpoints and import torch only
    through this module (the arena's workers, ``hive-evaluate --threads``)."""
    torch.set_num_threads(threads)


TIMED_LEAF_BATCH = 8
"""Leaves per network call in a search by time (`SearchConfig.leaf_batch`, virtual loss): about twice
the simulations of one leaf per call in the same time, and more leaves add little
(`python -m benchmarks.timed_search`; docs/experiments/hive_timed_search.md)."""


def timed(config: SearchConfig, move_time_s: float) -> SearchConfig:
    """``config`` searching for as many simulations as fit in ``move_time_s`` seconds: simulations
    start during 95% of the time minus 50 ms for the answer, `TIMED_LEAF_BATCH` leaves per call."""
    time_s = max(0.0, TIME_SHARE * float(move_time_s) - TIME_RESERVE_S)
    return replace(config, simulations=MAX_SIMULATIONS, time_s=time_s, leaf_batch=TIMED_LEAF_BATCH)


class AgentPlayer(BasePlayer):
    """A policy-value network behind a game view, with optional search (see the module docstring)."""

    def __init__(
        self,
        network: torch.nn.Module,
        view: GameView | None,
        config: SearchConfig,
        sample: bool = False,
        seed: int | None = None,
        name: str = "agent",
        game_name: str | None = None,
        source: str | None = None,
        rule_value_share: float = 0.0,
    ):
        self.network = network
        self.view = view
        self.game_name = view.game_name if view is not None else game_name
        self.source = source or f"the network of agent {name!r}"  # named when its outputs are NaN
        self.evaluator = (
            NetworkEvaluator(network, view, self.source, rule_value_share) if view is not None else None
        )
        self.config = config
        self.sample = bool(sample)
        self.avoid_repetition = True
        self.reuse_tree = True
        self.kept = KeptTree()  # the last timed search's tree (`reuse_tree`)
        self.tactics = TacticalCheck()  # after a search by time (`tactical_depth`)
        self.last_search: RootSummary | None = None  # what the last `choose` saw
        super().__init__(name, seed)

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        self.generator = torch.Generator(device=self.device)
        if seed is None:
            self.generator.seed()
        else:
            self.generator.manual_seed(seed)

    @property
    def device(self) -> torch.device:
        return next(self.network.parameters()).device

    @classmethod
    def load(
        cls,
        path: str | os.PathLike,
        simulations: int = 64,
        c_puct: float = 1.5,
        sample: bool = False,
        seed: int | None = None,
        prior_temperature: float | None = None,
        rule_value_share: float | None = None,
        move_time_s: float | None = None,
    ) -> AgentPlayer:
        """Load a checkpoint (ValueError naming the path and the reason when it cannot be used).
        ``prior_temperature`` and ``rule_value_share``: how the search reads the network
        (`hive_envs.agents.search`); None: the checkpoint's own ``search`` (`stored_search`).
        ``move_time_s``: search every move for that many seconds (as ``time_s`` limits do) instead of
        ``simulations``; such a player is warmed up (`warm_up`) before it is returned, so that its first
        move, too, keeps the limit."""
        data = read_checkpoint(path)
        search = stored_search(
            data, path, prior_temperature=prior_temperature, rule_value_share=rule_value_share
        )
        config = SearchConfig(
            simulations=simulations, c_puct=c_puct, prior_temperature=search["prior_temperature"]
        )
        if move_time_s is not None:
            config = timed(config, move_time_s)
        try:
            view = view_for_checkpoint(data)
        except ValueError as error:
            raise ValueError(f"checkpoint {str(path)!r}: {error}") from None
        name = os.path.basename(str(path))
        source = f"checkpoint {str(path)!r}"
        network = network_from_checkpoint(data)
        game = str(data["game"])
        player = cls(network, view, config, sample, seed, name, game, source, search["rule_value_share"])
        if move_time_s is not None:
            player.check_timed()
            player.warm_up()
        return player

    # -- choosing -------------------------------------------------------------------------------
    def config_for(self, limits: SearchLimits | None) -> SearchConfig:
        """The search budget for the given limits (``depth`` and ``time_s``; None: the default)."""
        depth = getattr(limits, "depth", None)
        time_s = getattr(limits, "time_s", None)
        if self.config.simulations == 0:
            return self.config
        if depth is not None:
            return replace(self.config, max_depth=int(depth))
        if time_s is not None:
            self.check_timed()
            return timed(self.config, time_s)
        return self.config

    @property
    def keeps_move_time(self) -> bool:
        """Whether a move keeps a caller's time limit (`hive_envs.players.base.keeps_move_time`): not
        when the network's features run a search per position (`check_timed`), whose one call can pass
        any limit, whether it is searched or plays its raw policy."""
        return bool(getattr(self.network, "keeps_time_limits", True))

    def check_timed(self) -> None:
        """ValueError when the network cannot be searched by time: its features run a search of their
        own on every position (`HiveLookaheadPolicy` with a ``search_depth`` of 3 or more: tens to
        hundreds of ms each, so one network call can pass any limit the search set itself)."""
        if not self.keeps_move_time:
            raise ValueError(
                f"{self.name!r} cannot search by time: its features run an alpha-beta search on every "
                f"position, which a time limit cannot bound; search it by simulations (PATH@N) or play "
                f"its raw policy (PATH)"
            )

    def check_game(self, game: Game) -> None:
        """ValueError unless the checkpoint can play ``game``: the same game and, through its view, the
        same game type (Hive) or options (Hoyito). Tools call it before play (the envs' opponents)."""
        if game.game_name != self.game_name:
            raise ValueError(f"{self.name!r} is a {self.game_name} agent; this game is {game.game_name}")
        if self.view is not None:
            self.view.check_game(game)

    def choose(self, game: Game, limits: SearchLimits | None = None) -> int:
        """A legal move of ``game``; ``game`` is left unchanged. What the choice saw is kept as
        ``last_search`` (`RootSummary`; None until a choice succeeds)."""
        self.last_search = None
        evaluator = self.evaluator  # None exactly when the agent's game has no view
        if evaluator is None:
            raise ValueError(f"the agent's game {self.game_name!r} has no game view; it plays batched only")
        self.check_game(game)
        if game.is_terminal:
            raise ValueError("the game is over; there is no move to choose")
        started = time.monotonic()
        config = self.config_for(limits)
        searched = not (config.simulations == 0 or config.max_depth == 0)
        check_s = config.time_s if searched and self.tactics.depth > 0 else None  # searches by time only
        kept_visits = 0
        if not searched:
            moves, policy, value = evaluator(game)
            weights = priors = policy
            visits = np.zeros(len(moves), dtype=np.int64)
            values = np.full(len(moves), np.nan)
        else:
            keep = self.reuse_tree and config.time_s is not None
            search_config = (
                config if check_s is None else replace(config, time_s=check_s * (1 - TACTICS_SHARE))
            )
            kept = self.kept.root_for(game) if keep else None
            kept_visits = 0 if kept is None else kept.visits
            root = search_root(game.copy(), evaluator, search_config, root=kept)
            if keep:
                self.kept.keep(game, root)
            else:
                self.kept.clear()
            moves, visits, priors = root.moves, root.n.copy(), root.priors
            policy, value = untempered(priors, config.prior_temperature), root.own(root.value0)
            values = mean_values(visits, root.w)
            weights = visits / visits.sum()
        summary = RootSummary(
            moves=moves.copy(),
            policy=policy.copy(),
            visits=visits,
            values=values,
            value=float(value),
            simulations=int(visits.sum()) - kept_visits,
            kept_visits=kept_visits,
            time_limit_s=config.time_s if searched else None,
            elapsed_s=0.0,
            move=-1,
        )
        move = self._pick(game, moves, visits, priors, weights, started, check_s)
        self.last_search = replace(summary, elapsed_s=time.monotonic() - started, move=move)
        return move

    def _pick(self, game: Game, moves, visits, priors, weights, started: float, check_s) -> int:
        """The move played among the searched ones: the most visited (or a drawn one with ``sample``)
        of those that do not repeat a position (``avoid_repetition``), passed through the tactical
        check after a search by time (``check_s``: the time the check may end by, from ``started``)."""
        fresh = game_entry(game.game_name).fresh(game, moves) if self.avoid_repetition else None
        if fresh is not None and fresh.any() and not fresh.all():
            moves, visits, priors, weights = moves[fresh], visits[fresh], priors[fresh], weights[fresh]
        candidates = ranked(moves, visits, priors)
        if self.sample:
            drawn = moves[self.rng.choice(len(moves), p=weights / weights.sum())]
            candidates = np.concatenate(([drawn], candidates[candidates != drawn]))
        if check_s is not None:
            return self.tactics.choose(game, [int(move) for move in candidates], started + check_s)
        return int(candidates[0])

    @property
    def tactical_depth(self) -> int:
        """Plies of the tactical check after a search by time (`hive_envs.agents.tactics`; 0: off)."""
        return self.tactics.depth

    @tactical_depth.setter
    def tactical_depth(self, depth: int) -> None:
        self.tactics = TacticalCheck(depth)

    def act(self, batch, rows: np.ndarray) -> np.ndarray:
        if self.config.simulations > 0:
            return super().act(batch, rows)
        rows = check_rows(rows, batch.num_games)  # numpy would wrap a negative row silently
        device = self.device
        obs = torch.as_tensor(batch.observation[rows], device=device)
        mask = torch.as_tensor(batch.action_mask[rows], device=device)
        return (
            policy_actions(self.network, obs, mask, self.sample, self.generator, self.source)
            .cpu()
            .numpy()
            .astype(np.int64)
        )

    def warm_up(self) -> None:
        """A few simulations on the start position, so that the compiled kernels load (or compile) and
        the network runs once now, not inside a first timed move: the search's deadline is checked
        between simulations, so a first simulation that loads kernels overran a 1 s limit by seconds.
        It draws nothing from the player's random generators."""
        if self.view is not None and self.evaluator is not None:
            game = self.view.new_game()
            search(game, self.evaluator, SearchConfig(simulations=8))
            game_entry(game.game_name).fresh(game, game.legal_move_ids())
            self.tactics.warm_up(game)

    # -- UHP options ----------------------------------------------------------------------------
    def uhp_options(self) -> list[tuple[str, str, bool | int, bool | int, int, int]]:
        """(name, type, value, default, min, max) of each setting the UHP ``options`` command shows."""
        return [
            ("Simulations", "int", self.config.simulations, 64, 0, MAX_SIMULATIONS),
            ("SampleMoves", "bool", self.sample, False, 0, 0),
            ("AvoidRepetition", "bool", self.avoid_repetition, True, 0, 0),
            ("ReuseTree", "bool", self.reuse_tree, True, 0, 0),
            ("TacticalDepth", "int", self.tactical_depth, TACTICAL_DEPTH, 0, MAX_TACTICAL_DEPTH),
        ]

    def set_uhp_option(self, name: str, value: bool | int) -> None:
        if name == "Simulations":
            self.config = replace(self.config, simulations=int(value))
        elif name == "SampleMoves":
            self.sample = bool(value)
        elif name == "AvoidRepetition":
            self.avoid_repetition = bool(value)
        elif name == "ReuseTree":
            self.reuse_tree = bool(value)
            self.kept.clear()
        elif name == "TacticalDepth":
            self.tactical_depth = int(value)
        else:
            raise ValueError(f"unknown agent option {name!r}")
