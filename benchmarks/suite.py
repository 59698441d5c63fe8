"""The benchmark suite: one table of plies per second, every path and its peers measured in one run.

    python -m benchmarks                  # full run (3 s per row, each row in a fresh process)
    python -m benchmarks --json docs/results/bench.json   # also write the results file the docs use
    python -m benchmarks --quick          # CI smoke run: tiny budgets, one process, no peak memory
    python -m benchmarks --rows batch     # only rows whose key contains "batch" (no PPO section)
    python -m benchmarks --rows ppo       # only the PPO section (before/after HiveBatch)
    python -m benchmarks --rows search --json docs/results/bench.json   # the alpha-beta section only
    python -m benchmarks --rows ppo --json docs/results/bench.json      # the PPO section only

Every loop does what a learner's rollout does each ply: it gets the observation and the legal
actions (mask) of the player to move, picks a uniformly random legal action and applies it; a new
game starts when one ends. Rows, per game (Hive Base, Hive Base+MLP, Hoyito II 2x6):

- engine: the game's Python engine API (`HiveGame.legal_move_ids` / `play_id`; `HoyitoGame`), and
  the engine kernel alone (compiled whole-game random playouts), no observation;
- AEC env: `hive_v0.env()` / `hoyito_v0.env()` through `last()` / `step()` (wrappers included);
- Gymnasium env: `gym.make(id)`, opponent "random" inside (plies of both seats counted);
- Gymnasium vector env: `gym.make_vec(id, num_envs=1024)` over the batched API;
- batched API: `HiveBatch` / `HoyitoBatch` `step` at N = 1, 64, 1024 (observation and mask of every
  game every ply; the random legal action of each game drawn by a compiled scan of its mask), and
  N = 1024 with ``parallel=True`` (numba threads; see `hive_envs.hive.batch` on OMP_WAIT_POLICY);
- 64 AEC envs in a Python loop behind the same batch API (`benchmarks.aec_batch`): the "before";
- peers: OpenSpiel's `hive` through pyspiel at its fastest (observation written into a reused
  buffer by ``make_observation(game).set_from``, a legal mask from ``legal_actions()``), through
  ``observation_tensor()`` (the slow path), and without observation (moves only, the engines'
  peer); Shimmy's PettingZoo wrapper of it; PettingZoo `connect_four_v3` and `chess_v6` (for scale).
  Each row's ``calls`` says exactly what its loop calls every ply.

Ratios: Hive rows against OpenSpiel's fastest loop of the same game type (the engine rows, which
make no observation, against OpenSpiel's moves-only loop), Hoyito rows against `connect_four_v3`,
all measured in the same run, on wall rates and on rates per CPU-second (the CPU time the measuring
process got, all threads: a steadier figure on a shared machine). Peak memory: each row runs in a
fresh Python process and reports its peak resident set (`ru_maxrss`, interpreter and libraries
included); the batched rows also report the bytes of the batch's own arrays. After the rows, perft
from the Hive start (best of ``--perft-repeats``), the per-position cost of the batch's kernels
(`benchmarks.kernel_costs`) and the alpha-beta search (`benchmarks.bench_search`: time per move and
nodes/s at depth 3 from fixed positions, beside perft's nodes/s from the same positions).

``--json PATH`` writes everything, with the machine, load, library versions, date and commit
(`benchmarks.results`); `python -m tools.render_docs` renders the docs' tables
from that file.

Reused from the per-game scripts: `benchmarks.bench_hive_engine` (engine rates, perft),
`benchmarks.bench_hive_env` (AEC and OpenSpiel loops), `benchmarks.bench_hoyito` (engine rates).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import math
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone

import numpy as np

from benchmarks import results as results_file

HIVE_TYPES = {"Base": "", "Base+MLP": "MLP"}
BATCH_SIZES = (1, 64, 1024)


@dataclass
class Rates:
    """What a row's measuring function returns."""

    wall: float  # plies per wall-clock second
    cpu: float | None = None  # plies per CPU second of this process (all its threads)
    buffer_bytes: int | None = None  # bytes of the batch's own arrays (batched rows)


@dataclass
class Result:
    key: str
    plies_per_second: float
    cpu_plies_per_second: float | None = None
    peak_rss_bytes: int | None = None
    buffer_bytes: int | None = None
    note: str = ""
    load_1min: float | None = None  # load average when the row started


@dataclass(frozen=True)
class Row:
    """One row of the table: its label, what its loop calls every ply, and how to measure it; the
    game column's text and the key of the row its ratio is taken against (None: a reference peer)."""

    label: str
    calls: str
    rate: Callable[[float], Rates]
    game: str = "peer"
    peer: str | None = None


# --------------------------------------------------------------------------- timing
def timed(loop, seconds: float, warmup: int = 50, chunk: int = 200, buffer_bytes=None) -> Rates:
    """Rates of ``loop(n) -> plies done`` over about ``seconds`` (after a warm-up)."""
    loop(warmup)  # numba cache load / compile, first allocations
    plies, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        plies += loop(chunk)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return Rates(plies / elapsed, plies / max(time.process_time() - cpu, 1e-9), buffer_bytes)


def called(rate_fn, seconds: float) -> Rates:
    """Rates of a per-game script's ``rate_fn(seconds)`` (wall rate, or (wall, CPU) rates).

    A short first call warms it up (numba cache load); for a bare wall rate, the CPU rate is the
    wall rate scaled by wall / CPU time of the timed call.
    """
    rate_fn(min(seconds, 0.05))
    start, cpu = time.perf_counter(), time.process_time()
    value = rate_fn(seconds)
    if isinstance(value, tuple):
        return Rates(float(value[0]), float(value[1]))
    wall_s, cpu_s = time.perf_counter() - start, time.process_time() - cpu
    return Rates(float(value), float(value) * wall_s / max(cpu_s, 1e-9))


# --------------------------------------------------------------------------- Hive loops
def gym_loop(env_id: str, plies_of):
    """A Gymnasium single-agent loop; ``plies_of(env)`` reads the plies played in the current game."""
    import gymnasium as gym

    import hive_envs  # noqa: F401 (registers the ids)

    env = gym.make(env_id, disable_env_checker=True)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    state = {"before": plies_of(env)}

    def loop(n):
        done = 0
        while done < n:
            legal = np.flatnonzero(env.unwrapped.action_masks())
            _obs, _r, terminated, truncated, _info = env.step(int(legal[rng.integers(legal.size)]))
            after = plies_of(env)
            done += after - state["before"]
            if terminated or truncated:
                env.reset()
                after = plies_of(env)
                done += after  # opponent plies before the learner's first move
            state["before"] = after
        return done

    return loop


def vector_loop(env_id: str, num_envs: int):
    """`gym.make_vec` loop; plies counted in the batch (learner and opponent steps alike)."""
    import gymnasium as gym

    import hive_envs  # noqa: F401
    from hive_envs.core.choice import random_legal_actions

    vec = gym.make_vec(env_id, num_envs=num_envs)
    vec.reset(seed=0)
    batch = vec.unwrapped.batch
    counter = {"plies": 0}
    step = batch.step

    def counting_step(actions, active=None, final_view=None):
        counter["plies"] += batch.num_games if active is None else int(active.sum())
        step(actions, active=active, final_view=final_view)

    batch.step = counting_step
    rng = np.random.default_rng(0)
    rows = np.arange(num_envs)
    actions = np.empty(num_envs, np.int64)

    def loop(n):
        start = counter["plies"]
        while counter["plies"] - start < n:
            random_legal_actions(batch.action_mask, rows, rng.random(num_envs), actions)
            vec.step(actions)
        return counter["plies"] - start

    return loop, batch


def hive_batch_loop(expansions: str, num_games: int, parallel=False):
    from hive_envs.hive import HiveBatch

    return batch_loop(HiveBatch(num_games, expansions=expansions, parallel=parallel))


def batch_loop(batch):
    """Random play through any object with the batch API; the action draw is in the timing."""
    from hive_envs.core.choice import random_legal_actions

    num_games = batch.num_games
    batch.reset(seed=0)
    rng = np.random.default_rng(0)
    rows = np.arange(num_games)
    actions = np.empty(num_games, np.int64)

    def loop(n):
        done = 0
        while done < n:
            random_legal_actions(batch.action_mask, rows, rng.random(num_games), actions)
            batch.step(actions)
            done += num_games
        return done

    return loop, batch


# --------------------------------------------------------------------------- rows
def _hive_rows(name: str, expansions: str) -> dict:
    from benchmarks import bench_hive_engine as G
    from benchmarks import bench_hive_env as H

    env_id = f"hive_envs/Hive{expansions}-v0"
    draw = "`random_legal_actions` (compiled scan of the mask rows)"

    def aec(seconds):
        from hive_envs import hive_v0

        return timed(H.aec_loop(hive_v0.env(expansions=expansions), np.random.default_rng(0)), seconds)

    def spiel(make_loop, rng=None):
        def rate(seconds):
            loop = make_loop(H.openspiel_game(expansions), rng or np.random.default_rng(0))
            return timed(loop, seconds)

        return rate

    def shimmy(seconds):
        from shimmy import OpenSpielCompatibilityV0

        env = OpenSpielCompatibilityV0(env=H.openspiel_game(expansions))
        return timed(H.aec_loop(env, np.random.default_rng(0)), seconds)

    def gym_env(seconds):
        return timed(gym_loop(env_id, lambda env: env.unwrapped.game.ply), seconds)

    def vector(seconds):
        loop, batch = vector_loop(env_id, 1024)
        return timed(loop, seconds, warmup=1024, chunk=1024, buffer_bytes=batch.nbytes)

    def aec_loop_batch(seconds):
        from benchmarks.aec_batch import AecLoopHiveBatch

        loop, _batch = batch_loop(AecLoopHiveBatch(64, expansions=expansions))
        return timed(loop, seconds, warmup=64, chunk=64)

    def batched(num_games, parallel=False):
        def rate(seconds):
            loop, batch = hive_batch_loop(expansions, num_games, parallel)
            return timed(loop, seconds, warmup=num_games, chunk=num_games, buffer_bytes=batch.nbytes)

        return rate

    rows = {
        f"hive:{name}:engine": Row(
            "engine (HiveGame ids)",
            "`HiveGame.legal_move_ids()`, `play_id(id)`; no observation",
            lambda s: called(lambda x: G.python_path_rate(name, x), s),
        ),
        f"hive:{name}:kernel": Row(
            "engine kernel (whole games)",
            "`engine.random_playout` (whole random games in one compiled call); no observation",
            lambda s: called(lambda x: G.compiled_loop_rate(name, x), s),
        ),
        f"hive:{name}:aec": Row(
            "AEC env hive_v0.env()",
            "`env.last()` (observation + mask), `env.step(a)`, wrappers included",
            aec,
        ),
        f"hive:{name}:gym": Row(
            f"Gymnasium {env_id}",
            "`env.unwrapped.action_masks()`, `env.step(a)` (random opponent inside)",
            gym_env,
        ),
        f"hive:{name}:vector1024": Row(
            "Gymnasium make_vec N=1024",
            f"{draw}, `vec.step(actions)` (random opponents inside)",
            vector,
        ),
    }
    for n in BATCH_SIZES:
        rows[f"hive:{name}:batch{n}"] = Row(f"HiveBatch N={n}", f"{draw}, `batch.step(actions)`", batched(n))
    rows[f"hive:{name}:batch1024threads"] = Row(
        "HiveBatch N=1024, parallel=True",
        f"{draw}, `batch.step(actions)` on numba threads",
        batched(1024, True),
    )
    rows[f"hive:{name}:aecloop64"] = Row(
        "64 AEC envs in a Python loop",
        f"{draw}, `AecLoopHiveBatch.step`: `env.step`, `env.observe` per game",
        aec_loop_batch,
    )
    rows[f"hive:{name}:openspiel"] = Row(
        "peer: OpenSpiel, set_from + mask",
        "pyspiel `hive`: `make_observation(game)` once; per ply `observation.set_from(state, player)` "
        "(into its reused buffer), `legal_actions()` into a reused int8 mask, `apply_action(a)`",
        spiel(H.openspiel_loop),
    )
    rows[f"hive:{name}:openspiel_tensor"] = Row(
        "peer: OpenSpiel, observation_tensor",
        "pyspiel `hive`: `observation_tensor()` (a new Python list every ply: the slow path), "
        "`legal_actions()`, `apply_action(a)`",
        spiel(H.openspiel_tensor_loop),
    )
    rows[f"hive:{name}:openspiel_moves"] = Row(
        "peer: OpenSpiel, moves only",
        "pyspiel `hive`: `legal_actions()`, `apply_action(a)` (action by `random.randrange`, as the "
        "engine rows); no observation (the engines' peer)",
        spiel(H.openspiel_moves_loop, random.Random(0)),
    )
    rows[f"hive:{name}:shimmy"] = Row(
        "peer: Shimmy PettingZoo wrapper",
        "`shimmy.OpenSpielCompatibilityV0` over the same pyspiel game: `env.last()`, `env.step(a)`",
        shimmy,
    )
    return {key: replace(row, game=f"Hive {name}", peer=_hive_peer(key)) for key, row in rows.items()}


def _hive_peer(key: str) -> str | None:
    """OpenSpiel at its fastest for the env rows, its move loop for the engine rows (none for itself)."""
    game, variant, path = key.split(":")
    if path in ("openspiel", "openspiel_moves"):
        return None
    if path in ("engine", "kernel"):
        return f"{game}:{variant}:openspiel_moves"
    return f"{game}:{variant}:openspiel"


def _hoyito_rows() -> dict:
    from benchmarks import bench_hive_env as H
    from benchmarks import bench_hoyito as B

    def aec(seconds):
        from hive_envs import hoyito_v0

        return timed(H.aec_loop(hoyito_v0.env(), np.random.default_rng(0)), seconds)

    def gym_env(seconds):
        return timed(gym_loop("hive_envs/Hoyito-v0", lambda env: env.unwrapped.aec.game.ply), seconds)

    def vector(seconds):
        loop, batch = vector_loop("hive_envs/Hoyito-v0", 1024)
        return timed(loop, seconds, warmup=1024, chunk=1024, buffer_bytes=_nbytes(batch))

    def batched(num_games):
        def rate(seconds):
            from hive_envs.hoyito import HoyitoBatch

            loop, batch = batch_loop(HoyitoBatch(num_games))
            return timed(loop, seconds, warmup=num_games, chunk=num_games, buffer_bytes=_nbytes(batch))

        return rate

    draw = "`random_legal_actions` (compiled scan of the mask rows)"
    rows = {
        "hoyito:2x6:engine": Row(
            "engine (HoyitoGame API)",
            "`HoyitoGame.legal_move_ids()`, `play_id(hole)`; no observation",
            lambda s: called(B.engine_api_plies_per_second, s),
        ),
        "hoyito:2x6:kernel": Row(
            "engine kernel (whole games)",
            "`hoyito.engine.kernels.random_playout` (whole random games in one compiled call)",
            lambda s: called(B.kernel_plies_per_second, s),
        ),
        "hoyito:2x6:aec": Row(
            "AEC env hoyito_v0.env()",
            "`env.last()` (observation + mask), `env.step(a)`, wrappers included",
            aec,
        ),
        "hoyito:2x6:gym": Row(
            "Gymnasium hive_envs/Hoyito-v0",
            "`env.unwrapped.action_masks()`, `env.step(a)` (random opponent inside)",
            gym_env,
        ),
        "hoyito:2x6:vector1024": Row(
            "Gymnasium make_vec N=1024", f"{draw}, `vec.step(actions)` (random opponents inside)", vector
        ),
    }
    for n in BATCH_SIZES:
        rows[f"hoyito:2x6:batch{n}"] = Row(f"HoyitoBatch N={n}", f"{draw}, `batch.step(actions)`", batched(n))
    return {key: replace(row, game="Hoyito 2x6", peer="peer:connect_four_v3") for key, row in rows.items()}


def _nbytes(batch) -> int:
    """Bytes of a batch's numpy arrays (its buffers and state)."""
    return sum(a.nbytes for a in vars(batch).values() if isinstance(a, np.ndarray))


def _peer_rows() -> dict:
    from benchmarks import bench_hive_env as H

    def pz(module_name):
        def rate(seconds):
            import importlib

            module = importlib.import_module(f"pettingzoo.classic.{module_name}")
            return timed(H.aec_loop(module.env(), np.random.default_rng(0)), seconds)

        return rate

    return {
        "peer:connect_four_v3": Row(
            "PettingZoo connect_four_v3",
            "`connect_four_v3.env()`: `env.last()` (observation + mask), `env.step(a)`",
            pz("connect_four_v3"),
        ),
        "peer:chess_v6": Row(
            "PettingZoo chess_v6",
            "`chess_v6.env()`: `env.last()` (observation + mask), `env.step(a)`",
            pz("chess_v6"),
        ),
    }


def all_rows() -> dict[str, Row]:
    """key -> `Row`, in table order."""
    rows = {}
    for name, expansions in HIVE_TYPES.items():
        rows.update(_hive_rows(name, expansions))
    rows.update(_hoyito_rows())
    rows.update(_peer_rows())
    return rows


@functools.cache
def _rows() -> dict[str, Row]:
    return all_rows()


def peer_of(key: str) -> str | None:
    """The row a row's ratio is taken against (None for the reference peers themselves)."""
    row = _rows().get(key)
    return None if row is None else row.peer


def game_name(key: str) -> str:
    """Game column of a row: "Hive Base", "Hive Base+MLP", "Hoyito 2x6" or "peer"."""
    row = _rows().get(key)
    return "peer" if row is None else row.game


# --------------------------------------------------------------------------- PPO self-play
PPO_CONFIG = "hive_base"  # the package's config of that name (hive_envs/configs)
PPO_PATHS = {
    "HiveBatch (after)": "hive",
    "64 AEC envs in a Python loop (before)": "hive_aec_loop",  # benchmarks.aec_batch.AEC_LOOP_HIVE
}


TIMED_RUN = {
    "eval_every": 0,
    "final_eval_games": 0,
    "checkpoint_every": 10**9,
    "time_limit_minutes": 0.0,
    "anneal_lr": False,
    "shaping_coef": 0.0,
}
"""Config keys of a run timed for its PPO updates alone: no evaluation, checkpoints, budget or schedule."""


def ppo_steps_per_second(game: str, updates: int, config_path: str = PPO_CONFIG) -> tuple[float, float]:
    """Self-play PPO env steps per wall- and per CPU-second of this process (rollout + update) of the
    config, with ``game`` as the batch class.

    One update is run first as a warm-up (numba cache load, torch start-up), then ``updates``
    updates are timed through `training.ppo_selfplay.train` (no evaluation, no periodic checkpoint,
    no reward shaping: the loop of AEC envs reports no potentials, and both paths do the same work).
    The config's teacher and pool players play as in training. CPU time counts every thread of the
    process (torch's and numba's), so it is the figure a loaded machine does not move.
    """
    import dataclasses
    import tempfile

    from hive_envs.training.config import load_config
    from hive_envs.training.ppo_selfplay import train

    config = load_config(config_path)
    steps_per_update = config.num_games * config.rollout_steps
    with tempfile.TemporaryDirectory() as runs:
        common = {"game": game, "runs_dir": runs, **TIMED_RUN}
        train(dataclasses.replace(config, name="warmup", total_steps=steps_per_update, **common))
        cpu_start = time.process_time()
        summary = train(
            dataclasses.replace(config, name="timed", total_steps=updates * steps_per_update, **common)
        )
        cpu = time.process_time() - cpu_start
    return summary["global_step"] / summary["train_seconds"], summary["global_step"] / cpu


def rollout_steps_per_second(game: str, rollouts: int, config_path: str = PPO_CONFIG) -> tuple[float, float]:
    """Env steps/s of the self-play rollout (`SelfPlayCollector.collect`, network forward included),
    and of the time spent inside the batch's `step` during it (the env's share)."""
    import torch

    from hive_envs.agents.network_kinds import build_network
    from hive_envs.training.config import load_config
    from hive_envs.training.game_lookup import make_batch
    from hive_envs.training.run import network_spec
    from hive_envs.training.selfplay import SelfPlayCollector

    config = load_config(config_path)
    if config.num_threads:
        torch.set_num_threads(config.num_threads)
    batch = make_batch(game, config.num_games, config.game_options)
    network = build_network(network_spec(config, batch), tuple(batch.observation_shape), batch.num_actions)
    collector = SelfPlayCollector(batch, network, torch.device("cpu"), seed=config.seed)
    collector.collect(2)  # warm-up
    in_step = [0.0]
    step = batch.step

    def timed_step(actions):
        tick = time.perf_counter()
        step(actions)
        in_step[0] += time.perf_counter() - tick

    batch.step = timed_step
    start = time.perf_counter()
    for _ in range(rollouts):
        collector.collect(config.rollout_steps)
    steps = rollouts * config.rollout_steps * config.num_games
    return steps / (time.perf_counter() - start), steps / in_step[0]


def ppo_section(updates: int, command: str) -> tuple[str, dict]:
    """PPO steps per wall- and CPU-second (rollout + update), rollout steps/s and batch.step steps/s,
    before and after HiveBatch: the printed section and its figures, with the section's own
    provenance (a section-only run, ``--rows ppo --json PATH``, updates an existing results file)."""
    title = (
        f"Self-play PPO on the {PPO_CONFIG} config (CPU), env steps/s: rollout + update over {updates} updates "
        f"after one warm-up (per wall- and per CPU-second); rollout alone over {updates} rollouts "
        "(the plain self-play collector: no teacher or pool players), and its time inside batch.step"
    )
    header = (
        f"  {'batch class':40} {'PPO /wall-s':>12} {'PPO /CPU-s':>11} {'rollout alone':>14} "
        f"{'batch.step alone':>17}"
    )
    lines = [title, header]
    from benchmarks.aec_batch import AEC_LOOP_HIVE
    from hive_envs.games import add_game

    add_game(AEC_LOOP_HIVE)
    rates, loads = {}, {}
    with section_provenance(command) as provenance:
        for label, game in PPO_PATHS.items():
            loads[label] = os.getloadavg()[0]
            rates[label] = (*ppo_steps_per_second(game, updates), *rollout_steps_per_second(game, updates))
            wall, cpu, rollout, step = rates[label]
            lines.append(f"  {label:40} {wall:12,.1f} {cpu:11,.1f} {rollout:14,.0f} {step:17,.0f}")
            print(lines[-1], file=sys.stderr, flush=True)
    after, before = rates.values()
    ratios = [f"{a / b:.2f}x" for a, b in zip(after, before)]
    lines.append(f"  {'after / before':40} {ratios[0]:>12} {ratios[1]:>11} {ratios[2]:>14} {ratios[3]:>17}")
    figures = {
        **provenance,
        "config": PPO_CONFIG,
        "updates": updates,
        "paths": {
            label: {
                "ppo_steps_per_second": wall,
                "ppo_steps_per_cpu_second": cpu,
                "rollout_steps_per_second": rollout,
                "step_steps_per_second": step,
                "load_1min": loads[label],
            }
            for label, (wall, cpu, rollout, step) in rates.items()
        },
    }
    return "\n".join(lines), figures


# --------------------------------------------------------------------------- running
def measure(key: str, seconds: float) -> Result:
    """Measure one row in this process."""
    load = os.getloadavg()[0]
    try:
        rates = all_rows()[key].rate(seconds)
    except ImportError as err:  # an optional peer (shimmy, chess, pygame) is not installed
        return Result(key, float("nan"), note=f"not measured: {err}", load_1min=load)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    return Result(key, rates.wall, rates.cpu, peak, rates.buffer_bytes, load_1min=load)


def measure_isolated(key: str, seconds: float) -> Result:
    """Measure one row in a fresh Python process (so its peak memory is its own)."""
    cmd = [sys.executable, "-m", "benchmarks.suite", "--row", key, "--seconds", str(seconds)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=os.environ.copy())
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return Result(key, float("nan"), note=f"failed: {tail}", load_1min=os.getloadavg()[0])
    return Result(**json.loads(proc.stdout.strip().splitlines()[-1]))


def format_table(results: list[Result], rows: dict[str, Row], seconds: float, isolated: bool) -> str:
    """The one table: wall and CPU-time rates, ratios to the row's peer, peak RSS, batch arrays;
    then what each peer row calls."""
    by_key = {r.key: r for r in results}
    lines = [
        (
            f"plies/s (wall) and plies per CPU-second, random legal actions, observation + mask every ply; "
            f"{seconds:g} s per row; numba threads {_numba_threads()}; {os.cpu_count()} CPUs; "
            f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'unset')}; load average {_load()}"
        ),
        (
            f"{'game':14} {'path':36} {'plies/s':>11} {'plies/CPU-s':>12} {'x peer':>8} {'x peer CPU':>10}  "
            f"{'peer':36} {'peak RSS':>9} {'batch arrays':>12}"
        ),
    ]
    for r in results:
        peer = by_key.get(peer_of(r.key) or "")
        ratio = _ratio(r.plies_per_second, peer.plies_per_second) if peer else ""
        ratio_cpu = _ratio(r.cpu_plies_per_second, peer.cpu_plies_per_second) if peer else ""
        peer_label = rows[peer.key].label.removeprefix("peer: ") if peer else ""
        rss = f"{r.peak_rss_bytes / 2**20:.0f} MiB" if isolated and r.peak_rss_bytes else "-"
        arrays = _size(r.buffer_bytes) if r.buffer_bytes else ""
        line = (
            f"{game_name(r.key):14} {rows[r.key].label:36} {_rate(r.plies_per_second):>11} "
            f"{_rate(r.cpu_plies_per_second):>12} {ratio:>8} {ratio_cpu:>10}  {peer_label:36} {rss:>9} {arrays:>12}"
        )
        lines.append(line + (f"  ({r.note})" if r.note else ""))
    peers = [
        r.key for r in results if ":openspiel" in r.key or ":shimmy" in r.key or r.key.startswith("peer:")
    ]
    if peers:
        lines.append("peer rows call, every ply:")
        lines += [f"  {game_name(k)}, {rows[k].label.removeprefix('peer: ')}: {rows[k].calls}" for k in peers]
    return "\n".join(lines)


def _rate(value) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:,.0f}"


def _ratio(value, peer) -> str:
    if value is None or peer is None or math.isnan(value) or math.isnan(peer) or peer == 0:
        return ""
    return f"{value / peer:.1f}x"


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _size(nbytes: int) -> str:
    return f"{nbytes / 2**20:.1f} MiB" if nbytes >= 2**20 else f"{nbytes / 2**10:.1f} KiB"


def _numba_threads() -> int:
    import numba

    return numba.get_num_threads()


SECTIONS = ("perft", "kernels", "search", "ppo")
SECTIONS_WITH_PROVENANCE = ("search", "ppo")
"""Sections that carry their own run's commit, date and load: ``--rows NAME --json PATH`` updates them
in an existing results file and leaves the rest of it as it was."""
"""``--rows`` values that select a section after the table instead of rows."""


def perft_section(repeats: int, depth: int = 5) -> list[dict]:
    """perft(depth) from the start of Base and Base+MLP, best wall and CPU time of ``repeats`` runs."""
    from benchmarks.bench_hive_engine import perft_best

    figures = []
    for game_type in HIVE_TYPES:
        perft_best(game_type, 2, 1)  # warm-up (numba cache load)
        nodes, wall, cpu = perft_best(game_type, depth, repeats)
        figures.append(
            {
                "game_type": game_type,
                "depth": depth,
                "nodes": nodes,
                "best_wall_ms": wall * 1e3,
                "best_cpu_ms": cpu * 1e3,
                "repeats": repeats,
            }
        )
    return figures


def format_perft(figures: list[dict]) -> str:
    lines = [f"perft from the start, last ply bulk-counted, best of {figures[0]['repeats']}"]
    for f in figures:
        lines.append(
            f"  {f['game_type']:10} perft({f['depth']}) = {f['nodes']:>11,}  {f['best_wall_ms']:8.2f} ms wall "
            f"{f['best_cpu_ms']:8.2f} ms CPU  {f['nodes'] / f['best_wall_ms'] / 1e3:6.1f} M nodes/s"
        )
    return "\n".join(lines)


def search_section(positions: int, depth: int, command: str) -> dict:
    """The alpha-beta searches at ``depth`` (Hoyito ``2 * depth``) from ``positions`` fixed positions per
    game (`benchmarks.bench_search`), with the section's own provenance: a section-only run
    (``--rows search --json PATH``) adds it to an existing results file without touching the rest."""
    from benchmarks.bench_search import search_rows

    with section_provenance(command) as provenance:
        rows = search_rows(positions, [depth])
    return {**provenance, "rows": rows}


@contextlib.contextmanager
def section_provenance(command: str) -> Iterator[dict]:
    """The run of a section measured in the block (command, date, commit, CPUs, load before and after),
    filled in when the block ends: a section that carries it can be rewritten on its own."""
    commit, dirty = results_file.git_commit()
    load_before = os.getloadavg()
    date = datetime.now(timezone.utc).isoformat(timespec="seconds")
    provenance: dict = {}
    yield provenance
    machine = results_file.machine()
    provenance.update(
        command=command,
        date=date,
        commit=commit,
        dirty=dirty,
        cpus=machine["cpus"],
        affinity=machine["affinity"],
        load_average={"before": list(load_before), "after": list(os.getloadavg())},
    )


def format_search(section: dict) -> str:
    from benchmarks.bench_search import format_rows

    return "alpha-beta search per move (wall and CPU time), nodes/s per CPU-second\n" + format_rows(
        section["rows"]
    )


def kernel_section(count: int) -> list[dict]:
    from benchmarks.kernel_costs import kernel_costs

    return [kernel_costs(game_type, count) for game_type in HIVE_TYPES]


def format_kernels(figures: list[dict]) -> str:
    names = list(figures[0]["us_per_position"])
    lines = [
        f"HiveBatch ply, per-kernel CPU us per position ({figures[0]['positions']} random-game positions)",
        f"  {'game':10} {'legal moves':>11} " + " ".join(f"{n:>21}" for n in names),
    ]
    for f in figures:
        costs = " ".join(f"{f['us_per_position'][n]:21.2f}" for n in names)
        lines.append(f"  {f['game_type']:10} {f['mean_legal_moves']:11.1f} {costs}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per row (default 3)")
    parser.add_argument("--quick", action="store_true", help="CI smoke run: 0.02 s per row, in one process")
    parser.add_argument(
        "--rows",
        default="",
        help="only rows whose key contains this text (e.g. 'hive:Base'), or one section: "
        + ", ".join(SECTIONS),
    )
    parser.add_argument("--in-process", action="store_true", help="measure all rows in this process")
    parser.add_argument("--list", action="store_true", help="list the row keys and exit")
    parser.add_argument(
        "--ppo-updates", type=int, default=3, help="PPO updates timed per path (0 skips PPO; --quick: 0)"
    )
    parser.add_argument(
        "--perft-repeats", type=int, default=7, help="perft(5) runs per game type (best shown)"
    )
    parser.add_argument(
        "--search-positions", type=int, default=40, help="positions per game for the search section"
    )
    parser.add_argument(
        "--json",
        metavar="PATH",
        help="also write every figure, machine and versions here (with --rows search or --rows ppo: "
        "update that section of an existing file)",
    )
    parser.add_argument("--row", help=argparse.SUPPRESS)  # child process: one row, JSON out
    args = parser.parse_args(argv)
    seconds = 0.02 if args.quick else args.seconds
    if args.row:
        print(json.dumps(asdict(measure(args.row, seconds))))
        return 0
    rows = all_rows()
    if args.list:
        print("\n".join([*rows, *SECTIONS]))
        return 0
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    commit, dirty = results_file.git_commit()
    load_before = os.getloadavg()
    section_only = args.rows in SECTIONS
    keys = [] if section_only else [k for k in rows if args.rows in k]
    isolated = not (args.quick or args.in_process)
    results = []
    for key in keys:
        result = measure_isolated(key, seconds) if isolated else measure(key, seconds)
        results.append(result)
        print(
            f"  {key:32} {_rate(result.plies_per_second):>12} plies/s {_rate(result.cpu_plies_per_second):>12} "
            f"plies/CPU-s {result.note}",
            file=sys.stderr,
            flush=True,
        )
    if keys:
        print(format_table(results, rows, seconds, isolated))

    def wanted(section):
        return args.rows in ("", section)

    perft = kernels = ppo = None
    if wanted("perft"):
        perft = perft_section(1 if args.quick else args.perft_repeats, depth=3 if args.quick else 5)
        print("\n" + format_perft(perft))
    if wanted("kernels"):
        kernels = kernel_section(200 if args.quick else 2000)
        print("\n" + format_kernels(kernels))
    search = None
    if wanted("search"):
        command = "python -m benchmarks " + " ".join(sys.argv[1:] if argv is None else argv)
        search = search_section(2 if args.quick else args.search_positions, 2 if args.quick else 3, command)
        print("\n" + format_search(search))
    ppo_updates = 0 if args.quick else args.ppo_updates
    if ppo_updates > 0 and wanted("ppo"):
        command = "python -m benchmarks " + " ".join(sys.argv[1:] if argv is None else argv)
        text, ppo = ppo_section(ppo_updates, command)
        print("\n" + text)
    if args.json and args.rows in SECTIONS_WITH_PROVENANCE and os.path.exists(args.json):
        document = results_file.read(args.json)
        document[args.rows] = {"search": search, "ppo": ppo}[args.rows]
        results_file.write(args.json, document)
        print(f"\nupdated the {args.rows} section of {args.json}", file=sys.stderr)
    elif args.json:
        by_key = {r.key: r for r in results}
        document = {
            "schema": results_file.SCHEMA,
            "command": "python -m benchmarks " + " ".join(sys.argv[1:] if argv is None else argv),
            "date": started,
            "commit": commit,
            "dirty": dirty,
            "machine": results_file.machine(),
            "load_average": {"before": list(load_before), "after": list(os.getloadavg())},
            "versions": results_file.versions(),
            "seconds_per_row": seconds,
            "isolated": isolated,
            "numba_threads": _numba_threads(),
            "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"),
            "rows": [
                results_file.row_entry(
                    r, rows[r.key], by_key.get(peer_of(r.key) or ""), game_name(r.key), peer_of(r.key)
                )
                for r in results
            ],
            "perft": perft,
            "kernel_costs": kernels,
            "search": search,
            "ppo": ppo,
        }
        results_file.write(args.json, document)
        print(f"\nwrote {args.json}", file=sys.stderr)
    failed = [r.key for r in results if r.note.startswith("failed")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
