"""Perft from tests/data/perft_hive.tsv: published counts from the start, cross-checked mid-game rows."""

import csv
import pathlib
import subprocess
import sys

import pytest

from hive_envs.hive import HiveGame

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "perft_hive.tsv"
FAST_DEPTH = 5


def _rows():
    with DATA.open() as handle:
        lines = [line for line in handle if not line.startswith("#")]
    for i, row in enumerate(csv.DictReader(lines, delimiter="\t")):
        depth, count = int(row["depth"]), int(row["count"])
        marks = [pytest.mark.slow] if depth > FAST_DEPTH else []
        where = "start" if row["gamestring"].endswith("NotStarted;White[1]") else f"row{i}"
        yield pytest.param(
            row["gamestring"], depth, count, id=f"{row['game_type']}-{where}-d{depth}", marks=marks
        )


@pytest.mark.parametrize("gamestring, depth, count", list(_rows()))
def test_perft_matches_published_count(gamestring, depth, count):
    game = HiveGame.from_gamestring(gamestring)
    before = game.state.copy()
    assert game.perft(depth) == count
    assert (game.state == before).all(), "perft must leave the position unchanged"


def test_perft_depth_zero_is_one_and_finished_game_has_no_moves():
    game = HiveGame("Base", max_turns=2)
    assert game.perft(0) == 1
    game.play("wS1")
    game.play("bS1 wS1-")
    assert game.outcome == "Draw"
    assert game.perft(1) == 0


def test_perft_refuses_negative_depth():
    with pytest.raises(ValueError, match="depth"):
        HiveGame().perft(-1)


def _perft_cli(game_type: str, depth: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "hive_envs.hive.perft", "--game-type", game_type, depth]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_perft_cli_prints_the_count():
    proc = _perft_cli("Base+MLP", "3")
    assert proc.returncode == 0 and proc.stdout.strip() == "6678", proc.stderr


def test_perft_cli_rejects_bad_game_type():
    proc = _perft_cli("Base+X", "2")
    assert proc.returncode == 2 and "Base+X" in proc.stderr
