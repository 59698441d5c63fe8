"""A crafted checkpoint (its unpickling would run a shell command) is refused by every entry point
that loads checkpoints, and nothing from it runs: the marker file the command would create never
appears. The control test shows the files really run the command when unpickled unsafely."""

import io
import pickle
import re

import gymnasium as gym
import pytest
import torch

import hive_envs  # noqa: F401  (registers the env ids)
from hive_envs.agents import load_checkpoint, load_policy
from hive_envs.evaluation import arena, evaluate
from hive_envs.hive.uhp import load_player
from hive_envs.players.checkpoint import AgentPlayer
from tests.agents.crafted import KINDS, write_crafted_checkpoint

REFUSED = "was refused|is corrupt or not a torch file"


@pytest.fixture(params=KINDS)
def crafted(tmp_path, request):
    marker = tmp_path / "marker"
    path = write_crafted_checkpoint(tmp_path / "evil.pt", marker, request.param)
    yield path, request.param
    assert not marker.exists(), "the crafted checkpoint ran its command"


def test_control_the_crafted_files_run_their_command_when_unpickled_unsafely(crafted):
    path, kind = crafted
    marker = path.parent / "marker"
    if kind.startswith("pickle"):
        pickle.loads(path.read_bytes())
    else:
        torch.load(path, weights_only=False)
    assert marker.exists()
    marker.unlink()  # the fixture's check is for the other tests


def test_load_checkpoint_refuses_it(crafted):
    path, kind = crafted
    if kind != "zip":  # torch's legacy format and bare pickles are refused before torch.load reads them
        message = rf"checkpoint '{path}' is corrupt or not a torch file: not a zip archive"
    else:
        message = (
            rf"checkpoint '{path}' was refused: it holds the Python object posix.system, .*could run code"
        )
    with pytest.raises(ValueError, match=message):
        load_checkpoint(path)


def test_load_policy_refuses_it(crafted):
    with pytest.raises(ValueError, match=REFUSED):
        load_policy(crafted[0], game="hoyito")


def test_gym_checkpoint_opponent_refuses_it(crafted):
    with pytest.raises(ValueError, match=REFUSED):
        gym.make("hive_envs/Hoyito-v0", opponent=str(crafted[0]))


def test_uhp_agent_loaders_refuse_it(crafted):
    with pytest.raises(ValueError, match=REFUSED):
        AgentPlayer.load(crafted[0], simulations=0)
    player = load_player(f"{crafted[0]}@0")  # the UHP engine's --agent loader: a stand-in that answers err
    assert not isinstance(player, AgentPlayer)
    assert re.search(REFUSED, player.reason)


def test_play_cli_refuses_it(crafted, capsys):
    from hive_envs.play import main

    assert main(["hive", "--agent", str(crafted[0])], stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    assert re.search(REFUSED, capsys.readouterr().err)


def test_evaluate_refuses_it_as_checkpoint_and_as_opponent(crafted, tmp_path):
    with pytest.raises(ValueError, match=REFUSED):
        evaluate.evaluate([str(crafted[0])], ["random"], games=2, out=str(tmp_path / "e.json"))
    assert evaluate.main([str(crafted[0]), "--games", "2", "--out", str(tmp_path / "e.json")]) == 2


def test_arena_refuses_it(crafted, capsys):
    assert arena.main([str(crafted[0]), "random", "--games", "2"]) == 2
    assert re.search(REFUSED, capsys.readouterr().err)
