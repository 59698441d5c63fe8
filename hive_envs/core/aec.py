"""`MaskedAECEnv`: the PettingZoo AEC plumbing shared by every two-player game of the package.

A game subclass fills in a few hooks over its engine; the base handles agents, spaces,
action-mask dict observations, illegal actions, dead steps, rewards, terminations,
render plumbing and the `env()` wrappers, once for all games.

Conventions (docs/design.md):
- agents `player_0` (seat 0, moves first) and `player_1`;
- `observe(agent)` returns `{"observation": Box, "action_mask": Box(0, 1, (A,), int8)}`;
  the mask is the legal actions of the agent to move, all zeros for the waiting agent,
  and ALL ONES for both agents once the game is over (so a masked softmax never sees an
  all-masked row; as pgx does);
- `observation_space(agent)` / `action_space(agent)` return the same object on every call;
- rewards +1 / -1 / 0 on the step that ends the game only; game draws are terminations;
- `raw_env.step` raises ValueError naming an illegal, out-of-range or non-integer action
  (None, a bool, a float, a string) and the legal count, with the state unchanged; numpy
  integers are integers. `wrap_aec` (used by `env()`) turns every such action of the agent
  to move into a loss (-1) for the offender through PettingZoo's TerminateIllegalWrapper;
- `reset(options=...)` takes the keys of `RESET_OPTIONS` (`hive_envs.core.env_input`);
  `raw_env.step` / `observe` before the first reset raise RuntimeError saying so, and a `step`
  after every agent has left only warns (as PettingZoo's order wrapper does for `env()`).

Hooks a game implements: `_new_game`, `_apply`, `_seat_to_move`, `_is_over`, `_write_mask`,
`_write_observation`, `_outcome`, `_final_info`, `_render_text`, `_render_rgb`, and
optionally `action_values` (for the greedy opponent).
"""

from __future__ import annotations

from typing import ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from hive_envs.core.env_input import check_reset_options
from hive_envs.core.game import as_integer

AGENTS = ("player_0", "player_1")


class MaskedAECEnv(AECEnv):
    """Two-player, turn-based AEC env with action masks; subclasses provide the game hooks."""

    metadata: ClassVar[dict] = {
        "render_modes": ["ansi", "rgb_array", "human"],
        "is_parallelizable": False,
        "render_fps": 2,
    }
    RESET_OPTIONS: ClassVar[tuple[str, ...]] = ()  #: the keys `reset(options=...)` understands

    def __init__(self, num_actions: int, obs_low, obs_high, obs_dtype, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.num_actions = int(num_actions)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs_box = spaces.Box(np.asarray(obs_low), np.asarray(obs_high), dtype=obs_dtype)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": obs_box,
                    "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Space] = {
            a: spaces.Discrete(self.num_actions) for a in self.possible_agents
        }
        self._obs_shape = obs_box.shape
        self._obs_dtype = obs_box.dtype
        self._mask = np.zeros(self.num_actions, dtype=np.int8)  # the mover's mask, once per ply
        self._legal_count = 0
        self.np_random, self.np_random_seed = seeding.np_random(None)

    # ----------------------------------------------------------------- game hooks
    def _new_game(self) -> None:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        """Play a legal action for the player to move (automatic passes included)."""
        raise NotImplementedError

    def _seat_to_move(self) -> int:
        raise NotImplementedError

    def _is_over(self) -> bool:
        raise NotImplementedError

    def _write_mask(self, out: np.ndarray) -> int | None:
        """Write the legal actions of the player to move (int8 0/1) into `out`.

        May return the number of legal actions (when the game knows it for free); None lets
        the base count the ones in `out`."""
        raise NotImplementedError

    def _write_observation(self, seat: int, out: np.ndarray) -> None:
        raise NotImplementedError

    def _outcome(self) -> tuple[float, float]:
        """Rewards of seat 0 and seat 1 for the finished game (+1 / -1 / 0)."""
        raise NotImplementedError

    def _final_info(self) -> dict:
        """Info put in every agent's `infos` entry when the game ends (e.g. the score)."""
        return {}

    def _render_text(self) -> str:
        raise NotImplementedError

    def _render_rgb(self) -> np.ndarray:
        raise NotImplementedError

    def action_values(self) -> np.ndarray:
        """Immediate gain of each action for the player to move (the greedy opponent's choice)."""
        raise NotImplementedError(f"{type(self).__name__} has no greedy action values")

    def _shape_forfeit(self) -> None:
        """Add the reward-shaping terms of a game ended by a forfeit (`env()`'s illegal-move loss) to
        this step's rewards; nothing unless the env shapes rewards (`hive_envs.core.game_env`)."""

    # ----------------------------------------------------------------- PettingZoo API
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        check_reset_options(options, self.RESET_OPTIONS, self.metadata.get("name", type(self).__name__))
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._new_game()
        self._after_ply()
        self.agent_selection = self.agents[self._seat_to_move()]
        if self.render_mode == "human":
            self.render()

    def _require_reset(self, call: str) -> None:
        if not hasattr(self, "agent_selection"):
            raise RuntimeError(f"reset() needs to be called before {call}()")

    def observe(self, agent):
        self._require_reset("observe")
        seat = self.possible_agents.index(agent)
        obs = np.empty(self._obs_shape, dtype=self._obs_dtype)
        self._write_observation(seat, obs)
        if self._is_over() or agent == self.agent_selection:
            mask = self._mask.copy()
        else:
            mask = np.zeros(self.num_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        self._require_reset("step")
        if not self.agents:  # every agent has left (dead steps done): as PettingZoo's order wrapper
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._play(self._check_action(action))

    def _play(self, action: int) -> None:
        """One ply of a legal action of the agent to move (checked by the caller: `step`, or the
        `env()` wrapper, which checks once for both)."""
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        self._apply(action)
        self._after_ply()
        if self._is_over():
            r0, r1 = self._outcome()
            self.rewards = {AGENTS[0]: float(r0), AGENTS[1]: float(r1)}
            self.terminations = dict.fromkeys(self.agents, True)
            info = self._final_info()
            self.infos = {a: dict(info) for a in self.agents}
        else:
            self.rewards[AGENTS[0]] = 0.0
            self.rewards[AGENTS[1]] = 0.0
        self.agent_selection = self.agents[self._seat_to_move()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode= to env()")
            return None
        if self.render_mode == "rgb_array":
            return self._render_rgb()
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass

    # ----------------------------------------------------------------- helpers
    def _after_ply(self) -> None:
        """Cache the mover's mask once per ply (all ones once the game is over)."""
        if self._is_over():
            self._mask[:] = 1
            self._legal_count = 0
        else:
            n = self._write_mask(self._mask)
            self._legal_count = int(np.count_nonzero(self._mask) if n is None else n)

    def _action_index(self, action) -> int:
        """`action` as an int; ValueError naming the action range when it is not an integer."""
        a = as_integer(action)
        if a is None:
            raise ValueError(f"action must be an integer in [0, {self.num_actions}), got {action!r}")
        return a

    def _check_action(self, action) -> int:
        a = self._action_index(action)
        if not 0 <= a < self.num_actions:
            raise ValueError(
                f"action {a} is out of range [0, {self.num_actions}); "
                f"{self.agent_selection} has {self._legal_count} legal actions"
            )
        if not self._mask[a]:
            raise ValueError(
                f"action {a} is illegal for {self.agent_selection}; it has {self._legal_count} legal "
                f"actions: {np.flatnonzero(self._mask).tolist()}"
            )
        return a


class _TerminateIllegalOrOutOfRange(wrappers.TerminateIllegalWrapper):
    """TerminateIllegalWrapper that also treats out-of-range / non-integer actions as illegal.

    The stock wrapper indexes the mask with the action, so 99 would raise IndexError, -1
    would read the last entry, and None or True would index the whole mask ("truth value of
    an array is ambiguous"); here every action of the agent to move that is not an integer
    in range (`as_integer`: None, bools, floats, strings are not) or is masked loses the game
    (every illegal action ends through `_lose`, which also pays the env's closing
    reward-shaping terms). A finished agent's step goes to PettingZoo's dead-step rules
    unchanged.

    Per ply, one check: `step` reads the mover's mask the raw env caches (the stock wrapper keeps
    the last observation for its check, then the raw env checks again) and plays a legal action
    through the raw env's unchecked `_play`. `last`, `observe` and `step` use the raw env directly
    instead of a chain of `__getattr__` forwards.
    """

    def __init__(self, env: MaskedAECEnv, illegal_reward: float):
        super().__init__(env, illegal_reward)
        self._raw = env

    def observe(self, agent):
        return self._raw.observe(agent)

    def last(self, observe: bool = True):
        raw = self._raw
        agent = raw.agent_selection
        obs = raw.observe(agent) if observe else None
        return (
            obs,
            raw._cumulative_rewards[agent],
            raw.terminations[agent],
            raw.truncations[agent],
            raw.infos[agent],
        )

    def step(self, action):
        raw = self._raw
        agent = raw.agent_selection
        if raw.terminations[agent] or raw.truncations[agent]:
            raw.step(action)  # PettingZoo's dead-step rules
            return
        a = as_integer(action)
        if a is None or not (0 <= a < raw.num_actions and raw._mask[a]):  # the mover's mask
            self._lose(agent)
            return
        raw._play(a)

    def _lose(self, agent):
        """The stock wrapper's illegal-move ending: the offender gets the illegal reward."""
        EnvLogger.warn_on_illegal_move()
        u = self._raw
        u._cumulative_rewards[agent] = 0
        u.terminations = dict.fromkeys(u.agents, True)
        u.truncations = dict.fromkeys(u.agents, True)
        u.rewards = dict.fromkeys(u.agents, 0)
        u.rewards[agent] = float(self._illegal_value)
        u._accumulate_rewards()
        u._shape_forfeit()
        u._deads_step_first()
        self._terminated = True


def _after_reset(name: str) -> property:
    """The raw env's attribute ``name``, read directly; before the first reset the AttributeError
    of OrderEnforcingWrapper."""

    def read(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    return property(read)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """OrderEnforcingWrapper whose per-ply calls (`last`, `observe`, `step`, and the attributes an
    `agent_iter` loop reads) go straight to the env below, not through chains of `__getattr__`;
    the same errors and warnings out of order."""

    agent_selection = _after_reset("agent_selection")
    agents = _after_reset("agents")
    rewards = _after_reset("rewards")
    terminations = _after_reset("terminations")
    truncations = _after_reset("truncations")
    infos = _after_reset("infos")

    def __init__(self, env: _TerminateIllegalOrOutOfRange):
        super().__init__(env)
        self._raw = env.unwrapped

    def last(self, observe: bool = True):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def observe(self, agent):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def step(self, action):
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self._raw.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)


def wrap_aec(raw: MaskedAECEnv):
    """The `env()` wrapping: illegal or out-of-range actions lose (-1); call order enforced."""
    return _OrderEnforcing(_TerminateIllegalOrOutOfRange(raw, illegal_reward=-1))
