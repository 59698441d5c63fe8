"""Hive rule options as one validated value object, parsed once at the API edge and carried down.

    options = HiveOptions(expansions="MLP", tournament_opening=True, max_turns=300, repetition_draw=False)
    options = HiveOptions.from_game_type("Base+MLP")     # from a UHP GameTypeString
    options.game_type                                    # "Base+MLP"
    options.kinds_mask                                   # bit mask of the bug kinds in play (engine state)

The envs, the batch, `HiveGame` and the agents all take their game type and rules from here: the
expansion letters are the one source, the GameTypeString ("Base" + "+letters") and the engine's
kinds mask are derived from them. Bad values raise ValueError naming the option.

``max_turns`` is a ply cap in [1, 2**31 - 1] (the engine's int32 state holds it and the ply
counter) or None for no cap. The env observation counts plies exactly up to 65,535 (two uint8
planes); past that ply (reachable only with a cap above it, or none) its ply planes wrap.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hive_envs.hive.engine.pieces import kinds_mask
from hive_envs.hive.engine.state import I_KINDS, I_MAX_TURNS, I_TOURNAMENT, new_state

EXPANSION_SETS = ("", "M", "L", "P", "ML", "MP", "LP", "MLP")
"""Expansion letters of the eight game types, in the UHP order M, L, P."""


def game_type_of(expansions: str) -> str:
    """The UHP GameTypeString of a set of expansion letters: "Base" or "Base+<letters>"."""
    return "Base" + ("+" + expansions if expansions else "")


GAME_TYPES = tuple(game_type_of(letters) for letters in EXPANSION_SETS)
MAX_TURNS_LIMIT = 2**31 - 1  #: the largest ply cap the int32 engine state holds


@dataclass(frozen=True)
class HiveOptions:
    """Validated Hive rule options (see the module docstring)."""

    expansions: str = ""
    tournament_opening: bool = True
    max_turns: int | None = 300
    repetition_draw: bool = False

    def __post_init__(self):
        if not isinstance(self.expansions, str) or self.expansions not in EXPANSION_SETS:
            raise ValueError(
                f"expansions must be one of {', '.join(repr(x) for x in EXPANSION_SETS)} "
                f"(letters in M, L, P order), got {self.expansions!r}"
            )
        for name in ("tournament_opening", "repetition_draw"):
            value = getattr(self, name)
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False, not {value!r}")
            object.__setattr__(self, name, bool(value))
        turns = self.max_turns
        if turns is not None and (
            isinstance(turns, (bool, np.bool_))
            or not isinstance(turns, (int, np.integer))
            or not 1 <= turns <= MAX_TURNS_LIMIT
        ):
            raise ValueError(
                f"max_turns must be an int in [1, {MAX_TURNS_LIMIT:,}] (plies) or None for no cap, not {turns!r}"
            )
        object.__setattr__(self, "max_turns", None if turns is None else int(turns))

    @classmethod
    def from_game_type(cls, game_type: str, **rules) -> HiveOptions:
        """Options of a UHP GameTypeString ("Base", "Base+M", ..., "Base+MLP"); ValueError if malformed."""
        if isinstance(game_type, str):
            letters = game_type[len("Base+") :] if game_type.startswith("Base+") else None
            if game_type == "Base":
                return cls("", **rules)
            if letters and letters in EXPANSION_SETS:
                return cls(letters, **rules)
        raise ValueError(
            f"game type {game_type!r} is not one of {', '.join(GAME_TYPES)} "
            "(expansion letters in M, L, P order)"
        )

    @property
    def game_type(self) -> str:
        return game_type_of(self.expansions)

    @property
    def kinds_mask(self) -> int:
        """Bit mask over the bug kinds in play (``1 << kind``), as the engine state stores it."""
        return kinds_mask(self.expansions)

    def new_state(self) -> np.ndarray:
        """The engine state array of the empty start position under these options."""
        return new_state(self.kinds_mask, self.tournament_opening, self.max_turns or 0)

    @classmethod
    def of_state(cls, state: np.ndarray, repetition_draw: bool = False) -> HiveOptions:
        """The options an engine state array was made under (the inverse of `new_state`; the
        repetition draw is kept outside the state, so it is given)."""
        letters = next((x for x in EXPANSION_SETS if kinds_mask(x) == int(state[I_KINDS])), None)
        if letters is None:
            raise ValueError(f"state has no valid game type (kinds mask {int(state[I_KINDS])})")
        return cls(letters, bool(state[I_TOURNAMENT]), int(state[I_MAX_TURNS]) or None, repetition_draw)
