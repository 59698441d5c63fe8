"""Learned-evaluation files (`hive_envs.agents.eval_checkpoint`): what is saved loads as it was, and a
damaged, foreign or crafted file is refused with a ValueError before anything of it runs."""

from __future__ import annotations

import shlex

import numpy as np
import pytest
import torch

from hive_envs.agents import checkpoint_file
from hive_envs.agents.eval_checkpoint import learned_network_of, load_eval_checkpoint, save_eval_checkpoint
from hive_envs.core.learned_eval import ARRAY_NAMES, LearnedFeatures
from hive_envs.hive.search.eval_features import HIVE_FEATURES
from hive_envs.pretrained import pretrained_path
from hive_envs.training.eval_network import EvalNetwork
from tests.agents.crafted import RunsCommand
from tests.agents.eval_payload import eval_payload


@pytest.fixture
def saved(tmp_path):
    torch.manual_seed(0)
    network = EvalNetwork(HIVE_FEATURES, width=4, hidden=4)
    path = save_eval_checkpoint(tmp_path / "eval.pt", eval_payload(network, positions=10))
    return path, network


def test_a_saved_evaluation_loads_as_the_network_it_was(saved):
    path, network = saved
    data = load_eval_checkpoint(path, game="hive", features=HIVE_FEATURES)
    compiled = learned_network_of(data, HIVE_FEATURES)
    for name, array in network.export().items():
        np.testing.assert_array_equal(getattr(compiled, name), array)
    assert set(data["evaluation"]) == set(ARRAY_NAMES) and len(data["sha256"]) == 64


def test_a_flipped_byte_is_refused(saved):
    path, _ = saved
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0x01
    path.write_bytes(bytes(raw))
    with pytest.raises(ValueError, match="do not match the sha256"):
        load_eval_checkpoint(path)


def test_a_truncated_file_is_refused(saved):
    path, _ = saved
    path.write_bytes(path.read_bytes()[:-500])
    with pytest.raises(ValueError, match="corrupt"):
        load_eval_checkpoint(path)


def test_a_file_without_its_sha256_is_refused_unread(saved, tmp_path):
    plain = tmp_path / "plain.pt"
    torch.save(torch.load(saved[0], weights_only=True), plain)
    with pytest.raises(ValueError, match="no sha256"):
        load_eval_checkpoint(plain)


def test_a_crafted_file_is_refused_without_running_its_command(tmp_path):
    marker = tmp_path / "ran"
    path = tmp_path / "crafted.pt"
    data = {
        "format": "hive_envs.eval_checkpoint",
        "model": {"x": RunsCommand(f"touch {shlex.quote(str(marker))}")},
    }
    with open(path, "w+b") as handle:
        torch.save(data, handle)
        handle.flush()
        checkpoint_file.sign(handle)  # a valid sha256: only the safe unpickler stands in the way
    with pytest.raises(ValueError, match="could run code"):
        load_eval_checkpoint(path)
    assert not marker.exists()


def test_an_agent_checkpoint_or_another_game_s_features_are_refused(saved, tmp_path):
    path, _ = saved
    with pytest.raises(ValueError, match="not ours"):
        load_eval_checkpoint(pretrained_path("hoyito_2x6"))
    other = LearnedFeatures("hive/other", HIVE_FEATURES.num_features, 44, 33, (), np.ones(33), np.ones(33))
    with pytest.raises(ValueError, match="reads the features 'hive/pieces-v1'"):
        load_eval_checkpoint(path, features=other)
    with pytest.raises(ValueError, match="is for 'hive', not hoyito"):
        load_eval_checkpoint(path, game="hoyito")
    with pytest.raises(ValueError, match="does not exist"):
        load_eval_checkpoint(tmp_path / "none.pt")


def test_nan_weights_and_missing_keys_are_refused_at_save_or_load(saved, tmp_path):
    _, network = saved
    bad = eval_payload(network, positions=10)
    bad["evaluation"]["hidden_bias"] = torch.full((4,), float("nan"))
    path = save_eval_checkpoint(tmp_path / "nan.pt", bad)
    with pytest.raises(ValueError, match="NaN or infinite"):
        load_eval_checkpoint(path)
    incomplete = eval_payload(network, positions=10)
    del incomplete["features"]
    with pytest.raises(ValueError, match="missing \\['features'\\]"):
        save_eval_checkpoint(tmp_path / "incomplete.pt", incomplete)
    assert not (tmp_path / "incomplete.pt").exists()
