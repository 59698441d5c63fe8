"""The ``observation`` option of the Hive envs and batch: which encoding shows the position.

    encoding = make_hive_encoding("MLP", "pieces")   # HivePiecesEncoding; "planes" (the default): HiveEncoding

Both encodings share the actions, the mask and the frame (`hive_envs.hive.encoding`); they differ in
the observation only: ``"planes"`` the uint8 planes, ``"pieces"`` one int16 row per tile
(`hive_envs.hive.piece_encoding`). Both are documented in `hive_envs.hive_v0`.
"""

from __future__ import annotations

from hive_envs.hive.encoding import HiveEncoding, make_encoding
from hive_envs.hive.piece_encoding import make_pieces_encoding

OBSERVATIONS = ("planes", "pieces")
"""The values of the ``observation`` option; the first is the default."""


def check_observation(observation) -> str:
    """``observation`` if it is one of `OBSERVATIONS`, else ValueError naming the option and its values."""
    if not isinstance(observation, str) or observation not in OBSERVATIONS:
        allowed = ", ".join(repr(x) for x in OBSERVATIONS)
        raise ValueError(f"observation must be one of {allowed}, got {observation!r}")
    return observation


def make_hive_encoding(expansions: str, observation: str = "planes") -> HiveEncoding:
    """The encoding of game type ``Base[+expansions]`` with the ``observation`` layout."""
    if check_observation(observation) == "pieces":
        return make_pieces_encoding(expansions)
    return make_encoding(expansions)
