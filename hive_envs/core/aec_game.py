"""Any two-player PettingZoo AEC env as a protocol game (`AecGame`) with its encoder (`AecEncoder`).

The env must follow the PettingZoo classic convention: two ``possible_agents`` (seat 0 is the first
of them), a ``Discrete(A)`` action space, and dict observations ``{"observation", "action_mask"}``
with an (A,) 0/1 mask of the agent to move. Wrappers are welcome (``env()`` of a classic game is
one). The env is used through the AEC API only, so this module imports no PettingZoo.

Reading an env (`EnvSpaces`, `is_over`, `mover`, `step_checked`, shared with `hive_envs.core.aec_batch`):

- the seat to move is ``possible_agents.index(agent_selection)``: a side that moves twice (Hoyito's
  extra turns) simply stays selected;
- a game is over once any agent is terminated or truncated (the classic games end both at once);
  a truncation is an end like a termination, its rewards decide the result;
- the rewards of a ply are ``env.rewards`` after its step (the AEC meaning of ``rewards``);
- the env's own legality must agree with its mask: a step of a masked-legal action that raises,
  or that PettingZoo's ``EnvLogger`` reports as an illegal move (the env penalised it), is a
  ValueError saying that the env's mask disagrees with its rules;
- an env the adapter cannot drive (its calls raise while it is made, read, reset, played or copied:
  `driving`) is a one-line ValueError naming the env and the call, not a traceback of its code.

`AecGame`: move ids are action indices. ``copy()`` copies the env's state (`copy_env`); ``undo()``
replays all moves but the last on a new env reset with the game's seed (`replay`), so the env must be
deterministic given its seed, as board games are. Why `copy_env` and not ``copy.deepcopy``:
PettingZoo's classic envs pickle through gymnasium's ``EzPickle``, whose copy is a NEW env built from
the constructor's arguments, not the position. ``result`` is the sign of seat 0's summed rewards minus
seat 1's. Greedy scores (`greedy_move_scores`): an env of this package (``env.unwrapped`` holds its
protocol ``game`` and ``encoder``, `hive_envs.core.game_env`) lends its game's heuristic, moves turned
into actions; any other env scores each legal action by the reward its mover gets for it (each
played in a copy of the env), so on the classic games, which pay only at the end, greedy is a move
that wins at once, else a uniformly random one. Why any env has it: such an opponent punishes
every immediate threat left open, which a random one does once in many games. No env has a progress
measure: `potential` always raises ValueError.
`AecEncoder` is the encoder a checkpoint's `GameView` uses: the env's own observation and mask.
"""

from __future__ import annotations

import contextlib
import copy
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from hive_envs.core.aec_make import make_env
from hive_envs.core.aec_source import AecOptions
from hive_envs.core.game import check_integer


@contextlib.contextmanager
def driving(label: str, doing: str) -> Iterator[None]:
    """Any exception but ValueError raised in the block (by the env's own code, while ``doing``) becomes
    a ValueError naming the env ``label``: the adapter cannot drive it. A ValueError (the adapter's own
    refusals, which name the env) passes as it is."""
    try:
        yield
    except ValueError:
        raise
    except Exception as error:  # someone else's env fails in its own ways
        detail = " ".join(str(error).split())[:300]
        raise ValueError(
            f"env {label}: the adapter cannot drive it: {doing} raised {type(error).__name__}: {detail}"
        ) from error


@dataclass(frozen=True)
class EnvSpaces:
    """What the batch contract needs to know of an env's spaces (checked by `EnvSpaces.of`)."""

    agents: tuple[str, str]
    observation_shape: tuple[int, ...]
    observation_dtype: np.dtype
    low: np.ndarray
    high: np.ndarray
    num_actions: int

    @classmethod
    def of(cls, env, label: str) -> EnvSpaces:
        """The spaces of ``env``; ValueError naming ``label`` for an env outside the convention."""
        with driving(label, "reading its agents and spaces"):
            return cls._of(env, label)

    @classmethod
    def _of(cls, env, label: str) -> EnvSpaces:
        agents = tuple(getattr(env, "possible_agents", ()))
        if len(agents) != 2:
            raise ValueError(f"env {label}: needs exactly two possible_agents, has {list(agents)}")
        space = env.observation_space(agents[0])
        parts: Any = getattr(space, "spaces", None)
        if not hasattr(parts, "keys") or not {"observation", "action_mask"} <= set(parts.keys()):
            raise ValueError(
                f"env {label}: its observations must be dicts with 'observation' and 'action_mask' "
                f"(the PettingZoo classic convention); its observation space is {space}"
            )
        num_actions = getattr(env.action_space(agents[0]), "n", None)
        if num_actions is None or int(num_actions) < 1:
            raise ValueError(f"env {label}: needs a Discrete action space, has {env.action_space(agents[0])}")
        if tuple(parts["action_mask"].shape) != (int(num_actions),):
            raise ValueError(
                f"env {label}: action_mask has shape {parts['action_mask'].shape}, the action space "
                f"Discrete({num_actions}) needs ({num_actions},)"
            )
        obs = parts["observation"]
        return cls(
            (str(agents[0]), str(agents[1])),
            tuple(int(n) for n in obs.shape),
            np.dtype(obs.dtype),
            np.asarray(getattr(obs, "low", np.zeros(obs.shape))),
            np.asarray(getattr(obs, "high", np.ones(obs.shape))),
            int(num_actions),
        )


def is_over(env) -> bool:
    return not env.agents or any(env.terminations[a] or env.truncations[a] for a in env.agents)


def mover(env, spaces: EnvSpaces) -> int:
    return spaces.agents.index(env.agent_selection)


def read_mask(env, spaces: EnvSpaces, label: str, observation=None) -> np.ndarray:
    """The mask of the agent to move (int8), from its ``observation`` when given; ValueError for one
    with no legal action while the game runs."""
    observation = env.observe(env.agent_selection) if observation is None else observation
    mask = np.asarray(observation["action_mask"], dtype=np.int8)
    if not mask.any() and not is_over(env):
        raise ValueError(f"env {label}: the action_mask of {env.agent_selection} has no legal action")
    return mask


def _illegal_move_reports() -> int:
    """How many warnings PettingZoo's EnvLogger has queued (it reports illegal moves there)."""
    logger = sys.modules.get("pettingzoo.utils.env_logger")
    return len(logger.EnvLogger.mqueue) if logger is not None else 0


def step_checked(env, action: int, label: str) -> None:
    """``env.step(action)`` of an action its mask marks legal; ValueError if the env refuses it."""
    reports = _illegal_move_reports()
    agent = env.agent_selection
    try:
        env.step(action)
    except Exception as error:  # any refusal of a masked-legal action means the same
        raise ValueError(
            f"env {label}: stepping action {action}, which the action_mask of {agent} marks legal, "
            f"raised {type(error).__name__}: {error} (the env's mask disagrees with its own legality)"
        ) from error
    if _illegal_move_reports() > reports:
        raise ValueError(
            f"env {label}: action {action}, which the action_mask of {agent} marks legal, was penalised "
            f"as an illegal move (the env's mask disagrees with its own legality)"
        )


def step_rewards(env, spaces: EnvSpaces) -> tuple[float, float]:
    return (float(env.rewards.get(spaces.agents[0], 0.0)), float(env.rewards.get(spaces.agents[1], 0.0)))


class AecGame:
    """The protocol game (`hive_envs.core.game`) of an AEC env; see the module docstring."""

    game_name = "aec"

    def __init__(self, options: AecOptions, seed: int | None = None, env=None, moves=(), totals=(0.0, 0.0)):
        """A new game of ``options`` reset with ``seed``; or, with ``env``, that env as it is now
        (``moves``: the actions played since its reset with ``seed``, ``totals``: the summed rewards)."""
        self._options = options
        self._seed = seed
        self.label = options.label
        if env is None:
            env = make_env(options)
            with driving(self.label, "resetting it"):
                env.reset(seed=seed)
        self.env = env
        self.spaces = EnvSpaces.of(env, self.label)
        self._moves = list(moves)
        self._totals = [float(totals[0]), float(totals[1])]

    @classmethod
    def from_options(cls, options: AecOptions) -> AecGame:
        return cls(options)

    @property
    def options(self) -> AecOptions:
        return self._options

    @property
    def to_move(self) -> int:
        return mover(self.env, self.spaces)

    @property
    def is_terminal(self) -> bool:
        return is_over(self.env)

    @property
    def ply(self) -> int:
        return len(self._moves)

    @property
    def result(self) -> float | None:
        if not self.is_terminal:
            return None
        return float(np.sign(self._totals[0] - self._totals[1])) + 0.0

    def action_mask(self) -> np.ndarray:
        return read_mask(self.env, self.spaces, self.label)

    def legal_move_ids(self) -> np.ndarray:
        if self.is_terminal:
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero(self.action_mask()).astype(np.int64)

    def play_id(self, move_id) -> None:
        move = check_integer(move_id, "move id")
        if self.is_terminal or not 0 <= move < self.spaces.num_actions or not self.action_mask()[move]:
            raise ValueError(f"move {move_id!r} is not legal now in {self.label}")
        step_checked(self.env, move, self.label)
        self._moves.append(move)
        for seat, reward in enumerate(step_rewards(self.env, self.spaces)):
            self._totals[seat] += reward

    def undo(self) -> None:
        if not self._moves:
            raise ValueError("no move to undo")
        played = replay(self._options, self._seed, self._moves[:-1])
        self.env, self._moves, self._totals = played.env, played._moves, played._totals

    def copy(self) -> AecGame:
        with driving(self.label, "copying it (attribute by attribute: copy_env)"):
            return AecGame(self._options, self._seed, copy_env(self.env), self._moves, self._totals)

    def move_name(self, move_id) -> str:
        move = check_integer(move_id, "move id")
        if move not in self.legal_move_ids():
            raise ValueError(f"move {move_id!r} is not legal now in {self.label}")
        return str(move)

    def move_id(self, name: str) -> int:
        text = str(name).strip()
        if not text.isdigit() or int(text) not in self.legal_move_ids():
            raise ValueError(f"{name!r} is no legal action now in {self.label} (actions are integers)")
        return int(text)

    def record(self) -> str:
        """The env, its reset seed and the actions played (replayable with `AecGame` and `play_id`)."""
        return f"{self.label} seed={self._seed} actions={' '.join(map(str, self._moves))}"

    def greedy_move_scores(self) -> tuple[np.ndarray, np.ndarray]:
        inner = inner_game(self.env)
        if inner is None:
            return self._reward_scores()
        game, encoder = inner
        moves, scores = game.greedy_move_scores()
        actions = np.array([encoder.move_to_action(game, int(m)) for m in moves], dtype=np.int64)
        return actions, scores

    def _reward_scores(self) -> tuple[np.ndarray, np.ndarray]:
        """The legal actions and the reward the mover gets for each (module docstring)."""
        actions, seat = self.legal_move_ids(), self.to_move
        scores = np.empty(len(actions))
        with driving(self.label, "playing a copy of it (copy_env)"):
            for i, action in enumerate(actions.tolist()):
                after = copy_env(self.env)
                step_checked(after, action, self.label)
                scores[i] = step_rewards(after, self.spaces)[seat]
        return actions, scores

    def potential(self, seat: int) -> float:
        raise ValueError(f"{self.label} has no progress measure for reward shaping")


def inner_game(env):
    """(protocol game, encoder) behind an env of this package (`GameAECEnv`), else None."""
    raw = getattr(env, "unwrapped", env)
    game, encoder = getattr(raw, "game", None), getattr(raw, "encoder", None)
    if callable(getattr(game, "greedy_move_scores", None)) and callable(
        getattr(encoder, "move_to_action", None)
    ):
        return game, encoder
    return None


def copy_env(env):
    """An independent env in ``env``'s state: each layer of the wrapper chain (``.env`` down to the
    raw env) is rebuilt empty and given a deep copy of its attributes, the copies of the layers standing
    in for the layers wherever an attribute refers to one (so no layer goes through ``__reduce__``).
    The layers' gymnasium spaces (and dicts of them) are shared, not copied."""
    layers, layer = [], env
    while layer is not None and not any(layer is seen for seen in layers):
        layers.append(layer)
        layer = layer.__dict__.get("env")
    memo = {id(old): object.__new__(type(old)) for old in layers}
    for old in layers:  # spaces describe the env, not its position: shared (half a copy's time)
        for value in old.__dict__.values():
            if is_space(value) or (isinstance(value, dict) and value and all(map(is_space, value.values()))):
                memo[id(value)] = value
    for old in layers:
        memo[id(old)].__dict__.update(copy.deepcopy(old.__dict__, memo))
    return memo[id(env)]


def is_space(value) -> bool:
    """A gymnasium space (told by its classes' module, so that this layer imports no gymnasium)."""
    return any(cls.__module__.startswith("gymnasium.spaces") for cls in type(value).__mro__)


def replay(options: AecOptions, seed: int | None, moves) -> AecGame:
    """A new game of ``options`` reset with ``seed``, after ``moves``."""
    game = AecGame(options, seed)
    for move in moves:
        game.play_id(move)
    return game


class AecEncoder:
    """The encoder of an AEC game (`hive_envs.core.game_env` interface): the env's own observation
    of a seat and its mask; action indices are move ids."""

    def __init__(self, options: AecOptions):
        self.options = options
        probe = make_env(options)
        self.spaces = EnvSpaces.of(probe, options.label)

    @property
    def num_actions(self) -> int:
        return self.spaces.num_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return self.spaces.observation_shape

    @property
    def observation_dtype(self) -> np.dtype:
        return self.spaces.observation_dtype

    @property
    def label(self) -> str:
        return self.options.label

    def describes(self, game) -> bool:
        return isinstance(game, AecGame) and game.options == self.options

    @staticmethod
    def label_of(game) -> str:
        return getattr(game, "label", getattr(game, "game_name", type(game).__name__))

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return self.spaces.low, self.spaces.high

    def observe(self, game: AecGame, seat: int, out: np.ndarray) -> None:
        out[...] = game.env.observe(self.spaces.agents[seat])["observation"]

    def write_mask(self, game: AecGame, out: np.ndarray) -> int:
        out[:] = game.action_mask()
        return int(np.count_nonzero(out))

    def legal_actions(self, game: AecGame) -> tuple[np.ndarray, np.ndarray]:
        moves = game.legal_move_ids()
        return moves, moves.copy()

    def action_to_move(self, game: AecGame, action: int) -> int:
        return int(action)

    def move_to_action(self, game: AecGame, move_id: int) -> int:
        return int(move_id)
