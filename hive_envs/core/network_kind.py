"""`NetworkKind`: a kind of policy-value network, declared once and found by its name.

A config's ``network:`` names a kind, and so does the ``kind`` of the network spec every checkpoint
records. The generic kinds (``mlp``, ``hexconv``) are declared in `hive_envs.agents.network_kinds`;
a game's own kinds in its definition (``agents.networks``), with their code in the game's folder
(`hive_envs/hive/agent/`, `hive_envs/hoyito/agent/`). `hive_envs.agents.network_kinds` looks a name up
among both, so generic code (the trainers, the checkpoint loader, the players) reaches a game's
network only through its kind, never by the kind's name.

A kind's record, whose code fields (*part*) take an object or a ``"module:attribute"`` text
(`hive_envs.core.parts.Part`: reading a kind imports no torch):

- ``name``: the name in configs and specs; ``summary``: one line for ``--help``.
- ``options`` *part*: its options class, a `NetworkOptions` dataclass that validates its values on
  construction (ValueError naming the option): what a config's ``network_options:`` holds.
- ``build`` *part*: ``(spec, observation_shape, num_actions) -> torch.nn.Module``: the network a spec
  describes. The spec is data (a checkpoint's, written by any earlier version): the builder reads
  every form its kind's specs ever took.
- ``rules`` *part*: ``(game options) -> dict``: the rule options the spec carries under ``"rules"``
  for a network that simulates moves with its game's kernels (its features), None for none.
- ``legal_actions``: the network has a legal-action form (`hive_envs.agents.networks.LegalActionNetwork`:
  ``rule_features`` and ``legal_policy``), which expert iteration trains.
- ``batch_evaluator`` *part*: ``(network, source, rule_value_share) ->`` a leaf evaluator faster than the
  generic one (`hive_envs.agents.batch_evaluators`), None for the generic one.
- ``new_run`` *part*: ``(network, options, game_options, seed, status) -> dict[str, float]``: what a new
  training run does to the network before its first update (Hoyito's: fit the board values its
  features' search reads), returning the scalars to log; ``status(text)`` shows what it does. None:
  nothing.
- ``legacy_keys``: config keys of earlier versions named after the game (``hive_features``) -> the
  option each one is now; a config that still has one is read once more, with a DeprecationWarning.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hive_envs.core.parts import Part, check_names


@dataclass(frozen=True)
class Trunk:
    """The trunk settings a config gives every network (its top-level keys ``hidden_sizes``,
    ``conv_channels``, ``conv_blocks``): each kind takes those of the trunk it is built on."""

    hidden_sizes: tuple[int, ...]
    channels: int
    blocks: int


@dataclass(frozen=True)
class NetworkOptions:
    """Base of a kind's options (a frozen dataclass; ``__post_init__`` validates, ValueError)."""

    def spec(self, trunk: Trunk) -> dict[str, Any]:
        """The network spec's entries besides ``kind`` and ``rules`` for these options on ``trunk``."""
        raise NotImplementedError

    @property
    def rule_value(self) -> bool:
        """Whether the network has a rule value (``rule_value(rule_features)`` and ``init_from_rule``):
        what ``init_from_rule`` and ``search_rule_value_share`` need."""
        return False


def check_int(owner: str, name: str, value: Any, low: int, high: int | None = None) -> None:
    """ValueError unless ``value`` is an int (not a bool) in ``low..high`` (``high`` None: no bound)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        allowed = f"an int >= {low}" if high is None else f"an int in {low}..{high}"
        raise ValueError(f"{owner} option {name!r} must be {allowed}, got {value!r}")


def check_choice(owner: str, name: str, value: Any, choices: tuple[int, ...]) -> None:
    """ValueError unless ``value`` is an int (not a bool) among ``choices`` (a feature set's number)."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in choices:
        allowed = " or ".join(str(choice) for choice in choices)
        raise ValueError(f"{owner} option {name!r} must be {allowed}, got {value!r}")


@dataclass(frozen=True, kw_only=True, repr=False)
class NetworkKind:
    """One kind of network (the fields: see the module docstring)."""

    name: str
    summary: str
    options: Part[type[NetworkOptions]] = Part()
    build: Part[Callable[[dict, tuple[int, ...], int], Any]] = Part()
    rules: Part[Callable[[Any], dict] | None] = Part(None)
    legal_actions: bool = False
    batch_evaluator: Part[Callable[..., Any] | None] = Part(None)
    new_run: Part[Callable[..., dict[str, float]] | None] = Part(None)
    legacy_keys: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:  # the dataclass's would import every part
        return f"NetworkKind(name={self.name!r})"

    def parse_options(self, values: dict | None = None) -> NetworkOptions:
        """The options object of a dict of ``network_options`` (ValueError naming an unknown key, the
        known ones, or a bad value)."""
        values = {} if values is None else values
        check_names(f"network {self.name!r}", values, [f.name for f in dataclasses.fields(self.options)])
        return self.options(**values)

    def spec(self, options: NetworkOptions, trunk: Trunk) -> dict[str, Any]:
        """The network spec (without ``rules``, which come from the game: `rules`) of ``options``."""
        return {"kind": self.name, **options.spec(trunk)}
