"""A checkpoint file's bytes, checked before `torch.load` reads a value of it.

`torch.save` writes a zip archive of *stored* (uncompressed) records: the pickled structure
(``data.pkl``), one record per tensor storage, and small tags. Two checks read only the archive's
bytes:

- `check_records`: the archive's directory bounds what `torch.load` will allocate by the file's own
  size (a compressed record, which torch never writes, could unpack to gigabytes).
- `sign` / `verify`: a sha256 of the file as `torch.save` wrote it, recorded in the archive's comment
  (``hive_envs.checkpoint sha256=<hex>``, the last bytes of the file, which zip readers and torch
  skip), is checked over the bytes in one streaming pass, before anything is unpickled. The digest
  covers every byte but the comment and its length field (taken as 0, as torch wrote it), so a
  flipped byte anywhere else, or an edited comment, is caught without walking the structure.

The end of a zip archive (its "end of central directory" record, `EOCD_SIZE` bytes, then the comment):

    ... | PK\\x05\\x06 | 16 bytes of counts and offsets | comment length (2 bytes) | comment |
          ^ size - len(comment) - 22                                               ^ size - len(comment)
"""

from __future__ import annotations

import hashlib
import re
import struct
import zipfile
from pathlib import Path
from typing import BinaryIO

EOCD_SIGNATURE = b"PK\x05\x06"
EOCD_SIZE = 22
COMMENT = re.compile(rb"hive_envs\.checkpoint sha256=([0-9a-f]{64})")
_CHUNK = 1 << 20


def check_records(path: Path, name: str) -> bytes:
    """ValueError unless ``path`` is a zip archive of stored records, none larger than the file (a
    file that is no zip archive is torch's legacy format, which torch has not written since 1.6);
    returns the archive's comment."""
    size = path.stat().st_size
    try:
        with zipfile.ZipFile(path) as archive:
            records, comment = archive.infolist(), archive.comment
    except Exception as error:  # noqa: BLE001 (zipfile raises many types for a damaged archive)
        raise ValueError(
            f"checkpoint {name} is corrupt or not a torch file: not a zip archive ({error})"
        ) from None
    for record in records:
        if record.compress_type != zipfile.ZIP_STORED:
            raise ValueError(
                f"checkpoint {name} is refused: its record {record.filename!r} is compressed, which torch "
                f"never writes (a compressed record can unpack to far more memory than the file's size)"
            )
        if record.file_size != record.compress_size or record.file_size > size:
            raise ValueError(
                f"checkpoint {name} is corrupt: its record {record.filename!r} declares {record.file_size} "
                f"bytes ({record.compress_size} stored) in a file of {size} bytes"
            )
    return comment


def recorded_digest(comment: bytes) -> str | None:
    """The sha256 an archive comment records, or None for a comment that is not ours (or none)."""
    match = COMMENT.fullmatch(comment)
    return match.group(1).decode() if match else None


def sign(handle: BinaryIO) -> str:
    """Record the sha256 of the archive `torch.save` has just written to ``handle`` (a file opened for
    reading and writing, holding only that archive) in the archive's comment; returns the digest."""
    size = handle.seek(0, 2)
    handle.seek(size - EOCD_SIZE)
    end = handle.read(EOCD_SIZE)
    if end[:4] != EOCD_SIGNATURE or end[-2:] != b"\0\0":  # torch writes no comment
        raise RuntimeError("torch.save wrote an archive whose end this module does not know")
    digest = _sha256(handle, size, b"")
    comment = b"hive_envs.checkpoint sha256=" + digest.encode()
    handle.seek(size - 2)
    handle.write(struct.pack("<H", len(comment)) + comment)
    return digest


def verify(path: Path, name: str, comment: bytes, recorded: str) -> None:
    """ValueError unless the file's bytes (its comment, read by `check_records`, left out) have the
    sha256 ``recorded``; one streaming pass over the file, nothing unpickled."""
    size = path.stat().st_size
    start = size - len(comment) - EOCD_SIZE
    with open(path, "rb") as handle:
        handle.seek(max(start, 0))
        end = handle.read(EOCD_SIZE + len(comment))
        if (
            start < 0
            or end[:4] != EOCD_SIGNATURE
            or end[EOCD_SIZE - 2 : EOCD_SIZE] != struct.pack("<H", len(comment))
        ):
            raise ValueError(f"checkpoint {name} is corrupt: its sha256 comment is not at the file's end")
        digest = _sha256(handle, size - len(comment) - 2, b"\0\0")
    if digest != recorded:
        raise ValueError(
            f"checkpoint {name} is corrupt: its bytes do not match the sha256 recorded when it was saved "
            f"(recorded {recorded}, computed {digest})"
        )


def _sha256(handle: BinaryIO, length: int, tail: bytes) -> str:
    """sha256 (hex) of the first ``length`` bytes of ``handle``, then ``tail``."""
    digest = hashlib.sha256()
    handle.seek(0)
    left = length
    while left > 0:
        chunk = handle.read(min(_CHUNK, left))
        if not chunk:
            break
        digest.update(chunk)
        left -= len(chunk)
    digest.update(tail)
    return digest.hexdigest()
