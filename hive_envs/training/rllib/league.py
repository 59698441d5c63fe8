"""The league: who plays whom, main's win rate against it, and frozen snapshots of main.

Module ids: `main` (the only one trained), `random` (uniform over legal moves, the league's
first member) and `main_v1`, `main_v2`, ... (frozen copies of main).

Each game draws its pairing once, from a hash of the episode id: with probability
`self_play_share` main plays itself (both seats learn), otherwise main takes a random seat
against a league member drawn uniformly. `LeagueCallback` counts main's wins in league games
on the env runners. After each training iteration it takes main's win rate over the most recent
league games (the fewest whole iterations holding at least `min_league_games` of them, all played
since the last change of the league); when it reaches `win_rate_threshold`, main is frozen into
a new snapshot, which joins the league (the oldest snapshot leaves the draw beyond
`max_league_size`). The window restarts at each change, so the next snapshot has to be earned
against the new league.
"""

from __future__ import annotations

import math
import random
import zlib

from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS

MAIN = "main"
RANDOM = "random"
AGENTS = ("player_0", "player_1")


class LeagueMapping:
    """agent id -> module id for one game; a picklable callable, shipped to the env runners."""

    def __init__(self, opponents: list[str], self_play_share: float, seed: int):
        if not opponents:
            raise ValueError("the league needs at least one opponent")
        self.opponents = list(opponents)
        self.self_play_share = float(self_play_share)
        self.seed = int(seed)

    def pairing(self, episode_id: str) -> tuple[str, str]:
        """(module of player_0, module of player_1) for this episode id."""
        rng = random.Random(zlib.crc32(f"{self.seed}:{episode_id}".encode()))
        if rng.random() < self.self_play_share:
            return (MAIN, MAIN)
        opponent = self.opponents[rng.randrange(len(self.opponents))]
        return (MAIN, opponent) if rng.randrange(2) == 0 else (opponent, MAIN)

    def __call__(self, agent_id, episode, **kwargs) -> str:
        return self.pairing(str(episode.id_))[AGENTS.index(agent_id)]


class LeagueCallback(RLlibCallback):
    """Counts main's league results (env runners) and grows the league (driver)."""

    def __init__(
        self,
        win_rate_threshold: float,
        min_league_games: int,
        max_league_size: int,
        self_play_share: float,
        seed: int,
    ):
        super().__init__()
        self.win_rate_threshold = win_rate_threshold
        self.min_league_games = min_league_games
        self.max_league_size = max_league_size
        self.self_play_share = self_play_share
        self.seed = seed
        self.snapshots: list[str] = []
        # (lifetime league games, wins) after each iteration since the last league change,
        # starting with the totals at the change itself
        self._history: list[tuple[float, float]] = [(0.0, 0.0)]

    # ------------------------------------------------------------ env runners
    def on_episode_end(self, *, episode, metrics_logger=None, **kwargs) -> None:
        if metrics_logger is None:  # the new API stack's env runners always give one
            return
        modules = [episode.module_for(agent) for agent in AGENTS]
        if modules == [MAIN, MAIN]:
            metrics_logger.log_value(("league", "self_play_games"), 1, reduce="lifetime_sum")
            return
        main_agent = AGENTS[modules.index(MAIN)]
        other_agent = AGENTS[1 - modules.index(MAIN)]
        rewards = episode.get_rewards()
        # An agent that never had a move (a Hoyito game can end before it plays) has no steps in
        # RLlib's episode, hence no reward there: read the game's zero-sum result from the other.
        if main_agent in rewards:
            main_return = float(sum(rewards[main_agent]))
        elif other_agent in rewards:
            main_return = -float(sum(rewards[other_agent]))
        else:
            return
        metrics_logger.log_value(("league", "games"), 1, reduce="lifetime_sum")
        # > 0.5, not > 0: with reward shaping (gamma 1) the return is the result up to rounding
        metrics_logger.log_value(("league", "wins"), float(main_return > 0.5), reduce="lifetime_sum")

    # ------------------------------------------------------------ driver
    def opponents(self) -> list[str]:
        return [RANDOM, *self.snapshots[-self.max_league_size :]]

    def mapping(self) -> LeagueMapping:
        return LeagueMapping(self.opponents(), self.self_play_share, self.seed + len(self.snapshots))

    def recent_win_rate(self, games: float, wins: float) -> tuple[float, float]:
        """(league games, main's win rate) over the shortest recent window of at least
        `min_league_games` games since the last change; (games since change, nan) if too few."""
        for then_games, then_wins in reversed(self._history):
            if games - then_games >= self.min_league_games:
                return games - then_games, (wins - then_wins) / (games - then_games)
        return games - self._history[0][0], float("nan")

    def on_train_result(self, *, algorithm, result, **kwargs) -> None:
        league = result.get(ENV_RUNNER_RESULTS, {}).get("league", {})
        games, wins = float(league.get("games", 0.0)), float(league.get("wins", 0.0))
        window_games, win_rate = self.recent_win_rate(games, wins)
        added = None
        if win_rate >= self.win_rate_threshold:  # False for nan
            added = self.freeze_main(algorithm)
            self._history = [(games, wins)]
        else:
            self._history.append((games, wins))
        result["league"] = {
            "size": len(self.opponents()),
            "snapshots": len(self.snapshots),
            "window_games": window_games,
            "win_rate": None if math.isnan(win_rate) else win_rate,
            "added": added,
        }

    def freeze_main(self, algorithm) -> str:
        """Copy main into a new frozen module `main_v<k>` and put it in the league draw."""
        module_id = f"main_v{len(self.snapshots) + 1}"
        main = algorithm.get_module(MAIN)
        self.snapshots.append(module_id)
        algorithm.add_module(
            module_id=module_id,
            module_spec=RLModuleSpec.from_module(main),
            new_agent_to_module_mapping_fn=self.mapping(),
        )
        # add_module builds fresh weights; copy main's (Algorithm.set_state syncs the env runners).
        algorithm.set_state({"learner_group": {"learner": {"rl_module": {module_id: main.get_state()}}}})
        return module_id
