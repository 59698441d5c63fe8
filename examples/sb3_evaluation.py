"""Shared by the SB3 examples: a trained model played as the arena plays, and the JSON report.

`evaluate(model, env, games, seed)` plays the model's argmax policy (over the legal moves) against
built-in players (`hive_envs.players`: "random", "greedy") from the arena's random openings
(`training/arena.py`: ``games / 2`` distinct openings of 2 random plies, each played once from each
seat) and returns `training.match.MatchResult`s (W/D/L per seat, win rate with its 95% Wilson
interval). ``env`` is the Gymnasium env the model was trained on: its ``observation_of(game)`` gives
the observation, its encoder the mask and the move of an action.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # `training` (the arena's openings and match tables) lives in the repository

from hive_envs.games import game_entry
from hive_envs.players import PlayerContext, SearchLimits, make_player
from training.arena import GameRecord, distinct_openings, play_game, summarise
from training.match import MatchResult

OPENING_PLIES = 2


class ModelPlayer:
    """An SB3 model's argmax policy as a player of `hive_envs.players`."""

    name = "sb3_maskable_ppo"

    def __init__(self, model, env):
        self.model, self.env = model, env.unwrapped
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


def evaluate(model, env, games: int, seed: int, opponents=("random", "greedy")) -> list[MatchResult]:
    """``games`` (even) games against each opponent, half from each seat (see the module docstring)."""
    aec = env.unwrapped.aec
    entry = game_entry(aec.game.game_name)
    new_game = functools.partial(entry.new_game, aec.options)
    openings = distinct_openings(new_game, OPENING_PLIES, games // 2, seed)
    player = ModelPlayer(model, env)
    results = []
    for spec in opponents:
        opponent = make_player(spec, PlayerContext(entry.name, seed))
        records = []
        for opening in openings:
            for seat in (0, 1):
                game = new_game()
                for move in opening:
                    game.play_id(move)
                seats = (player, opponent) if seat == 0 else (opponent, player)
                result0, plies, reason, record = play_game(game, seats, SearchLimits())
                records.append(
                    GameRecord(seat, (result0 if seat == 0 else -result0) + 0.0, plies, reason, record)
                )
        results.append(summarise(player.name, spec, records))
    return results


def write_report(path: str, script: str, argv: list[str], results: list[MatchResult], **facts) -> None:
    """The command (``python examples/<script> <argv>``), commit, date, machine and ``facts`` (budget,
    load, ...) with the match results, as JSON at ``path``."""
    report = {
        "command": " ".join(["python", f"examples/{script}", *argv]),
        "commit": _commit(),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        **facts,
        "evaluation": {
            "policy": "argmax over the legal moves",
            "opening_plies": OPENING_PLIES,
            "matches": [result.to_dict() for result in results],
        },
    }
    Path(path).write_text(json.dumps(report, indent=2) + "\n")


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
