"""Checkpoint files: network weights plus everything needed to rebuild and check them.

Safety. A checkpoint is a `torch.save`d dict that holds only tensors and plain values (dict,
list, tuple, str, int, float, bool, None). It is read with `torch.load(weights_only=True)`:
PyTorch's restricted unpickler, which builds tensors and those containers and refuses every
other Python object, so a crafted file cannot run code when it is loaded; it is refused with a
ValueError instead. `save_checkpoint` refuses a payload holding anything else, so every file it
writes can be read that way.

Bounds. Before `torch.load`, the archive's records are bounded by the file's size and (format 3) the
sha256 of its bytes is checked (`hive_envs.agents.checkpoint_file`); after it, and before anything
else walks the values, their structure is bounded: values, nesting and data, each shared value
counted wherever it appears (`hive_envs.agents.plain_values`). `save_checkpoint` refuses a payload
past those bounds, so what it writes loads.

Integrity. Format 3 records `sha256`, a digest of the file's bytes as `torch.save` wrote them, in the
zip archive's comment (`checkpoint_file.sign`), computed at save and checked at load before anything
is unpickled: a flipped byte in the weights or anywhere else is reported, not played. The file is
written atomically: to a temporary file in the same directory (created with the user's umask),
flushed to disk, then renamed over the target, so a crash never leaves a half-written checkpoint under
the final name; `remove_stale_temporaries` deletes what a killed writer left.

Format 2 recorded `sha256` inside the payload, a digest of its values (`payload_digest`, walked after
the structure is bounded); format 1 has none and is read with a warning that corruption cannot be
detected. Both are still read through the same safe loader; re-saving writes format 3:
`save_checkpoint(path, load_checkpoint(path))`.

Keys (format 3):
  format        "hive_envs.checkpoint" (tells our files from any other .pt)
  format_version  3
  package_version  hive_envs.__version__ that wrote it
  game          str, game name ("hoyito", "hive", ...)
  game_options  dict of the game's options (holes_per_row, expansions, ...)
  encoding_version  str, the observation/action encoding version of the game's env ("v0")
  observation_shape  tuple of int; num_actions  int: the spaces the network was built for
  network       dict, the NetworkSpec (see networks.py)
  model         dict of parameter name -> tensor (the network's state_dict)
  config        optional: the training config as a plain dict
  search        optional dict: how ``PATH@N`` searches with this network, ``prior_temperature``
                and ``rule_value_share`` (`hive_envs.agents.search`; the training config's
                ``search_*`` keys, a pretrained card's ``search``); absent: 1 and 0
  global_step   int, env steps (plies, all games) played by training so far
  update        int, PPO updates done so far
  train_state   optional dict (for --resume): optimizer state dict, opponent pool (list of
                state dicts), elapsed training seconds
`load_checkpoint` adds ``sha256``, the digest it checked (in the file's comment; format 2: the key).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import secrets
import warnings
from collections import OrderedDict
from pathlib import Path
from typing import Any

import torch
from torch.torch_version import TorchVersion

from hive_envs.agents import checkpoint_file
from hive_envs.agents.network_kinds import build_network
from hive_envs.agents.plain_values import PLAIN_TYPES, byte_budget, check_plain
from hive_envs.core.short_repr import short_repr

if TorchVersion(torch.__version__) < "2.6":  # weights_only=True could run code before 2.6 (CVE-2025-32434)
    raise ImportError(
        f"hive_envs.agents needs torch >= 2.6 to load checkpoints safely; found {torch.__version__}"
    )

CHECKPOINT_FORMAT = "hive_envs.checkpoint"
CHECKPOINT_FORMAT_VERSION = 3
READABLE_FORMAT_VERSIONS = (1, 2, 3)
CHECKSUM_KEY = "sha256"
REQUIRED_KEYS = {  # key -> the types its value may have
    "format": (str,),
    "format_version": (int,),
    "game": (str,),
    "game_options": (dict,),
    "encoding_version": (str,),
    "observation_shape": (tuple, list),
    "num_actions": (int,),
    "network": (dict,),
    "model": (dict,),
    "global_step": (int,),
    "update": (int,),
}
OPTIONAL_KEYS = {"package_version": (str,), "config": (dict,), "search": (dict,), "train_state": (dict,)}
TEMPORARY_SUFFIX = ".tmp"


def payload_digest(data: dict[str, Any]) -> str:
    """sha256 (hex) of a payload, excluding its own `sha256` key: format 2's checksum.

    Walks the payload in order and hashes, with a type tag and length before each item, every
    key and value: tensors as dtype, shape and raw bytes; dicts in insertion order (a state
    dict's `_metadata` included); lists, tuples, str, int, float, bool, None. Raises ValueError
    naming the place of any other object (a checkpoint holds only these).
    """
    digest = hashlib.sha256()
    _feed(digest, {key: value for key, value in data.items() if key != CHECKSUM_KEY}, "payload")
    return digest.hexdigest()


def _feed(digest, value: Any, where: str) -> None:
    kind = type(value)
    if kind is bool or value is None:
        digest.update(b"B1" if value is True else b"B0" if value is False else b"N")
    elif kind is int:
        _feed_bytes(digest, b"I", str(value).encode())
    elif kind is float:
        _feed_bytes(digest, b"F", value.hex().encode())
    elif kind is str:
        _feed_bytes(digest, b"S", value.encode("utf-8", "surrogatepass"))
    elif kind in (torch.Tensor, torch.nn.Parameter) and value.layout == torch.strided:
        flat = torch.empty(value.numel(), dtype=value.dtype).copy_(value.detach().reshape(-1))  # stride 1
        _feed_bytes(digest, b"T", f"{value.dtype}{tuple(value.shape)}".encode())
        digest.update(flat.view(torch.uint8).numpy())
    elif kind in (list, tuple):
        digest.update(b"L" if kind is list else b"U")
        digest.update(str(len(value)).encode() + b":")
        for i, item in enumerate(value):
            _feed(digest, item, f"{where}[{i}]")
    elif kind in (dict, OrderedDict):
        digest.update(str(len(value)).encode() + (b"D:" if kind is dict else b"O:"))
        for key, item in value.items():
            _feed(digest, key, f"{where} key {key!r}")
            _feed(digest, item, f"{where}[{key!r}]")
        metadata = getattr(value, "_metadata", None)  # torch state dicts carry module versions here
        if metadata is not None:
            _feed(digest, metadata, f"{where}._metadata")
    else:
        raise ValueError(
            f"{where} is a {kind.__module__}.{kind.__qualname__}; a checkpoint holds only {PLAIN_TYPES}"
        )


def _feed_bytes(digest, tag: bytes, payload: bytes) -> None:
    digest.update(tag + str(len(payload)).encode() + b":" + payload)


def save_checkpoint(path: str | os.PathLike, payload: dict[str, Any]) -> Path:
    """Write `payload` (plus the format tags, and its sha256 in the file) to `path` atomically;
    returns the path.

    A payload read by `load_checkpoint` may be saved again (its tags and checksum are replaced):
    that is how a format-1 or format-2 file is upgraded. Raises ValueError, before writing anything,
    for a payload that lacks a required key, holds anything but tensors and plain values, or is past
    the bounds `load_checkpoint` reads (`plain_values`).
    """
    from hive_envs.version import __version__

    path = Path(path)
    tags = {
        "format": CHECKPOINT_FORMAT,
        "format_version": CHECKPOINT_FORMAT_VERSION,
        "package_version": __version__,
    }
    data = {**tags, **{key: value for key, value in payload.items() if key not in (*tags, CHECKSUM_KEY)}}
    _check_keys(data, "payload")
    return write_signed(path, data)


def write_signed(path: Path, data: dict[str, Any]) -> Path:
    """Write ``data`` with `torch.save` to ``path`` atomically, its sha256 recorded in the file
    (`checkpoint_file.sign`); returns the path. The agents' and the learned evaluations' files are
    written so. ValueError, before anything is written under ``path``, for data holding anything but
    tensors and plain values or past the bounds a load reads (`plain_values`)."""
    walked = check_plain(data, "payload")
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp_path = _create_temporary(path)
    try:
        with handle:
            torch.save(data, handle)
            handle.flush()
            size = handle.tell()
            if walked > byte_budget(size):  # shared tensors: fewer bytes in the file than walked
                raise ValueError(
                    f"payload holds {walked} bytes of data in a file of {size}: more than a checkpoint of "
                    f"that size may hold when loaded ({byte_budget(size)}); share no tensor between keys"
                )
            checkpoint_file.sign(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_path, path)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise
    _sync_directory(path.parent)
    return path


def _create_temporary(path: Path):
    """A new hidden file `.<name>.<random>.tmp` beside `path`, opened for writing (and reading back:
    `checkpoint_file.sign`). Made with os.open's mode 0o666, so the user's umask sets its permissions
    (mkstemp would force 0600)."""
    while True:
        tmp_path = path.with_name(f".{path.name}.{secrets.token_hex(6)}{TEMPORARY_SUFFIX}")
        try:
            fd = os.open(tmp_path, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        except FileExistsError:
            continue
        return os.fdopen(fd, "w+b"), tmp_path


def _sync_directory(directory: Path) -> None:
    """Flush the rename to disk too (POSIX; elsewhere a directory cannot be opened)."""
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_stale_temporaries(directory: str | os.PathLike) -> list[Path]:
    """Delete the temporary files a killed `save_checkpoint` left in `directory`; returns them.

    Only names of the form `save_checkpoint` gives them (`.<name>.<hex>.tmp`) are touched; call
    it when no other process is writing checkpoints there (a training run's start).
    """
    directory = Path(directory)
    if not directory.is_dir():
        return []
    pattern = re.compile(r"\..+\.[0-9a-z_]{6,}" + re.escape(TEMPORARY_SUFFIX))
    stale = [p for p in directory.iterdir() if pattern.fullmatch(p.name) and p.is_file()]
    for p in stale:
        p.unlink(missing_ok=True)
    return stale


def load_checkpoint(
    path: str | os.PathLike,
    *,
    game: str | None = None,
    encoding_version: str | None = None,
    observation_shape: tuple[int, ...] | None = None,
    num_actions: int | None = None,
) -> dict[str, Any]:
    """Read, verify and validate a checkpoint; each given expectation is checked against it.

    Never runs code from the file (module docstring). In this order: the archive's records are
    bounded by the file's size and the sha256 of its bytes checked (format 3); the file is unpickled
    by the safe loader; its structure is bounded (`plain_values.check_plain`) before anything walks it;
    then format 2's checksum, the keys, the weights and the expectations. Raises ValueError with the
    path and the reason for a missing file; a file that is corrupt, truncated, not ours, past the
    bounds, or holds anything but tensors and plain values; a checksum mismatch; missing or
    ill-typed keys; weights that are not finite; a mismatch of game, encoding version or spaces.
    Returns the stored dict, with ``sha256`` the digest checked.
    """
    path = Path(path)
    name = repr(str(path))
    recorded = verified_digest(path, f"checkpoint {name}")
    data = _safe_torch_load(path, name)
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{name} is not a hive_envs checkpoint")
    version = data.get("format_version")
    if type(version) is not int or version not in READABLE_FORMAT_VERSIONS:
        raise ValueError(
            f"checkpoint {name} has format version {short_repr(version)}; this hive_envs reads versions "
            f"{', '.join(map(str, READABLE_FORMAT_VERSIONS))} (a newer hive_envs wrote it?)"
        )
    check_bounded(data, path, f"checkpoint {name} is not a valid hive_envs checkpoint")
    if version == 3:
        if recorded is None:
            raise ValueError(
                f"checkpoint {name} is corrupt: it has no sha256 (format 3 records it in the zip archive's "
                f"comment; was the file rewritten by another tool?)"
            )
        data[CHECKSUM_KEY] = recorded
    elif version == 2:
        _check_payload_digest(data, name)
    else:
        warnings.warn(
            f"checkpoint {name} has format version 1, without a checksum: corruption cannot be detected. "
            f"Re-save it as version {CHECKPOINT_FORMAT_VERSION}: from hive_envs.agents import "
            f"load_checkpoint, save_checkpoint; save_checkpoint(path, load_checkpoint(path))",
            UserWarning,
            stacklevel=2,
        )
    _check_keys(data, name)
    _check_finite(data, name)
    expectations = {
        "game": game,
        "encoding_version": encoding_version,
        "observation_shape": None if observation_shape is None else tuple(observation_shape),
        "num_actions": num_actions,
    }
    for key, expected in expectations.items():
        found = tuple(data[key]) if key == "observation_shape" else data[key]
        if expected is not None and found != expected:
            raise ValueError(
                f"checkpoint {name} is for {key}={short_repr(found)}, but {key}={expected!r} is needed"
            )
    return data


def verified_digest(path: Path, what: str) -> str | None:
    """The sha256 recorded in the file (None where it records none), checked against its bytes, after
    its archive's records are bounded by its size (`checkpoint_file`); ValueError naming ``what``
    (the kind of file and its name) for a missing file, one past the bounds or a mismatch."""
    name = repr(str(path))
    if not path.is_file():
        raise ValueError(f"{what} does not exist")
    comment = checkpoint_file.check_records(path, name)
    recorded = checkpoint_file.recorded_digest(comment)
    if recorded is not None:
        checkpoint_file.verify(path, name, comment, recorded)
    return recorded


def check_bounded(data: Any, path: Path, refusal: str) -> None:
    """ValueError ``"<refusal>: <why>"`` unless the structure loaded from ``path`` is within the bounds
    a file of its size may hold (`plain_values.check_plain`); before anything else walks it."""
    try:
        check_plain(data, "payload", byte_budget(path.stat().st_size))
    except ValueError as error:
        raise ValueError(f"{refusal}: {error}") from None


def _check_payload_digest(data: dict[str, Any], name: str) -> None:
    """Format 2: the ``sha256`` key is the digest of the other values (`payload_digest`)."""
    try:
        digest = payload_digest(data)
    except (ValueError, RuntimeError) as error:  # RuntimeError: a tensor torch cannot read back
        raise ValueError(f"checkpoint {name} is not a valid hive_envs checkpoint: {error}") from None
    if data.get(CHECKSUM_KEY) != digest:
        raise ValueError(
            f"checkpoint {name} is corrupt: its contents do not match the sha256 recorded when it was "
            f"saved (recorded {short_repr(data.get(CHECKSUM_KEY))}, computed {digest!r})"
        )


def _safe_torch_load(path: Path, name: str) -> Any:
    """`torch.load(weights_only=True)`, every failure a ValueError naming the file."""
    try:
        with warnings.catch_warnings():  # torch's notes on unusual pickle protocols: our error says enough
            warnings.simplefilter("ignore", UserWarning)
            return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # noqa: BLE001 (torch raises many types for a damaged file)
        message = str(error)
        found = re.search(r"GLOBAL (\S+)", message)
        if isinstance(error, pickle.UnpicklingError) and found:
            raise ValueError(
                f"checkpoint {name} was refused: it holds the Python object {found.group(1)}, and loading "
                f"that could run code (a hive_envs checkpoint holds only {PLAIN_TYPES}). Nothing from the "
                f"file was run; load only checkpoints written by hive_envs"
            ) from None
        unpickler = re.search(r"WeightsUnpickler error:\s*(\S[^\n]*)", message)
        detail = unpickler.group(1) if unpickler else " ".join(message.split())[:200]
        raise ValueError(f"checkpoint {name} is corrupt or not a torch file: {detail}") from None


def check_key_types(data: dict[str, Any], required: dict, optional: dict, what: str) -> None:
    """ValueError naming ``what`` (the file) unless ``data`` has every ``required`` key and each of
    its keys of ``required`` and ``optional`` a value of the types listed there."""
    missing = [key for key in required if key not in data]
    if missing:
        raise ValueError(f"{what} is incomplete: missing {missing}")
    for key, types in {**required, **optional}.items():
        if key in data and not isinstance(data[key], types):
            raise ValueError(f"{what}: {key!r} is a {type(data[key]).__name__}")


def _check_keys(data: dict[str, Any], name: str) -> None:
    """The required keys are there, and every key has a value of its type."""
    check_key_types(data, REQUIRED_KEYS, OPTIONAL_KEYS, f"checkpoint {name}")
    dims = (*data["observation_shape"], data["num_actions"])
    if not all(type(n) is int and n >= 1 for n in dims):
        raise ValueError(
            f"checkpoint {name}: bad spaces {short_repr(data['observation_shape'])} / "
            f"{short_repr(data['num_actions'])}"
        )
    if not all(isinstance(tensor, torch.Tensor) for tensor in data["model"].values()):
        raise ValueError(f"checkpoint {name}: 'model' holds something other than tensors")


def _check_finite(data: dict[str, Any], name: str) -> None:
    for key, tensor in data["model"].items():
        if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
            raise ValueError(f"checkpoint {name}: weight {short_repr(key)} holds NaN or infinite values")


DEFAULT_SEARCH = {"prior_temperature": 1.0, "rule_value_share": 0.0}


def stored_search(
    data: dict[str, Any], name: str | os.PathLike = "checkpoint", **given: float | None
) -> dict[str, float]:
    """The checkpoint's ``search`` over `DEFAULT_SEARCH` (a key it does not have keeps the default),
    with the settings ``given`` (not None) in place of its own; ValueError naming ``name`` for an
    unknown stored key or a stored value that is not a number (the ranges are checked where the
    settings are used: `hive_envs.agents.search`)."""
    stored = data.get("search", {})
    unknown = [key for key in stored if key not in DEFAULT_SEARCH]
    if unknown:
        raise ValueError(
            f"checkpoint {str(name)!r}: unknown search setting(s) {', '.join(short_repr(key, 60) for key in unknown[:8])} "
            f"(known: {', '.join(DEFAULT_SEARCH)})"
        )
    for key, value in stored.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(
                f"checkpoint {str(name)!r}: search setting {short_repr(key)} is {short_repr(value)}, not a number"
            )
    return {**DEFAULT_SEARCH, **stored, **{key: value for key, value in given.items() if value is not None}}


def network_from_checkpoint(data: dict[str, Any]) -> torch.nn.Module:
    """Rebuild the checkpoint's network with its weights, in eval mode, on the CPU.

    The network spec is first checked against the stored weights (`check_network_fits`), so a
    spec asking for a network far larger than its weights allocates nothing."""
    check_network_fits(data)
    network = build_network(data["network"], tuple(data["observation_shape"]), int(data["num_actions"]))
    load_weights(network, data)
    return network.eval()


def load_weights(network: torch.nn.Module, data: dict[str, Any]) -> None:
    """Copy the checkpoint's weights into `network` (ValueError when they do not fit it)."""
    try:
        network.load_state_dict(data["model"])
    except RuntimeError as error:
        raise ValueError(
            f"checkpoint weights do not fit network {short_repr(data['network'])}: {str(error)[:500]}"
        ) from None


def check_network_fits(data: dict[str, Any]) -> None:
    """ValueError unless the network the checkpoint's spec describes has exactly the stored weights'
    names and shapes. Every number and list in the spec is first bounded by the stored weights (no
    width above their total size, no list longer than their count), then the network is built on
    torch's ``meta`` device, which allocates no memory, and its shapes compared."""
    spec, model = data["network"], data["model"]
    total, count = sum(tensor.numel() for tensor in model.values()), len(model)
    for where, value in _spec_values(spec, "network"):
        if isinstance(value, list) and len(value) > count:
            raise ValueError(
                f"checkpoint network spec {where} has {len(value)} items for {count} stored weights"
            )
        if type(value) is int and not 0 <= value <= total:
            raise ValueError(
                f"checkpoint network spec {where} = {short_repr(value)} cannot fit {total} stored weight values"
            )
    try:
        with torch.device("meta"):
            shapes = {
                key: tuple(tensor.shape)
                for key, tensor in build_network(
                    spec, tuple(data["observation_shape"]), int(data["num_actions"])
                )
                .state_dict()
                .items()
            }
    except Exception as error:  # noqa: BLE001 (a bad spec fails in many ways inside torch)
        raise ValueError(
            f"checkpoint network spec {short_repr(spec)} cannot be built: {repr(error)[:300]}"
        ) from None
    stored = {key: tuple(tensor.shape) for key, tensor in model.items()}
    if shapes != stored:
        differ = sorted(key for key in shapes.keys() | stored.keys() if shapes.get(key) != stored.get(key))
        raise ValueError(
            f"checkpoint weights do not fit network {short_repr(spec)}: {len(differ)} weights differ, e.g. "
            f"{short_repr(differ[0])} "
            f"is {stored.get(differ[0])} stored, {shapes.get(differ[0])} in the network"
        )


def _spec_values(value: Any, where: str):
    """(place, value) of every list and number in a network spec, its game ``rules`` left out
    (the game checks its own options)."""
    yield where, value
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "rules":
                yield from _spec_values(item, f"{where}[{short_repr(key, 60)}]")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _spec_values(item, f"{where}[{i}]")
