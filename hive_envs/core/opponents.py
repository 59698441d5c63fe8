"""Opponents for the single-agent and vector envs: resolving an `opponent` argument.

An opponent is a callable `(observation, action_mask) -> action` for one game. Accepted
`opponent` arguments:

- ``"random"``: a uniformly random legal action (drawn from the env's `np_random`);
- ``"greedy"``: the action with the largest immediate gain (the game's `action_values()`,
  e.g. the counters a Hoyito move captures), ties broken at random;
- any callable `(observation, action_mask) -> action`;
- a checkpoint path (a string ending in ``.pt``): played by `hive_envs.agents`, which is
  imported (with torch) only then, inside `load_opponent`, so `import hive_envs` stays free of
  torch and no prior `import hive_envs.agents` is needed;
- any other string: offered to the loaders registered with `register_opponent_loader` (the
  hook through which other code makes its own strings into opponents). No loader accepting
  it -> ValueError.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

OpponentFn = Callable[[np.ndarray, np.ndarray], int]
#: loader(spec: str) -> OpponentFn, or None when the spec is not its kind
OpponentLoader = Callable[[str], "OpponentFn | None"]

_LOADERS: list[OpponentLoader] = []


def register_opponent_loader(loader: OpponentLoader) -> None:
    """Let `loader` turn string `opponent` arguments (e.g. checkpoint paths) into opponents."""
    if loader not in _LOADERS:
        _LOADERS.append(loader)


def describe_allowed() -> str:
    return (
        "'random', 'greedy', a callable (observation, action_mask) -> action, "
        "or a string a registered loader accepts"
    )


def load_opponent(spec) -> OpponentFn | None:
    """A callable or loader-made opponent for `spec`; None for 'random' / 'greedy'; else ValueError."""
    if spec in ("random", "greedy"):
        return None
    if callable(spec):
        return spec
    if isinstance(spec, str):
        if spec.endswith(".pt"):
            import hive_envs.agents  # noqa: F401  (lazily: imports torch; registers the .pt loader)
        for loader in _LOADERS:
            fn = loader(spec)
            if fn is not None:
                return fn
    raise ValueError(f"opponent must be {describe_allowed()}; got {spec!r}")


def random_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


def greedy_action(values: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
    """The legal action of largest value, ties broken uniformly at random."""
    legal = np.flatnonzero(mask)
    v = np.asarray(values)[legal]
    best = legal[v == v.max()]
    return int(best[rng.integers(best.size)])


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of `masks` (argmax of masked uniforms)."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)
