"""Hoyito II — PettingZoo AEC environment (version 0).

Hoyito II is a Dominican two-row mancala without stores: multi-lap relay sowing, captures
of "casas" (holes of exactly four) made only by the last counter of a lap, backward chains
of fours, an extra turn after every capture. Rules: `docs/rules/hoyito_ii.md`; engine:
`hive_envs.hoyito.HoyitoGame`.

Creating it::

    from hive_envs import hoyito_v0
    env = hoyito_v0.env(holes_per_row=6)          # or pettingzoo.make("aec", "hive_envs/hoyito-v0")

=====================  ==========================================================
Agents                 `player_0` (South, moves first), `player_1` (North)
Action space           `Discrete(n)`, n = holes_per_row
Observation space      `Dict(observation=Box(float32, (2n+4,)), action_mask=Box(0, 1, (n,), int8))`
Rewards                +1 win / -1 loss / 0 draw, on the step that ends the game only
=====================  ==========================================================

Actions
    Action k lifts the mover's k-th hole counted from the mover's own left (absolute hole
    `seat*n + k`: South's holes 0..n-1, North's n..2n-1, sowing counter-clockwise).

Observation (from the observing agent's side, own row first; float32)
    ============  ==============================================================================
    ``[0, n)``    own holes, from own left, counters / 4. Division by 4 puts a casa at exactly 1.0.
    ``[n, 2n)``   opponent's holes from their left, counters / 4. Own row then opponent's row
                  is the sowing order, so a move of c counters from entry k reaches entry k + c.
    ``2n``        own captured total / all counters (the score so far: who is ahead decides
                  the outcome, and the end-of-game sweeps depend on it).
    ``2n + 1``    opponent's captured total / all counters.
    ``2n + 2``    plies without a capture / `no_capture_limit`: the stall guard's clock. Near
                  1.0 the game is about to end with the board going to the row owners, so the
                  best move depends on it (without it the observation would not be Markov).
    ``2n + 3``    1.0 when the observing agent is the one to move, else 0.0 (the waiting agent
                  can observe too). After the game ends: 1.0 for the player who moved last.
    ============  ==============================================================================

    Hole entries are exact (integers over 4); the others are float32 roundings of fractions.

Action mask
    The legal actions of the agent to move (its non-empty holes); never all zero while the
    game runs: an agent with no counters is passed automatically, and after a capture the same
    agent is selected again. The waiting agent's mask is all zeros. Once the game is over, the
    mask returned with the final observation is ALL ONES for both agents (so a masked softmax
    over it is defined), as pgx does.

Turn order
    `agent_selection` is the agent that must act: after a capture the mover acts again; an
    automatic pass skips an agent with an empty row (also after an extra turn).

End, rewards and infos
    The game ends when a capture leaves at most 4 counters (the capturer takes them), when
    the stall guard fires (`no_capture_limit` plies without capture; the board goes to the row
    owners), or if neither side has a counter. Equal totals are a draw: a termination, never
    a truncation. At the end every agent's `infos` holds `"score": (south, north)` captured
    totals and `"winner"`: `"player_0"`, `"player_1"` or None for a draw.

Illegal input
    An action is an integer: a Python int or any numpy integer. `raw_env.step` raises ValueError
    naming an illegal or out-of-range action, or one that is no integer (None, True/False, 1.0,
    "1"), and the legal count, leaving the state unchanged. `env()` instead ends the game with -1
    for the agent to move on any of these (PettingZoo's TerminateIllegalWrapper, extended to
    out-of-range and non-integer actions). Stepping a finished game follows PettingZoo's
    dead-step rules (`step(None)` for each agent). `reset` takes no options: keys given are
    ignored with a warning (options that are not a dict raise ValueError).

Options (keyword arguments of `env` / `raw_env`)
    `holes_per_row` (6; 12 is the extended board; any n >= 2), `seeds_per_hole` (4),
    `max_laps` (1000 laps per move at most), `no_capture_limit` (None = 50 x 2n plies),
    `render_mode` ("ansi" text board, "rgb_array" picture, "human" prints the text board),
    the opt-in reward shaping `reward_shaping` (None; "captured_margin": Phi_p = (counters p
    captured - the opponent's) / all counters), `shaping_coef` (1.0), `shaping_gamma` (1.0): the
    same rule and payment times as Hive's (`hive_envs.hive_v0`, `hive_envs.core.shaping`); after a
    capture the same agent moves again, and its next decision then arrives in its own step.
    Bounds (`hive_envs.hoyito.engine.options`): all counters 2 x holes_per_row x seeds_per_hole
    <= 2**23 and `no_capture_limit` <= 2**23, so that every observation entry decodes back to the
    exact count (float32 has a 24-bit significand); `max_laps` <= 2**31 - 1; and
    (counters // 4 + 1) x `no_capture_limit` <= 2**31 - 1, the longest possible game, so that the
    int32 ply counter never overflows. Bad values, and unknown option names given to
    `env(**options)`, `gym.make` or `gym.make_vec`, raise ValueError naming the option and what is
    allowed.

Version history
    v0: initial version; later additions, off by default: the opt-in reward shaping options.
"""

from __future__ import annotations

from hive_envs.core.aec import wrap_aec
from hive_envs.core.shaping import SHAPING_OPTIONS
from hive_envs.games import check_option_names
from hive_envs.hoyito.env import raw_env

__all__ = ["env", "raw_env"]


def env(**options):
    """The wrapped AEC env: illegal actions lose the game (-1), call order enforced."""
    check_option_names("hoyito", options, extra=("render_mode", *SHAPING_OPTIONS))
    return wrap_aec(raw_env(**options))
