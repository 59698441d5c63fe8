"""Golden playthroughs: the encoder/env contract of `hive_v0` and `hoyito_v0`, frozen in text files.

    python -m tests.data.make_playthroughs          # rewrite tests/data/playthroughs/*.txt

For every Hive game type (and, with the opt-in ``observation="pieces"``, Base and Base+MLP) and both
Hoyito boards, seeded random games are played through the public
PettingZoo AEC env (`env()`, the wrapped one users get) and written one line per ply: the agent to
move, its number of legal actions, a digest (sha256, first 16 hex digits) of the mover's observation
bytes, of its mask bytes and of the waiting agent's observation bytes, the action taken and its move
name (the UHP string in Hive, the absolute hole number in Hoyito). The end of each game adds the
rewards, terminations, truncations and the final observations' digests. `tests/test_playthroughs.py`
regenerates the text in memory and compares it with the files byte for byte, so any change to an
observation, a mask, the action layout, the move names or the rules shows up as a failing test.

A change that is meant (a new plane, a new action layout) is a new env version: bump `hive_v0` to
`hive_v1` (or `hoyito_v0` to `hoyito_v1`), note it in the env module's version history, and rewrite
the files with the command above, as OpenSpiel does with its playthrough files.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

DIRECTORY = Path(__file__).resolve().parent / "playthroughs"
COMMAND = "python -m tests.data.make_playthroughs"


@dataclass(frozen=True)
class Game:
    """A seeded random game: ``script`` moves first (from the ``start`` GameString if given), then
    random legal actions until the game ends or ``cap`` plies were played."""

    seed: int
    cap: int
    options: dict = field(default_factory=dict)
    start: str | None = None
    script: tuple[str, ...] = ()


@dataclass(frozen=True)
class Playthrough:
    """One file: some games of one env configuration."""

    name: str
    env: str  # "hive" or "hoyito"
    options: dict = field(default_factory=dict)
    games: tuple[Game, ...] = ()

    @property
    def path(self) -> Path:
        return DIRECTORY / f"{self.name}.txt"


HIVE_EXPANSIONS = ("", "M", "L", "P", "ML", "MP", "LP", "MLP")
# White to move; "wA1 \\bQ" surrounds the black Queen (random play rarely ends a Hive game in a win).
BEFORE_A_WIN = (
    r"Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-;wG1 /wQ;bG1 bQ/;"
    r"wG2 \wQ;bG2 bQ\;wS2 /wG1;bS2 /bQ"
)


def _hive_games(letters: str) -> tuple[Game, ...]:
    # a long game cut at 90 plies, and a short one that ends at its 24-ply cap (or earlier)
    games = (Game(11, 90), Game(12, 24, {"max_turns": 24}))
    return games + ((Game(13, 4, start=BEFORE_A_WIN, script=(r"wA1 \bQ",)),) if not letters else ())


PLAYTHROUGHS = (
    tuple(
        Playthrough(f"hive_{letters or 'base'}", "hive", {"expansions": letters}, _hive_games(letters))
        for letters in HIVE_EXPANSIONS
    )
    # the opt-in piece observation (`observation="pieces"`), Base and Base+MLP
    + tuple(
        Playthrough(
            f"hive_{letters or 'base'}_pieces",
            "hive",
            {"expansions": letters, "observation": "pieces"},
            _hive_games(letters),
        )
        for letters in ("", "MLP")
    )
) + (
    Playthrough("hoyito_2x6", "hoyito", {"holes_per_row": 6}, (Game(21, 400), Game(22, 400))),
    # 2x12 games run long: one cut at 120 plies, one ended by a short stall guard
    Playthrough(
        "hoyito_2x12",
        "hoyito",
        {"holes_per_row": 12},
        (Game(21, 120), Game(22, 400, {"no_capture_limit": 60})),
    ),
)


def digest(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:16]


def _make_env(playthrough: Playthrough, extra: dict):
    if playthrough.env == "hive":
        from hive_envs import hive_v0

        return hive_v0.env(**playthrough.options, **extra)
    from hive_envs import hoyito_v0

    return hoyito_v0.env(**playthrough.options, **extra)


def _move_name(env, agent: str, action: int) -> str:
    raw = env.unwrapped
    if hasattr(raw, "action_to_uhp"):
        return raw.action_to_uhp(action)
    seat = raw.possible_agents.index(agent)
    return str(seat * raw.num_actions + action)


def _play(playthrough: Playthrough, game: Game) -> list[str]:
    env = _make_env(playthrough, game.options)
    env.reset(seed=game.seed, options=None if game.start is None else {"gamestring": game.start})
    rng = random.Random(game.seed)
    options = dict(sorted({**playthrough.options, **game.options}.items()))
    lines = [f"game seed={game.seed} options={options}" + (f" start={game.start}" if game.start else "")]
    ply = 0
    while not any(env.terminations.values()) and ply < game.cap:
        agent = env.agent_selection
        other = next(a for a in env.possible_agents if a != agent)
        seen = env.observe(agent)
        legal = np.flatnonzero(seen["action_mask"])
        if ply < len(game.script):
            action = env.unwrapped.uhp_to_action(game.script[ply])
        else:
            action = int(legal[rng.randrange(legal.size)])
        lines.append(
            f"{ply} {agent} legal={legal.size} obs={digest(seen['observation'])} "
            f"mask={digest(seen['action_mask'])} other_obs={digest(env.observe(other)['observation'])} "
            f"action={action} move={_move_name(env, agent, action)}"
        )
        env.step(action)
        ply += 1
    rewards = " ".join(f"{a}={env.rewards[a]:+g}" for a in env.possible_agents)
    ended = " ".join(f"{a}={env.terminations[a]}/{env.truncations[a]}" for a in env.possible_agents)
    finals = " ".join(f"{a}={digest(env.observe(a)['observation'])}" for a in env.possible_agents)
    lines.append(f"end plies={ply} rewards {rewards} terminated/truncated {ended} final_obs {finals}")
    env.close()
    return lines


def render(playthrough: Playthrough) -> str:
    """The text of one playthrough file."""
    lines = [
        f"# {playthrough.name}: golden playthrough of {playthrough.env}_v0 {playthrough.options}",
        f"# Generated by `{COMMAND}`; checked by tests/test_playthroughs.py. Do not edit by hand.",
    ]
    for game in playthrough.games:
        lines += _play(playthrough, game)
    return "\n".join(lines) + "\n"


def main() -> None:
    DIRECTORY.mkdir(exist_ok=True)
    for playthrough in PLAYTHROUGHS:
        playthrough.path.write_text(render(playthrough))
        print(f"wrote {playthrough.path}")


if __name__ == "__main__":
    main()
