"""Shared by the examples (SB3 and RLlib): a trained model played as the arena plays, the training's
clock, and the printed results and JSON report.

`evaluate(model, env, games, seed)` plays the model's argmax policy (over the legal moves) against
built-in players (`hive_envs.players`: "random", "greedy") from the arena's random openings
(`training/arena.py`: ``games / 2`` distinct openings of 2 random plies, each played once from each
seat) and returns `evaluation.match.MatchResult`s (W/D/L per seat, win rate with its 95% Wilson
interval). ``env`` is the Gymnasium env the model was trained on: its ``observation_of(game)`` gives
the observation, its encoder the mask and the move of an action.

`TrainingClock` measures a training run (wall and CPU time, learner steps and plies per second, the
load average before and after) and prints it in one line. `report` prints the match results and,
with ``--out``, writes them as JSON with the run's facts; it records the commit of the tree the
script started from (`COMMIT_AT_START`, read when this module is imported), so commits made while a
long run trains do not end up in its report.

`PlyCounter` wraps a training env to count the plies played in it (the learner's and the opponent's),
so a report can give the budget in plies as well as in learner steps.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import gymnasium as gym
import numpy as np

from hive_envs.evaluation.arena import distinct_openings
from hive_envs.evaluation.match import MatchResult, format_table, paired, play_games, summarise
from hive_envs.evaluation.provenance import git_commit, machine
from hive_envs.games import game_entry
from hive_envs.players import PlayerContext, SearchLimits, make_player

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
    """The plies played in a vector env (SB3's ``DummyVecEnv``, Gymnasium's ``SyncVectorEnv``) whose
    envs wrap a `PlyCounter` (at any depth)."""
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


class TrainingClock:
    """Started when made (just before training): `finish` prints how the training went and returns
    the facts of the JSON report."""

    def __init__(self) -> None:
        self.load_before = os.getloadavg()
        self.started, self.cpu_started = time.time(), time.process_time()

    def elapsed(self) -> float:
        return time.time() - self.started

    def finish(self, steps: int, plies: int, detail: str = "") -> dict:
        """Stop at ``steps`` learner steps and ``plies`` plies; ``detail`` follows the minutes."""
        train_s, cpu_s = time.time() - self.started, time.process_time() - self.cpu_started
        load_after = os.getloadavg()
        print(
            f"trained {steps} learner steps ({plies} plies) in {train_s / 60:.1f} min{detail} ({steps / train_s:.1f} "
            f"steps/s, {plies / train_s:.1f} plies/s; {steps / cpu_s:.1f} steps per CPU-second); "
            f"load average {self.load_before} -> {load_after}"
        )
        return {
            "load_average_before": self.load_before,
            "load_average_after": load_after,
            "learner_steps": steps,
            "plies": plies,
            "train_seconds": round(train_s, 1),
            "train_cpu_seconds": round(cpu_s, 1),
            "learner_steps_per_second": round(steps / train_s, 1),
            "plies_per_second": round(plies / train_s, 1),
            "learner_steps_per_cpu_second": round(steps / cpu_s, 1),
        }


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every example has: ``--seed``, ``--eval-games``, ``--threads``, ``--out``."""
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=200, help="games per opponent (even)")
    parser.add_argument(
        "--threads", type=int, default=1, help="torch threads (2 ran slower on the shared 2-core machine)"
    )
    parser.add_argument("--out", help="write the budget and the results as JSON here")


def add_shaping_arguments(parser: argparse.ArgumentParser) -> None:
    """``--no-shaping`` and ``--gamma`` of the Hive examples (the env's reward shaping is on by default)."""
    parser.add_argument("--no-shaping", action="store_true", help="train on the raw +1/-1/0 rewards")
    parser.add_argument(
        "--gamma", type=float, default=0.95, help="discount per learner move (PPO and shaping)"
    )


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
        records = play_games(player, opponent, paired(openings), new_game, SearchLimits())
        results.append(summarise(player.name, spec, records))
    return results


def report(
    args: argparse.Namespace, argv: list[str] | None, script: str, results: list[MatchResult], **facts
) -> None:
    """Print the results; with ``--out``, write as JSON there the command (``python examples/<script>
    <argv>``), commit, date, machine, torch threads and ``facts`` (budget, clock, ...) with them."""
    print(format_table(results))
    if not args.out:
        return
    argv = sys.argv[1:] if argv is None else argv
    document = {
        "command": " ".join(["python", f"examples/{script}", *argv]),
        "commit": COMMIT_AT_START[0] or "unknown",
        "dirty": COMMIT_AT_START[1],
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "torch_threads": args.threads,
        **facts,
        "evaluation": {
            "policy": "argmax over the legal moves",
            "opening_plies": OPENING_PLIES,
            "matches": [result.to_dict() for result in results],
        },
    }
    Path(args.out).write_text(json.dumps(document, indent=2) + "\n")
