"""A checkpoint's bytes are checked before anything is unpickled (the sha256 of format 3), and its
structure is bounded before anything walks it: values, nesting and data, each shared value counted
wherever it appears (hive_envs/agents/plain_values.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import torch

import hive_envs.agents.checkpoint as checkpoint_module
from hive_envs.agents import load_checkpoint, save_checkpoint
from hive_envs.agents.checkpoint_file import sign
from hive_envs.agents.eval_checkpoint import load_eval_checkpoint
from hive_envs.agents.network_kinds import build_network
from hive_envs.pretrained import EVALUATION, POLICY, pretrained_kind, pretrained_names, pretrained_path
from tests.bounded_run import deadline, refusal_bounded

# hive_envs/agents/plain_values.py's ceilings, as docs/safety.md states them
MAX_VALUES = 100_000
MAX_DEPTH = 32
PRETRAINED = Path(__file__).resolve().parents[2] / "hive_envs" / "agents" / "pretrained" / "hoyito_2x6.pt"


def shared_lists(levels: int) -> list:
    """A list of nine references to a list of nine references to ... (9**levels values when walked)."""
    value: list = [0]
    for _ in range(levels):
        value = [value] * 9
    return value


def crafted(path: Path, version: int, **changes) -> Path:
    """The shipped hoyito_2x6 checkpoint (95 KB) with ``changes`` made, written as format ``version``:
    3 with a valid sha256 of its bytes (the structure must be refused on its own), 2 with its old
    sha256 key (which no longer matches)."""
    data = torch.load(PRETRAINED, weights_only=True)
    data.update(changes, format_version=version)
    if version == 3:
        del data["sha256"]
    torch.save(data, path)
    if version == 3:
        with open(path, "r+b") as handle:
            sign(handle)
    return path


@pytest.mark.parametrize("version", [2, 3])
def test_a_config_of_shared_lists_is_refused_in_a_fraction_of_a_second(tmp_path, version):
    """The issue's file: before, 1 s, 8.6 s and 107 s at 7, 8 and 9 levels (×9 per 64 bytes)."""
    config = {"hidden_sizes": shared_lists(9), "eval_opponents": shared_lists(8)}
    path = crafted(tmp_path / "shared.pt", version, config=config)
    assert path.stat().st_size < 100_000
    started = time.perf_counter()
    with deadline(20), pytest.raises(ValueError) as refused:
        load_checkpoint(path)
    assert time.perf_counter() - started < 5  # the walk stops at 100,000 values: ~0.1 s when idle
    assert f"holds more than {MAX_VALUES} values" in str(refused.value) and "\n" not in str(refused.value)


def test_a_flipped_byte_is_refused_by_the_sha256_of_the_bytes_before_anything_is_unpickled(
    tmp_path, monkeypatch
):
    path = crafted(tmp_path / "c.pt", 3)
    blob = bytearray(path.read_bytes())
    blob[blob.index(b"hoyito_2x6") + 2] ^= 1  # a byte of the pickle, which zip does not check
    path.write_bytes(bytes(blob))
    unpickled = []
    monkeypatch.setattr(checkpoint_module.torch, "load", lambda *a, **k: unpickled.append(a))
    with pytest.raises(ValueError, match=r"is corrupt: its bytes do not match the sha256 recorded"):
        load_checkpoint(path)
    assert unpickled == []


def test_a_value_nested_deeper_than_the_ceiling_is_refused_naming_its_place(tmp_path):
    deep: list = [1]
    for _ in range(MAX_DEPTH + 8):
        deep = [deep]
    path = crafted(tmp_path / "deep.pt", 3, config={"hidden_sizes": deep})
    with pytest.raises(
        ValueError, match=rf"\['config'\]\['hidden_sizes'\]\[0\]\[0\].* more than {MAX_DEPTH} levels"
    ):
        load_checkpoint(path)


def test_a_tensor_viewing_more_bytes_than_the_file_holds_is_refused_before_its_values_are_read(tmp_path):
    """A stride-0 view: 8 GB of float32 over one stored value, which a checksum or a NaN check would read."""
    data = torch.load(PRETRAINED, weights_only=True)
    key = next(iter(data["model"]))
    huge = torch.zeros(1).as_strided((2**31,), (0,))
    path = crafted(tmp_path / "view.pt", 2, model={**data["model"], key: huge})
    result = refusal_bounded("hive_envs.agents", "load_checkpoint", path, memory_bytes=2 << 30, seconds=60)
    assert result.returncode == 0 and "bytes of data" in result.stdout, (result.stdout, result.stderr[-500:])


def tiny_payload(**changes) -> dict:
    network = build_network({"kind": "mlp", "hidden_sizes": [8]}, (5,), 3)
    payload = {
        "game": "toy",
        "game_options": {},
        "encoding_version": "v0",
        "observation_shape": (5,),
        "num_actions": 3,
        "network": {"kind": "mlp", "hidden_sizes": [8]},
        "model": network.state_dict(),
        "global_step": 1,
        "update": 1,
    }
    return {**payload, **changes}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"config": {"lists": shared_lists(6)}}, f"payload holds more than {MAX_VALUES} values"),
        ({"config": {"weights": [torch.zeros(1 << 16)] * 64}}, "share no tensor between keys"),
    ],
)
def test_save_refuses_a_payload_that_load_would_refuse_and_writes_nothing(tmp_path, changes, message):
    with pytest.raises(ValueError, match=message):
        save_checkpoint(tmp_path / "c.pt", tiny_payload(**changes))
    assert list(tmp_path.iterdir()) == []


def test_the_shipped_checkpoints_are_well_within_the_bounds():
    """Every shipped file loads with its kind's checks (a policy's checkpoint, a learned evaluation's file)."""
    loads = {POLICY: (load_checkpoint, (2, 3)), EVALUATION: (load_eval_checkpoint, (1,))}
    assert sorted(PRETRAINED.parent.glob("*.pt")) == sorted(
        pretrained_path(name) for name in pretrained_names()
    )
    for name in pretrained_names():
        load, versions = loads[pretrained_kind(name)]
        assert load(pretrained_path(name))["format_version"] in versions
