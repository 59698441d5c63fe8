"""What a training run will take of the machine, estimated from its config before anything is made.

A config is data from anyone (docs/safety.md), and a few of its numbers size what a run allocates or
starts: ``hidden_sizes: [1000000000]`` is a network of billions of weights, ``rollout_steps:
1000000000`` a buffer of billions of observations, ``num_threads: 1000000`` a million threads. The
trainers (`hive_envs.training.run.TrainingRun`) check them against this machine before the run folder
is made, each refusal a one-line ValueError naming the key:

Cores (`check_cores`), against the cores this process may run on (`usable_cores`):

- ``num_threads`` at most `THREADS_PER_CORE` (4) per core: more threads than cores only wait;
- ``exit_expert_workers`` at most `WORKERS_PER_CORE` (2) per core: each is a process with its own
  interpreter, kernels and search table, and more than one per core gains nothing.

Memory (`check_memory`): the estimates below, summed, at most the memory available now
(`available_memory`: MemAvailable of /proc/meminfo on Linux, else the physical memory). Each
estimate is charged to the key that sizes it, and a refusal names the largest:

- `network_need` (``hidden_sizes`` or ``conv_channels``): the network's parameters, counted on torch's
  ``meta`` device (nothing allocated), 4 bytes each, kept `NETWORK_COPIES` + ``pool_size`` times
  (weights, gradients, Adam's two moments, the pool opponent's copy; one snapshot per pool entry);
- `games_need` (``num_games``): the arrays of one game's batch (observation, mask, state), per game;
- `env_need` (``env_options``): a PettingZoo classic env's own memory, as a child process measured it
  (`hive_envs.core.aec_make.footprint`), per game;
- `rollout_need` (``rollout_steps``, PPO): per batch step and game the observation and mask twice
  (the rollout, and the update's copy of the trained decisions) and `DECISION_BYTES` of actions,
  values and rewards;
- `examples_need` (``rollout_steps``) and `buffer_need` (``exit_buffer_size``), expert iteration: the
  examples of one self-play step and those the buffer keeps, each its observation as float32 and
  `EXAMPLE_BYTES` of arrays.

Not counted: the forward and backward passes' activations, the rule features of the lookahead
networks, the interpreter and libraries. A run that passes may still need more than its estimate; a
run refused could not have fitted.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from hive_envs.agents.network_kinds import build_network
from hive_envs.core.short_repr import short_repr
from hive_envs.training.game_lookup import network_spec

THREADS_PER_CORE = 4
WORKERS_PER_CORE = 2
NETWORK_COPIES = 5
"""Weights, gradients, Adam's two moments and the pool opponent's copy (each 4 bytes a parameter)."""
DECISION_BYTES = 128
"""A PPO decision's action, log-probability, value, mover, flags, rewards, advantage and return, in
the rollout and in the update."""
EXAMPLE_BYTES = 512
"""An expert-iteration example's arrays besides its observation (moves, features, targets: small
arrays, each with numpy's own overhead)."""


@dataclass(frozen=True)
class Need:
    """Bytes of memory a run needs for one thing, charged to the config key that sizes it."""

    key: str
    value: Any
    bytes: int
    what: str


Estimate = Callable[[Any, Any], "Need | None"]
"""``estimate(config, spaces) -> Need`` (None: nothing for this run); ``spaces``: a batch of one game."""


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else all)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def available_memory() -> int | None:
    """Bytes of memory available now: MemAvailable of /proc/meminfo (Linux), else the physical memory
    (os.sysconf), else None (memory is then not checked)."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def check_cores(config, cores: int | None = None) -> None:
    """ValueError naming the key when ``num_threads`` or ``exit_expert_workers`` is past its ceiling
    for ``cores`` (default: `usable_cores`)."""
    cores = usable_cores() if cores is None else cores
    for key, per_core, what in (
        ("num_threads", THREADS_PER_CORE, "torch threads"),
        ("exit_expert_workers", WORKERS_PER_CORE, "worker processes"),
    ):
        value = getattr(config, key)
        if value > per_core * cores:
            raise ValueError(
                f"config key {key!r} = {short_repr(value)} asks for more {what} than this machine runs: at "
                f"most {per_core} per core, {per_core * cores} for its {cores} cores"
            )


def check_memory(needs: list[Need], available: int | None = None) -> None:
    """ValueError naming the key of the largest need when the needs add up to more than ``available``
    bytes (default: `available_memory`; None: not checked)."""
    available = available_memory() if available is None else available
    total = sum(need.bytes for need in needs)
    if available is None or total <= available:
        return
    largest = max(needs, key=lambda need: need.bytes)
    raise ValueError(
        f"config key {largest.key!r} = {short_repr(largest.value)} needs about {_size(largest.bytes)} of memory "
        f"for {largest.what}; the run would need about {_size(total)} in all, and this machine has "
        f"{_size(available)} available"
    )


def check_env(config) -> None:
    """The config's PettingZoo env (if any), imported, then made once in a child process under the
    ceilings of `hive_envs.core.aec_make` (its memory is kept for `env_need`); ValueError naming
    ``env`` or ``env_options``."""
    from hive_envs.core.aec_make import footprint
    from hive_envs.core.aec_source import AecOptions, import_factory

    if not config.env:
        return
    options = AecOptions(config.env, config.env_options)
    try:
        import_factory(options.env)
    except ValueError as error:
        raise ValueError(f"config key 'env': {error}") from None
    try:
        footprint(options)
    except ValueError as error:
        raise ValueError(f"config key 'env_options': {error}") from None


def check_run(config, spaces, estimates: tuple[Estimate, ...], available: int | None = None) -> None:
    """`check_memory` of the needs ``estimates`` give for ``config`` over ``spaces``."""
    check_memory(
        [need for estimate in estimates if (need := estimate(config, spaces)) is not None], available
    )


def parameter_count(spec: dict, spaces) -> int:
    """The parameters of the network ``spec`` for ``spaces``, built on torch's ``meta`` device (which
    allocates nothing)."""
    with torch.device("meta"):
        network = build_network(spec, tuple(spaces.observation_shape), int(spaces.num_actions))
    return sum(parameter.numel() for parameter in network.parameters())


def network_need(config, spaces) -> Need:
    parameters = parameter_count(network_spec(config, spaces), spaces)
    key = "hidden_sizes" if "hidden_sizes" in config.network_spec() else "conv_channels"
    copies = NETWORK_COPIES + config.pool_size
    what = f"the {config.network} network's {parameters:,} parameters, {copies} copies of each"
    return Need(key, getattr(config, key), parameters * 4 * copies, what)


def games_need(config, spaces) -> Need:
    per_game = sum(value.nbytes for value in vars(spaces).values() if isinstance(value, np.ndarray))
    return Need(
        "num_games", config.num_games, config.num_games * per_game, f"games of {_size(per_game)} each"
    )


def env_need(config, spaces) -> Need | None:
    from hive_envs.core.aec_make import footprint
    from hive_envs.core.aec_source import AecOptions

    if not config.env:
        return None
    per_env = footprint(AecOptions(config.env, config.env_options))
    what = f"{config.num_games} envs (num_games) of {_size(per_env)} each"
    return Need("env_options", config.env_options, config.num_games * per_env, what)


def _observation_bytes(spaces, itemsize: int | None = None) -> int:
    size = itemsize if itemsize is not None else np.dtype(spaces.observation.dtype).itemsize
    return math.prod(spaces.observation_shape) * size


def rollout_need(config, spaces) -> Need:
    decisions = config.rollout_steps * config.num_games
    per_decision = 2 * (_observation_bytes(spaces) + int(spaces.num_actions)) + DECISION_BYTES
    what = f"rollouts of that many steps x {config.num_games} games (num_games), {_size(per_decision)} a decision"
    return Need("rollout_steps", config.rollout_steps, decisions * per_decision, what)


def examples_need(config, spaces) -> Need:
    per_example = _observation_bytes(spaces, 4) + EXAMPLE_BYTES
    what = (
        f"that many self-play steps x {config.num_games} games (num_games), {_size(per_example)} an example"
    )
    return Need(
        "rollout_steps", config.rollout_steps, config.rollout_steps * config.num_games * per_example, what
    )


def buffer_need(config, spaces) -> Need:
    per_example = _observation_bytes(spaces, 4) + EXAMPLE_BYTES
    what = f"the examples kept, {_size(per_example)} each"
    return Need("exit_buffer_size", config.exit_buffer_size, config.exit_buffer_size * per_example, what)


PPO: tuple[Estimate, ...] = (network_need, games_need, env_need, rollout_need)
EXPERT_ITERATION: tuple[Estimate, ...] = (network_need, games_need, env_need, examples_need, buffer_need)


def _size(count: int) -> str:
    """``count`` bytes for a reader: '3.2 GiB'."""
    for unit, shift in (("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if count >= 1 << shift:
            return f"{count / (1 << shift):,.1f} {unit}"
    return f"{count} bytes"
