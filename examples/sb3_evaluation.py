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
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from hive_envs.games import game_entry
from hive_envs.players import PlayerContext, SearchLimits, make_player
from training.arena import distinct_openings, play_openings, summarise
from training.match import MatchResult
from training.provenance import git_commit

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
        records = play_openings(player, opponent, openings, new_game, SearchLimits())
        results.append(summarise(player.name, spec, records))
    return results


def write_report(path: str, script: str, argv: list[str], results: list[MatchResult], **facts) -> None:
    """The command (``python examples/<script> <argv>``), commit, date, machine and ``facts`` (budget,
    load, ...) with the match results, as JSON at ``path``."""
    report = {
        "command": " ".join(["python", f"examples/{script}", *argv]),
        "commit": git_commit()[0] or "unknown",
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
