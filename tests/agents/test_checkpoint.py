"""Checkpoint files: atomic writes with the user's umask, plain values only, a sha256 checked on
load, format 1 still read safely, and a clear error for every kind of bad file."""

import hashlib
import os
import random
import re
import stat
import warnings
import zipfile

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hive_envs.agents import load_checkpoint, load_policy, save_checkpoint
from hive_envs.agents.checkpoint import payload_digest, remove_stale_temporaries
from hive_envs.agents.network_kinds import build_network

SPEC = {"kind": "mlp", "hidden_sizes": [8]}


def payload(game="toy", encoding_version="v0"):
    network = build_network(SPEC, (5,), 3)
    return {
        "game": game,
        "game_options": {},
        "encoding_version": encoding_version,
        "observation_shape": (5,),
        "num_actions": 3,
        "network": {"kind": "mlp", "hidden_sizes": [8]},
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


# -- format 3: plain values only, sha256 of the bytes, safe loading --------------------------------


def trained_payload():
    """A payload with a real train_state: Adam after a step, an opponent pool, RNG states."""
    torch.manual_seed(0)
    network = build_network(SPEC, (5,), 3)
    optimizer = torch.optim.Adam(network.parameters(), lr=1e-3)
    network(torch.rand(4, 5))[0].sum().backward()
    optimizer.step()
    data = payload()
    data["model"] = network.state_dict()
    data["config"] = {"hidden_sizes": [8], "learning_rate": 1e-3, "anneal_lr": True, "device": None}
    data["train_state"] = {
        "optimizer": optimizer.state_dict(),
        "pool": [{k: v.clone() for k, v in network.state_dict().items()}],
        "elapsed_s": 12.5,
        "torch_rng": torch.get_rng_state(),
        "numpy_rng": np.random.default_rng(3).bit_generator.state,
        "python_rng": random.Random(4).getstate(),
    }
    return data, network, optimizer


def assert_same(a, b, where="payload"):
    """Equal values of the same types, all the way down (tensors: dtype, shape and values)."""
    assert type(a) is type(b), f"{where}: {type(a)} != {type(b)}"
    if isinstance(a, torch.Tensor):
        assert a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b), where
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            assert_same(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


def test_round_trip_keeps_every_value_and_type_including_optimizer_and_rng_states(tmp_path):
    data, network, optimizer = trained_payload()
    loaded = load_checkpoint(save_checkpoint(tmp_path / "c.pt", data))
    assert loaded["format_version"] == 3 and loaded["sha256"] == file_digest(tmp_path / "c.pt")
    for key, value in data.items():
        assert_same(value, loaded[key], key)
    # The optimizer continues exactly where it stopped: one more step from the loaded state
    # gives the same weights as one more step of the original.
    restored = build_network(SPEC, (5,), 3)
    restored.load_state_dict(loaded["model"])
    restored_optimizer = torch.optim.Adam(restored.parameters(), lr=1e-3)
    restored_optimizer.load_state_dict(loaded["train_state"]["optimizer"])
    batch = torch.rand(4, 5)
    for net, opt in ((network, optimizer), (restored, restored_optimizer)):
        opt.zero_grad()
        net(batch)[0].sum().backward()
        opt.step()
    assert_same(network.state_dict(), restored.state_dict())


def file_digest(path):
    """The sha256 of a format-3 file's bytes as torch.save wrote them: its zip comment taken off."""
    blob = path.read_bytes()
    comment = zipfile.ZipFile(path).comment
    return hashlib.sha256(blob[: len(blob) - len(comment) - 2] + b"\0\0").hexdigest()


def test_the_file_is_readable_by_torchs_restricted_loader_alone(tmp_path):
    path = save_checkpoint(tmp_path / "c.pt", trained_payload()[0])
    raw = torch.load(path, weights_only=True)
    assert raw["format"] == "hive_envs.checkpoint" and "sha256" not in raw
    assert zipfile.ZipFile(path).comment == f"hive_envs.checkpoint sha256={file_digest(path)}".encode()


def weight_offset(path, tensor):
    """Where `tensor`'s bytes sit in the file (torch stores them uncompressed)."""
    blob = path.read_bytes()
    needle = tensor.numpy().tobytes()
    assert blob.count(needle) == 1
    return blob.index(needle)


@pytest.mark.parametrize("bit", [0, 3, 7])
def test_a_flipped_bit_in_the_weights_is_detected(tmp_path, bit):
    data = payload()
    path = save_checkpoint(tmp_path / "c.pt", data)
    where = weight_offset(path, data["model"]["trunk.1.weight"]) + 37
    blob = bytearray(path.read_bytes())
    blob[where] ^= 1 << bit
    path.write_bytes(bytes(blob))
    with pytest.raises(ValueError, match=rf"checkpoint '{path}' is corrupt: .*sha256"):
        load_checkpoint(path)
    with pytest.raises(ValueError, match="is corrupt"):
        load_policy(path)


def test_a_value_changed_without_updating_the_checksum_is_detected(tmp_path):
    path = save_checkpoint(tmp_path / "c.pt", payload())
    raw = torch.load(path, weights_only=True)
    raw["global_step"] = 11
    torch.save(raw, path)
    with pytest.raises(ValueError, match="is corrupt: it has no sha256"):
        load_checkpoint(path)


@pytest.mark.parametrize("keep", [0, 1, 100, 0.5, 0.9, -1])
def test_a_truncated_file_is_refused(tmp_path, keep):
    path = save_checkpoint(tmp_path / "c.pt", trained_payload()[0])
    blob = path.read_bytes()
    path.write_bytes(blob[: keep if isinstance(keep, int) else int(len(blob) * keep)])
    with pytest.raises(ValueError, match=rf"checkpoint '{path}' is corrupt"):
        load_checkpoint(path)


@given(st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(1, 255)), min_size=1, max_size=4))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_random_byte_damage_is_refused_or_changes_nothing(tmp_path, damage):
    path = tmp_path / "fuzz.pt"
    data = payload()
    save_checkpoint(path, data)
    blob = bytearray(path.read_bytes())
    for place, xor in damage:
        blob[int(place * len(blob))] ^= xor
    path.write_bytes(bytes(blob))
    try:
        loaded = load_checkpoint(path)
    except ValueError:
        return
    for key, value in data.items():  # damage outside the stored values (zip padding): same contents
        assert_same(value, loaded[key], key)


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_files_are_written_with_the_users_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        path = save_checkpoint(tmp_path / "c.pt", payload())
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == mode


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["network"].update(hidden=np.int64(8)),
            r"payload\['network'\]\['hidden'\] is a numpy.int64",
        ),
        (
            lambda d: d.update(config={"when": object()}),
            r"payload\['config'\]\['when'\] is a builtins.object",
        ),
        (lambda d: d.update(observation_shape=torch.Size([5])), r"is a torch.Size"),
        (lambda d: d.update(num_actions="3"), r"'num_actions' is a str"),
        (lambda d: d.update(observation_shape=(np.int64(5),)), r"bad spaces"),
        (lambda d: d.pop("model"), r"missing \['model'\]"),
    ],
)
def test_save_refuses_anything_but_plain_values_and_writes_nothing(tmp_path, change, message):
    data = payload()
    change(data)
    with pytest.raises(ValueError, match=message):
        save_checkpoint(tmp_path / "c.pt", data)
    assert list(tmp_path.iterdir()) == []


def format_1_file(path, **changes):
    """A checkpoint as format 1 wrote it: the same dict, no sha256."""
    data = {"format": "hive_envs.checkpoint", "format_version": 1, "package_version": "0.1.0", **payload()}
    data.update(changes)
    torch.save(data, path)
    return path


def test_format_1_files_load_safely_with_a_warning_and_upgrade_by_saving_again(tmp_path):
    path = format_1_file(tmp_path / "old.pt")
    with pytest.warns(UserWarning, match="format version 1, without a checksum"):
        data = load_checkpoint(path)
    assert data["global_step"] == 10 and "sha256" not in data
    save_checkpoint(path, data)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        upgraded = load_checkpoint(path)
    assert upgraded["format_version"] == 3 and upgraded["sha256"] == file_digest(path)
    assert_same(upgraded["model"], data["model"])


def format_2_file(path, **changes):
    """A checkpoint as format 2 wrote it: the sha256 of its values (`payload_digest`) among them."""
    data = {"format": "hive_envs.checkpoint", "format_version": 2, "package_version": "0.1.0", **payload()}
    data["sha256"] = payload_digest(data)
    data.update(changes)
    torch.save(data, path)
    return path


def test_format_2_files_load_with_their_checksum_checked_and_upgrade_by_saving_again(tmp_path):
    path = format_2_file(tmp_path / "old.pt")
    data = load_checkpoint(path)
    assert data["format_version"] == 2 and data["sha256"] == payload_digest(data)
    upgraded = load_checkpoint(save_checkpoint(path, data))
    assert upgraded["format_version"] == 3 and upgraded["sha256"] == file_digest(path)
    format_2_file(path, global_step=11)
    with pytest.raises(ValueError, match="do not match the sha256 recorded"):
        load_checkpoint(path)


def test_format_1_files_holding_other_objects_are_refused(tmp_path):
    path = format_1_file(tmp_path / "old.pt", observation_shape=torch.Size([5]))
    with pytest.raises(ValueError, match="is not a valid hive_envs checkpoint: .*torch.Size"):
        load_checkpoint(path)


@pytest.mark.parametrize("version", [4, 0, True, "2", None])
def test_unknown_format_versions_are_refused(tmp_path, version):
    path = format_1_file(tmp_path / "c.pt", format_version=version)
    with pytest.raises(
        ValueError, match=rf"has format version {version!r}; this hive_envs reads versions 1, 2, 3"
    ):
        load_checkpoint(path)


def test_non_finite_weights_are_refused(tmp_path):
    data = payload()
    data["model"]["trunk.1.weight"][0, 0] = float("nan")
    path = save_checkpoint(tmp_path / "c.pt", data)
    with pytest.raises(ValueError, match=r"weight 'trunk.1.weight' holds NaN or infinite values"):
        load_checkpoint(path)


def test_stale_temporaries_are_removed_and_nothing_else(tmp_path):
    stale = [".latest.pt.0123456789ab.tmp", ".step_0000000128.pt.k2j_h4l5.tmp"]
    kept = ["latest.pt", "notes.tmp", ".hidden", "x.tmp.pt"]
    for name in stale + kept:
        (tmp_path / name).write_bytes(b"x")
    assert sorted(p.name for p in remove_stale_temporaries(tmp_path)) == sorted(stale)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(kept)


@pytest.mark.parametrize(
    ("search", "message"),
    [
        ({"temperature": 2.0}, "unknown search setting(s) 'temperature'"),
        ({"prior_temperature": "hot"}, "search setting 'prior_temperature' is 'hot', not a number"),
        ({"rule_value_share": True}, "search setting 'rule_value_share' is True, not a number"),
    ],
)
def test_a_checkpoints_bad_search_settings_are_refused_naming_it(tmp_path, search, message):
    from hive_envs.players.checkpoint import AgentPlayer
    from tests.play.helpers import tiny_hoyito_checkpoint

    path = tiny_hoyito_checkpoint(tmp_path / "h.pt")
    save_checkpoint(path, {**load_checkpoint(path), "search": search})
    with pytest.raises(ValueError, match=re.escape(f"checkpoint {str(path)!r}: {message}")):
        AgentPlayer.load(path, simulations=4)


# -- sizes bounded by the file before anything is allocated ----------------------------------------


def rezip(source, target, compression):
    """`source`'s archive written again with every record compressed by `compression`."""
    import zipfile

    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", compression) as new:
        for record in old.infolist():
            new.writestr(record.filename, old.read(record.filename))
    return target


def test_a_compressed_record_is_refused_before_torch_reads_it(tmp_path):
    import zipfile

    path = save_checkpoint(tmp_path / "c.pt", payload())
    bomb = rezip(path, tmp_path / "bomb.pt", zipfile.ZIP_DEFLATED)  # torch itself would read this
    with pytest.raises(ValueError, match=r"record '.*' is compressed, which torch never writes"):
        load_checkpoint(bomb)


def test_a_record_declaring_more_bytes_than_the_file_is_refused(tmp_path):
    import struct

    path = save_checkpoint(tmp_path / "c.pt", payload())
    raw = bytearray(path.read_bytes())
    central = raw.rfind(b"PK\x01\x02")  # the last record's central directory entry
    raw[central + 20 : central + 28] = struct.pack("<II", 2**31, 2**31)  # compressed, uncompressed size
    path.write_bytes(bytes(raw))
    with pytest.raises(ValueError, match=r"declares 2147483648 bytes \(2147483648 stored\) in a file of"):
        load_checkpoint(path)


def test_a_file_in_torchs_legacy_format_is_refused(tmp_path):
    torch.save(payload(), tmp_path / "c.pt", _use_new_zipfile_serialization=False)
    with pytest.raises(ValueError, match="not a zip archive"):
        load_checkpoint(tmp_path / "c.pt")


@pytest.mark.parametrize(
    ("network", "message"),
    [
        (
            {"kind": "mlp", "hidden_sizes": [4000, 4000]},
            r"\['hidden_sizes'\]\[0\] = 4000 cannot fit 84 stored",
        ),
        (
            {"kind": "mlp", "hidden_sizes": [8] * 1000},
            r"\['hidden_sizes'\] has 1000 items for 6 stored weights",
        ),
        ({"kind": "mlp", "hidden_sizes": [-8]}, r"\['hidden_sizes'\]\[0\] = -8 cannot fit"),
        ({"kind": "mlp"}, r"spec \{'kind': 'mlp'\} cannot be built: KeyError\('hidden_sizes'\)"),
        ({"kind": "mlp", "hidden_sizes": ["8"]}, r"cannot be built"),
        (
            {"kind": "mlp", "hidden_sizes": [9]},
            r"weights do not fit network .*'policy_head.weight' is \(3, 8\) stored",
        ),
    ],
)
def test_a_network_spec_is_checked_against_the_stored_weights_before_building(
    tmp_path, monkeypatch, network, message
):
    import hive_envs.agents.checkpoint as checkpoint_module

    built = []
    real_build = checkpoint_module.build_network

    def spy(*args):
        built.append(torch.get_default_device().type)
        return real_build(*args)

    monkeypatch.setattr(checkpoint_module, "build_network", spy)
    path = save_checkpoint(tmp_path / "c.pt", {**payload(), "network": network})
    with pytest.raises(ValueError, match=message):
        load_policy(path)
    assert set(built) <= {"meta"}  # nothing was allocated for the refused network
