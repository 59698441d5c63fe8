"""Checkpoint files: atomic writes, and a clear error for every kind of bad file."""

import pytest
import torch

from hive_envs.agents import load_checkpoint, load_policy, save_checkpoint
from hive_envs.agents.networks import build_network

SPEC = {"kind": "mlp", "hidden_sizes": [8]}


def payload(game="toy", encoding_version="v0"):
    network = build_network(SPEC, (5,), 3)
    return {
        "game": game,
        "game_options": {},
        "encoding_version": encoding_version,
        "observation_shape": (5,),
        "num_actions": 3,
        "network": SPEC,
        "model": network.state_dict(),
        "global_step": 10,
        "update": 1,
    }


def test_round_trip_and_no_temporary_file_left(tmp_path):
    path = save_checkpoint(tmp_path / "c.pt", payload())
    assert load_checkpoint(path, game="toy", encoding_version="v0", num_actions=3)["global_step"] == 10
    assert [p.name for p in tmp_path.iterdir()] == ["c.pt"]


def test_failed_write_keeps_the_old_file_and_leaves_no_debris(tmp_path, monkeypatch):
    path = save_checkpoint(tmp_path / "c.pt", payload())
    before = path.read_bytes()

    def broken_save(obj, handle):
        handle.write(b"partial")
        raise OSError("disk full")

    monkeypatch.setattr(torch, "save", broken_save)
    with pytest.raises(OSError, match="disk full"):
        save_checkpoint(path, payload())
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["c.pt"]


def test_missing_file(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        load_checkpoint(tmp_path / "nope.pt")


def test_corrupt_file(tmp_path):
    path = tmp_path / "c.pt"
    path.write_bytes(b"\x00garbage" * 10)
    with pytest.raises(ValueError, match="corrupt"):
        load_checkpoint(path)


def test_truncated_file(tmp_path):
    path = save_checkpoint(tmp_path / "c.pt", payload())
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ValueError, match="corrupt"):
        load_checkpoint(path)


def test_foreign_torch_file(tmp_path):
    torch.save({"weights": torch.zeros(3)}, tmp_path / "c.pt")
    with pytest.raises(ValueError, match="not a hive_envs checkpoint"):
        load_checkpoint(tmp_path / "c.pt")


def test_checkpoint_for_another_game(tmp_path):
    path = save_checkpoint(tmp_path / "c.pt", payload(game="hive"))
    with pytest.raises(ValueError, match="is for game='hive', but game='hoyito' is needed"):
        load_checkpoint(path, game="hoyito")


def test_checkpoint_for_another_encoding_version(tmp_path):
    path = save_checkpoint(tmp_path / "c.pt", payload(encoding_version="v1"))
    with pytest.raises(ValueError, match="encoding_version='v1', but encoding_version='v0'"):
        load_policy(path, encoding_version="v0")


def test_policy_refuses_an_observation_of_the_wrong_shape(tmp_path):
    policy = load_policy(save_checkpoint(tmp_path / "c.pt", payload()), seed=0)
    with pytest.raises(ValueError, match="observation has shape"):
        policy(torch.zeros(6).numpy(), [1, 1, 1])
    assert policy(torch.zeros(5).numpy(), [0, 0, 1]) == 2
