"""Hoyito II throughput, printed beside PettingZoo's connect_four_v3 measured in the same run.

    python benchmarks/bench_hoyito.py [--seconds 3]

Rows (random play, plies per second, single process):
- AEC env: `hoyito_v0.env()` vs `connect_four_v3.env()`, both driven the same way through
  `agent_iter()` / `last()` (observation and mask every ply) / `step()`;
- engine: `HoyitoGame` through its Python API (legal_move_ids + play_id), and the compiled rule
  kernel alone (`kernels.random_playout`, whole games in one call);
- batch: `HoyitoBatch.step` at N = 1, 64, 1024 (random legal actions drawn with numpy).
Compilation is done before timing (numba caches it on disk). Two rates are printed: per
wall-clock second and per CPU second of this process (`time.process_time`); on a shared,
loaded machine the second one is the single-core figure, and the ratios use it.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

try:
    from pettingzoo.classic import connect_four_v3
except ImportError as error:  # connect_four imports pygame for its human render mode
    raise SystemExit(f"the peer connect_four_v3 needs pygame: pip install pygame ({error})") from None

from hive_envs import hoyito_v0
from hive_envs.hoyito import HoyitoBatch, HoyitoGame
from hive_envs.hoyito.engine import kernels as K


class Clock:
    """Wall and CPU time since creation; `rates(count)` -> (count per wall s, count per CPU s)."""

    def __init__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def elapsed(self) -> float:
        return time.perf_counter() - self.wall

    def rates(self, count: int) -> tuple[float, float]:
        return count / self.elapsed(), count / (time.process_time() - self.cpu)


def aec_plies_per_second(make_env, seconds: float) -> tuple[float, float]:
    env = make_env()
    rng = random.Random(0)
    plies, clock = 0, Clock()
    while clock.elapsed() < seconds:
        env.reset(seed=plies)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            plies += 1
    return clock.rates(plies)


def engine_api_plies_per_second(seconds: float) -> tuple[float, float]:
    rng = random.Random(0)
    plies, clock = 0, Clock()
    while clock.elapsed() < seconds:
        game = HoyitoGame()
        while not game.is_terminal:
            game.play_id(rng.choice(game.legal_move_ids().tolist()))
            plies += 1
    return clock.rates(plies)


def kernel_plies_per_second(seconds: float) -> tuple[float, float]:
    state = np.zeros(K.state_size(6), np.int32)
    K.init_state(state, 6, 4)
    K.random_playout(state, 6, 1000, 600, 12345)  # compile
    plies, games, clock = 0, 0, Clock()
    while clock.elapsed() < seconds:
        K.init_state(state, 6, 4)
        games += 1
        plies += K.random_playout(state, 6, 1000, 600, 2 * games + 1)
    return clock.rates(plies)


def batch_plies_per_second(num_games: int, seconds: float) -> tuple[float, float]:
    batch = HoyitoBatch(num_games)
    batch.reset(seed=0)
    rng = np.random.default_rng(0)
    batch.step((rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1))  # compile
    steps, clock = 0, Clock()
    while clock.elapsed() < seconds:
        batch.step((rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1))
        steps += 1
    return clock.rates(steps * num_games)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    seconds = parser.parse_args().seconds
    aec_plies_per_second(hoyito_v0.env, 0.2)  # warm-up: numba load / compile
    c4 = aec_plies_per_second(connect_four_v3.env, seconds)
    ours = aec_plies_per_second(hoyito_v0.env, seconds)
    rows = [
        ("connect_four_v3 AEC env (peer)", c4),
        ("hoyito_v0 AEC env 2x6", ours),
        ("HoyitoGame Python API 2x6", engine_api_plies_per_second(seconds)),
        ("compiled rule kernel 2x6", kernel_plies_per_second(seconds)),
    ]
    rows += [(f"HoyitoBatch N={n} 2x6", batch_plies_per_second(n, seconds)) for n in (1, 64, 1024)]
    print(f"{'random play':34s} {'plies/wall s':>13s} {'plies/CPU s':>13s} {'x connect_four (CPU)':>21s}")
    for name, (wall, cpu) in rows:
        print(f"{name:34s} {wall:13,.0f} {cpu:13,.0f} {cpu / c4[1]:20.2f}x")


if __name__ == "__main__":
    main()
