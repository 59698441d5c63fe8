"""Shared by the SB3 examples: a trained model played as the arena plays, and the JSON report.

`evaluate(model, env, games, seed)` plays the model's argmax policy (over the legal moves) against
built-in players (`hive_envs.players`: "random", "greedy") from the arena's random openings
(`training/arena.py`: ``games / 2`` distinct openings of 2 random plies, each played once from each
seat) and returns `training.match.MatchResult`s (W/D/L per seat, win rate with its 95% Wilson
interval). ``env`` is the Gymnasium env the model was trained on: its ``observation_of(game)`` gives
the observation, its encoder the mask and the move of an action.

`write_report` records the commit of the tree the script started from (`COMMIT_AT_START`, read when
this module is imported), so commits made while a long run trains do not end up in its report.

`PlyCounter` wraps a training env to count the plies played in it (the learner's and the opponent's),
so a report can give the budget in plies as well as in learner steps.
"""

from __future__ import annotations

import argparse
import functools
import json
from datetime import datetime, timezone
from pathlib import Path

import gymnasium as gym
import numpy as np

from hive_envs.games import game_entry
from hive_envs.players import PlayerContext, SearchLimits, make_player
from hive_envs.training.arena import distinct_openings, play_openings, summarise
from hive_envs.training.match import MatchResult
from hive_envs.training.provenance import git_commit, machine

OPENING_PLIES = 2
COMMIT_AT_START = git_commit(untracked=False)  # (sha or None, uncommitted changes to tracked files)


class PlyCounter(gym.Wrapper):
    """Counts the plies of both seats played through ``step`` (``plies``), read from the game's ply number."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        self.plies = 0

    def reset(self, **kwargs):
        observation, info = self.env.reset(**kwargs)
        self._ply = self.env.unwrapped.aec.game.ply  # the opponent's first ply when it has the first seat
        self.plies += self._ply
        return observation, info

    def step(self, action):
        outcome = self.env.step(action)
        ply = self.env.unwrapped.aec.game.ply
        self.plies += ply - self._ply
        self._ply = ply
        return outcome


def plies_played(vec_env) -> int:
    """The plies played in an SB3 ``DummyVecEnv`` whose envs wrap a `PlyCounter` (at any depth)."""
    return sum(env.get_wrapper_attr("plies") for env in vec_env.envs)


class ModelPlayer:
    """An SB3 model's argmax policy as a player of `hive_envs.players`."""

    def __init__(self, model, env, name: str = "sb3_maskable_ppo"):
        self.model, self.env, self.name = model, env.unwrapped, name
        self.encoder = self.env.aec.encoder

    def choose(self, game, limits=None) -> int:
        mask = np.zeros(self.encoder.num_actions, dtype=np.int8)
        self.encoder.write_mask(game, mask)
        obs = self.env.observation_of(game)
        action, _ = self.model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return self.encoder.action_to_move(game, int(action))

    def seed(self, seed) -> None:
        pass

    def close(self) -> None:
        pass


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every example has: ``--seed``, ``--eval-games``, ``--threads``, ``--out``."""
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=200, help="games per opponent (even)")
    parser.add_argument(
        "--threads", type=int, default=1, help="torch threads (2 ran slower on the shared 2-core machine)"
    )
    parser.add_argument("--out", help="write the budget and the results as JSON here")


def parse_run_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """``parser.parse_args(argv)``, refusing an odd or too small ``--eval-games``."""
    args = parser.parse_args(argv)
    if args.eval_games < 2 or args.eval_games % 2:
        parser.error(f"--eval-games must be an even number >= 2, got {args.eval_games}")
    return args


def evaluate(
    model, env, games: int, seed: int, opponents=("random", "greedy"), name: str = "sb3_maskable_ppo"
) -> list[MatchResult]:
    """``games`` (even) games against each opponent, half from each seat (see the module docstring);
    ``model`` has SB3's ``predict(observation, action_masks=..., deterministic=True)``."""
    aec = env.unwrapped.aec
    entry = game_entry(aec.game.game_name)
    new_game = functools.partial(entry.new_game, aec.options)
    openings = distinct_openings(new_game, OPENING_PLIES, games // 2, seed)
    player = ModelPlayer(model, env, name)
    results = []
    for spec in opponents:
        opponent = make_player(spec, PlayerContext(entry.name, seed))
        records = play_openings(player, opponent, openings, new_game, SearchLimits())
        results.append(summarise(player.name, spec, records))
    return results


def write_report(path: str, script: str, argv: list[str], results: list[MatchResult], **facts) -> None:
    """The command (``python examples/<script> <argv>``), commit, date, machine and ``facts`` (budget,
    load, ...) with the match results, as JSON at ``path``."""
    report = {
        "command": " ".join(["python", f"examples/{script}", *argv]),
        "commit": COMMIT_AT_START[0] or "unknown",
        "dirty": COMMIT_AT_START[1],
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        **facts,
        "evaluation": {
            "policy": "argmax over the legal moves",
            "opening_plies": OPENING_PLIES,
            "matches": [result.to_dict() for result in results],
        },
    }
    Path(path).write_text(json.dumps(report, indent=2) + "\n")
