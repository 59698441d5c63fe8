"""AEC-env plies per second: hive_envs' Hive env beside OpenSpiel's hive and Shimmy's wrapper of it.

    python benchmarks/bench_hive_env.py [--seconds 3]

Every loop does what a learner's rollout does each ply: read the observation tensor and the legal
actions (mask), pick a uniformly random legal action, apply it; new games start when one ends.

- `hive_envs env()`: `hive_v0.env(...)` (PettingZoo wrappers included): `agent_iter` / `last()` /
  `step`, observation (uint8 planes) and action mask every ply.
- `hive_envs raw_env`: the same without PettingZoo's order-enforcing / illegal-move wrappers.
- `OpenSpiel`: pyspiel's C++ hive at its fastest from Python: the observation written by
  `open_spiel.python.observation.make_observation(game).set_from(state, player)` into one reused
  buffer, a legal mask built from `legal_actions()` into one reused int8 array, `apply_action`.
- `OpenSpiel tensor`: the same with `state.observation_tensor()` (a new Python list every ply,
  the slow path) instead of `set_from`, and no mask.
- `Shimmy wrapper`: `shimmy.OpenSpielCompatibilityV0` (PettingZoo AEC over the same pyspiel game),
  `agent_iter` / `last()` / `step`; skipped with a note if shimmy[openspiel] is not installed.

Base = no expansions (OpenSpiel: uses_mosquito/ladybug/pillbug = False), Base+MLP = all three.
Ratios are against peers measured in the same run.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from hive_envs import hive_v0

CONFIGS = {"Base": "", "Base+MLP": "MLP"}


def _interleaved(loops, seconds, rounds=6):
    """Plies/s of each loop, measured in alternating slices so that machine load hits all alike."""
    for loop in loops.values():
        loop(200)  # warm-up: numba compile / cache load, first allocations
    plies = dict.fromkeys(loops, 0)
    spent = dict.fromkeys(loops, 0.0)
    for _ in range(rounds):
        for name, loop in loops.items():
            start = time.perf_counter()
            while time.perf_counter() - start < seconds / rounds:
                plies[name] += loop(100)
            spent[name] += time.perf_counter() - start
    return {name: plies[name] / spent[name] for name in loops}


def aec_loop(env, rng):
    state = {"started": False}

    def loop(n):
        done = 0
        if not state["started"]:
            env.reset(seed=int(rng.integers(2**31)))
            state["started"] = True
        while done < n:
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.reset(seed=int(rng.integers(2**31)))
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]  # Shimmy: in info
            legal = np.flatnonzero(mask.view(np.bool_))  # 0/1 int8 read as bool: numpy's fast path
            env.step(int(legal[rng.integers(legal.size)]))
            done += 1
        return done

    return loop


def _spiel_loop(game, play_one):
    """Random play on a pyspiel game: ``play_one(state)`` does one ply's work and applies an action;
    a new game starts when one ends."""
    holder = {"state": game.new_initial_state()}

    def loop(n):
        for _ in range(n):
            s = holder["state"]
            if s.is_terminal():
                holder["state"] = s = game.new_initial_state()
            play_one(s)
        return n

    return loop


def openspiel_loop(game, rng):
    """pyspiel at its fastest: observation into a reused buffer, legal mask into a reused array."""
    from open_spiel.python.observation import make_observation

    observation = make_observation(game)
    mask = np.zeros(game.num_distinct_actions(), dtype=np.int8)

    def play_one(s):
        observation.set_from(s, s.current_player())
        legal = s.legal_actions()
        mask[:] = 0
        mask[legal] = 1
        s.apply_action(legal[rng.integers(len(legal))])

    return _spiel_loop(game, play_one)


def openspiel_tensor_loop(game, rng):
    """pyspiel through `observation_tensor()`, which builds a new Python list every ply (slow path)."""

    def play_one(s):
        s.observation_tensor()
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])

    return _spiel_loop(game, play_one)


def openspiel_moves_loop(game, rng):
    """pyspiel's move generation alone: `legal_actions()` and `apply_action`, no observation.

    ``rng`` is a `random.Random`: the action is drawn as the engine rows draw theirs
    (`bench_hive_engine.python_path_rate`), with ``randrange``."""

    def play_one(s):
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])

    return _spiel_loop(game, play_one)


def openspiel_game(expansions):
    import pyspiel

    flags = {
        f"uses_{name}": letter in expansions
        for letter, name in (("M", "mosquito"), ("L", "ladybug"), ("P", "pillbug"))
    }
    return pyspiel.load_game("hive", flags)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per loop")
    args = parser.parse_args(argv)
    try:
        from shimmy import OpenSpielCompatibilityV0
    except ImportError as err:
        OpenSpielCompatibilityV0 = None
        print(f"Shimmy wrapper: not measured ({err}); `pip install 'shimmy[openspiel]'` to include it")
    rows = []
    for name, expansions in CONFIGS.items():
        rng = np.random.default_rng(0)
        game = openspiel_game(expansions)
        loops = {
            "env": aec_loop(hive_v0.env(expansions=expansions), rng),
            "raw": aec_loop(hive_v0.raw_env(expansions=expansions), rng),
            "spiel": openspiel_loop(game, rng),
            "tensor": openspiel_tensor_loop(game, rng),
        }
        if OpenSpielCompatibilityV0 is not None:
            loops["shimmy"] = aec_loop(OpenSpielCompatibilityV0(env=game), rng)
        rate = _interleaved(loops, args.seconds)
        rows.append((name, rate["env"], rate["raw"], rate["spiel"], rate["tensor"], rate.get("shimmy")))

    print(
        f"\nAEC plies/s, observation + mask every ply, random legal actions ({args.seconds:g} s per loop, interleaved)"
    )
    print(
        f"{'game':10} {'hive_envs env()':>16} {'raw_env':>10} {'OpenSpiel':>10} {'OS tensor':>10} "
        f"{'Shimmy':>10} {'env()/OpenSpiel':>16} {'env()/Shimmy':>13}"
    )
    for name, wrapped, raw, spiel, tensor, shimmy in rows:
        shim = f"{shimmy:10.0f}" if shimmy else f"{'n/a':>10}"
        shim_ratio = f"{wrapped / shimmy:12.1f}x" if shimmy else f"{'n/a':>13}"
        print(
            f"{name:10} {wrapped:16.0f} {raw:10.0f} {spiel:10.0f} {tensor:10.0f} {shim} "
            f"{wrapped / spiel:15.2f}x {shim_ratio}"
        )


if __name__ == "__main__":
    main()
