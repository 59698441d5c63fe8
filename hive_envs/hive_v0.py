"""Hive — PettingZoo AEC environment (version 0).

Hive (base game with the optional Mosquito, Ladybug and Pillbug expansions, tournament opening
by default) on an unbounded hex grid. Rules: `docs/rules/hive.md`; engine:
`hive_envs.hive.HiveGame` (UHP notation); encoders: `hive_envs.hive.encoding`.

Creating it::

    from hive_envs import hive_v0
    env = hive_v0.env(expansions="MLP")        # or pettingzoo.make("aec", "hive_envs/hive-v0")

=====================  ==========================================================================
Agents                 `player_0` (White, moves first), `player_1` (Black)
Action space           `Discrete(2 N C^2 + 1)`: Base 12,673; one expansion 16,225; two 20,385;
                       MLP 25,201
Observation space      `Dict(observation=Box(uint8, (P, C, C)), action_mask=Box(0, 1, (A,), int8))`;
                       with `observation="pieces"`: `observation=Box(int16, (2N + 1, 17))`
Rewards                +1 win / -1 loss / 0 draw, on the step that ends the game only (plus the
                       opt-in potential-based shaping, see Reward shaping)
=====================  ==========================================================================

``N`` = tiles per colour in the game type (11 + one per expansion letter), ``C = 2N + 2`` the
side of the hive-centred torus (Base 24, one expansion 26, two 28, MLP 30), ``P = 2N + 2K + 10``
planes with ``K`` bug kinds (Base 42, MLP 54).

Hive-centred frame
    The board is a ``C x C`` axial torus (cell index ``q * C + r``; q grows east, r south-east;
    the six neighbours of (q, r) are (q±1, r), (q, r±1), (q+1, r-1), (q-1, r+1), modulo C — use
    circular padding in a convolutional network). The hive is translated so that the middle of
    its q- and r-extent lands on cell (C/2, C/2): translating the whole hive does not change the
    observation or the actions. C = (number of tiles) + 2 is large enough for ANY legal hive: a
    connected hive of k tiles plus its neighbours spans at most k + 2 values of q and of r, so no
    two cells that matter share a frame cell (proof in `hive_envs.hive.encoding`). There is no
    window, no forced draw, no information lost for long hives.

Actions
    ``a = s * C^2 + cell`` moves tile slot ``s`` to frame cell ``cell`` (placement if the tile is
    in its reserve, a move or a Pillbug / Mosquito throw if it is in play); ``a = 2 N C^2`` is
    pass, legal only when nothing else is. Slots are colour-relative: ``s in [0, N)`` the mover's
    tiles, ``s in [N, 2N)`` the opponent's (only ever legal as throws), each in the order
    Q S1 S2 B1 B2 G1 G2 G3 A1 A2 A3 M L P with the absent expansion tiles dropped. A placement
    uses the lowest-numbered tile of its bug kind in reserve (as UHP engines list it). Each
    distinct legal (tile, destination) move has exactly one index, and every legal move has one.
    Convert with ``env.unwrapped.action_to_uhp(a)`` and ``env.unwrapped.uhp_to_action("wA1 -bQ")``.
    ``env.unwrapped.game`` is the engine's `HiveGame` (GameString, UHP valid moves): read it freely,
    but play through `step` (moves played on it directly bypass the env's per-ply mask cache).

Reset options
    ``env.reset(options={"gamestring": ...})`` starts from any position of the env's game type (also
    through the Gym env's ``reset``); it is the only reset option. A bad, finished or other-type
    GameString, a misspelt key ("gamestrng", "GameString") or options that are not a dict raise
    ValueError with nothing reset; another unknown key is ignored with a warning (PettingZoo's
    ``api_test`` passes ``{"options": 1}`` to check that ``reset`` takes the argument).

Observation planes (uint8, shape (P, C, C), from the observing agent's side: "own" = observer)
    ==========================  ======  =====================================================
    planes                      values  meaning
    ==========================  ======  =====================================================
    0 .. N-1   tile_own_<slot>  0..7    own tile ``slot`` at this cell: 1 + its level in the
                                        stack (1 = on the ground); 0 elsewhere. A tile absent
                                        from every cell is in the reserve.
    N .. 2N-1  tile_opp_<slot>  0..7    the same for the opponent's tiles (stack order of any
                                        cell = the levels of the tiles there).
    2N         top_own          0/1     the top tile of this cell is the observer's
    2N+1       top_opp          0/1     the top tile of this cell is the opponent's
    2N+2       last_moved       0/1     cell of the tile moved or placed on the previous ply
                                        (it cannot move or be thrown now); none after a pass
    2N+3 ..    reserve_own_<X>  0..3    own tiles of bug kind X (Q S B G A [M L P]) in reserve,
                                        a constant plane per kind
    .. 2N+2K+2 reserve_opp_<X>  0..3    the same for the opponent
    2N+2K+3    to_move          0/1     the observer is the agent to move
    2N+2K+4    last_ply_pass    0/1     the previous ply was a pass (a second pass draws)
    2N+2K+5    queen_due_own    0/1     observer's Queen not placed after 3 own turns: the
                                        next own turn must place it (Queen deadline)
    2N+2K+6    queen_due_opp    0/1     the same for the opponent
    2N+2K+7    ply_lo           0..255  plies played (turn counter, passes included) mod 256
    2N+2K+8    ply_hi           0..255  plies played // 256
    2N+2K+9    plies_left       0..255  plies until the `max_turns` draw, saturated at 255
                                        (255 when there is no cap)
    ==========================  ======  =====================================================

    Constant planes hold the same value on every cell. The tile planes alone fix the position
    (tiles, stacks and their order, reserves); with the last-moved tile, the last-ply pass, the
    ply counter and the side to move, the observation determines the legal moves and the game's
    future (it is Markov) for the env's options (`tournament_opening` and `max_turns` are fixed
    per env), except under the optional `repetition_draw`, which depends on the history. The names are ``env.unwrapped.encoding.plane_names()``.

Piece observation (opt-in: ``env(observation="pieces")``; int16, shape (2N + 1, 17), observer's side)
    For attention and graph networks: one row per tile slot and a row of global scalars, instead of
    the planes (`gym.make(..., observation="pieces")`, `gym.make_vec` and `HiveBatch` take the option
    too); actions, mask, rewards and everything else are unchanged. Rows ``0 .. N-1`` are the
    observer's tiles and ``N .. 2N-1`` the opponent's, each in the slot order of the actions (Q S1 S2
    B1 B2 G1 G2 G3 A1 A2 A3 [M] [L] [P]): for the agent to move, row ``s`` is the tile of the actions
    ``a`` with ``a // C^2 == s``. Row ``2N`` is the global row. ``env.unwrapped.encoding.row_names()``
    names the rows; `hive_envs.hive.piece_layout` has the columns' names (``PIECE_FIELDS``,
    ``GLOBAL_FIELDS``) and index constants. Fields naming a tile hold its row, -1 for none.

    Coordinates: axial ``(q, r)`` (q east, r south-east, as the frame) of the tile's cell as an offset
    from the centre cell (C/2, C/2) of the hive-centred frame above: the middle of the hive's q- and
    r-extent is (0, 0); tiles lie in [2 - C/2, C/2 - 1] (Base [-10, 11]), the cells next to them
    (the actions' destinations) in [1 - C/2, C/2]. These are the board's own plane
    coordinates, never wrapped around the torus: any two cells in or next to the hive are at their
    true hex distance and direction (proof in `hive_envs.hive.piece_encoding`). Translating the
    whole hive changes no observation.

    ======  ====================  =========  ===================================================
    column  tile row field        values     meaning
    ======  ====================  =========  ===================================================
    0       kind                  0..7       bug kind: 0 Queen, 1 Spider, 2 Beetle, 3 Grasshopper,
                                             4 Ant, 5 Mosquito, 6 Ladybug, 7 Pillbug (per row)
    1       colour                0/1        0 the observer's tile, 1 the opponent's (per row)
    2       placed                0/1        1 in play, 0 in hand (in the reserve)
    3, 4    q, r                  see right  position, in [2 - C/2, C/2 - 1] (Base [-10, 11]), as
                                             above; 0, 0 in hand
    5       height                0..7       1 + its level in the stack (1 = on the ground), as
                                             the tile planes; 0 in hand
    6       under                 -1..2N-1   the tile directly beneath it
    7       above                 -1..2N-1   the tile directly on it (-1: it is on top)
    8       pinned                0/1        alone on its cell and lifting it would split the hive
                                             (One Hive rule): it can neither move nor be thrown
    9       movable               0/1        the tile of at least one legal action of the agent
                                             to move (placement, move or Pillbug/Mosquito throw)
    10      last_moved            0/1        moved or placed on the previous ply
    11..16  neighbour_NE .. _NW   -1..2N-1   the top tile of the neighbouring cell in direction
                                             NE, E, SE, SW, W, NW (-1 empty; all -1 in hand)
    ======  ====================  =========  ===================================================

    ======  ====================  =========  ===================================================
    column  global row field      values     meaning
    ======  ====================  =========  ===================================================
    0       to_move               0/1        the observer is the agent to move
    1       last_ply_pass         0/1        the previous ply was a pass (a second pass draws)
    2, 3    queen_due_own / _opp  0/1        Queen not placed after 3 own turns (as the planes)
    4, 5    turns_own / _opp      0..32767   turns played by each side (saturated)
    6       ply                   0..32767   plies played (saturated: exact below 32,767)
    7       plies_left            0..32767   plies until the `max_turns` draw, saturated (32767
                                             when there is no cap)
    8       legal_actions         0..4096    legal actions of the agent to move (0 once over)
    9       must_pass             0/1        pass is its only legal action
    10, 11  queen_neighbours_own  0..6       occupied cells around each side's Queen (0 while it
            / _opp                           is in hand; 6 = surrounded, the game is lost)
    12, 13  in_hand_own / _opp    0..N       tiles in each side's reserve
    14, 15  queen_barred_own      0/1        the tournament opening bars that side's Queen on
            / _opp                           its next turn (it has not played yet)
    16      tournament_opening    0/1        the env's `tournament_opening` option
    ======  ====================  =========  ===================================================

    Actions: ``env.unwrapped.encoding.action_table`` (read-only int16, shape (A, 3)) gives, for every
    action id, its tile row and the ``(q, r)`` of its destination in these coordinates (pass:
    ``(-1, 0, 0)``). The table is the same in every observation: action ``a`` puts tile row
    ``a // C^2`` on frame cell ``a % C^2``, and the coordinates are the frame's, so when the hive
    moves in the frame its tiles and the action ids onto a cell move together. A network scores the
    legal actions (the mask's nonzero entries) from the embeddings of their tile rows and
    destinations, with no layer as wide as the action space. Like the planes, the observation is
    translation invariant and Markov: the rows fix every tile's cell, stack and order, the reserves
    and the last-moved tile, and with the global row they determine the legal moves and the future
    (the ply counters exactly below 32,767 plies).

Action mask
    The legal actions of the agent to move (`pass` only when nothing else is legal); never all
    zeros while the game runs; all zeros for the waiting agent. Once the game is over, the mask
    returned with the final observation is ALL ONES for both agents (so a masked softmax over it
    is defined), as pgx does.

End, rewards and infos
    A surrounded Queen loses; both surrounded at once, two passes in a row, or `max_turns` plies
    are draws — terminations, never truncations. At the end every agent's `infos` holds
    `"outcome"` ("WhiteWins" / "BlackWins" / "Draw"); the UHP GameString of the game is
    ``env.unwrapped.game.gamestring``.

Reward shaping (opt-in; off by default, when the rewards are exactly the +1 / -1 / 0 above)
    ``env(reward_shaping="queen_margin", shaping_coef=1.0, shaping_gamma=1.0)`` adds potential-based
    shaping (Ng, Harada & Russell 1999) on the Queen margin, Phi_p = (occupied neighbours of the
    opponent's Queen - of p's own) / 6 in [-1, 1] (`HiveGame.potential`), Phi = 0 once the game is
    over. A transition of agent p runs from one of its decisions s to its next decision s' (or to
    the end) and earns c * (gamma * Phi_p(s') - Phi_p(s)) on top of the raw reward.
    When it is paid: in the step that brings p its next decision (the opponent's move; that step's
    ``rewards[p]``), so `last()` returns it to p right before p acts at s'; in the step that ends
    the game, each agent gets -c * Phi_p(its last decision) beside the +1 / -1 / 0 (an illegal move
    under `env()` pays the same closing terms). p's first decision earns nothing. Summing p's
    `last()` rewards over its decisions (discounted by gamma per decision) telescopes: the shaping
    terms add up to -c * Phi_p(first decision) = 0 from the start position, so the shaped return is
    the raw return and the best policy is unchanged; progress toward the opponent's Queen is
    credited when it happens. ``infos[agent]["raw_reward"]`` holds the unshaped reward of each step
    (``env.unwrapped.raw_rewards`` both). ``shaping_coef`` c: a finite number >= 0 (default 1.0);
    ``shaping_gamma``: in (0, 1] (default 1.0; set it to the discount of your learner). Bad values
    (an unknown name, a negative or NaN coefficient, gamma outside (0, 1], a coefficient without
    ``reward_shaping``) raise ValueError naming the option. The same options shape the Gymnasium
    envs (`hive_envs.hive.gym_env`: per learner step, raw + c (gamma Phi(s') - Phi(s)),
    ``info["raw_reward"]``), ``gym.make_vec`` (``infos["raw_reward"]``) and `HiveBatch`
    (``batch.raw_rewards``); details in `hive_envs.core.shaping`.

Illegal input
    An action is an integer: a Python int or any numpy integer. `raw_env.step` raises ValueError
    naming an illegal or out-of-range action, or one that is no integer (None, True/False, 1.0,
    "1", a list), with the legal count; the state is unchanged. `env()` instead ends the game with
    -1 for the agent to move on any of these (PettingZoo's TerminateIllegalWrapper, extended to
    out-of-range and non-integer actions; PettingZoo's own would fail on None or True). A bool is
    never read as 0/1 and a float never rounded. `action_to_uhp` of an action that is not legal now,
    and `uhp_to_action` of a malformed or illegal move string, raise ValueError.

Options (keyword arguments of `env` / `raw_env`)
    `expansions` ("" Base, "M", "L", "P", "ML", "MP", "LP", "MLP"), `tournament_opening` (True:
    no Queen on either player's first turn), `max_turns` (300 plies, a draw when reached; an
    int in [1, 2**31 - 1], the int32 the engine keeps it in, or None for no cap; the ply planes
    count exactly to 65,535 plies and wrap after), `repetition_draw` (False; True makes the third
    repetition of a position a draw; a bool, never "no" or 0), `render_mode` ("ansi" text board,
    "rgb_array" picture, "human" a window where a display exists, else the text board),
    `reward_shaping` (None; "queen_margin"), `shaping_coef` (1.0), `shaping_gamma` (1.0) (see Reward
    shaping), `observation` ("planes", the default; "pieces": see Piece observation). Bad values
    raise ValueError naming the option; so does an unknown option name given to
    `env(**options)`, `gym.make` or `gym.make_vec` (a misspelling such as ``expanions``).

Version history
    v0: initial version; later additions, off by default (the v0 encoding and rewards unchanged):
    the opt-in reward shaping options; the opt-in ``observation="pieces"`` (an added option: the
    planes stay the default, bit for bit as the golden playthroughs check, and the actions are the
    same, so the env stays v0).
"""

from __future__ import annotations

from hive_envs.core.aec import wrap_aec
from hive_envs.core.shaping import SHAPING_OPTIONS
from hive_envs.games import check_option_names
from hive_envs.hive.env import raw_env

__all__ = ["env", "raw_env"]


def env(**options):
    """The wrapped AEC env: illegal actions lose the game (-1), call order enforced."""
    check_option_names("hive", options, extra=("render_mode", *SHAPING_OPTIONS))
    return wrap_aec(raw_env(**options))
