"""HiveBatch plies per second with the planes and with the piece observation, interleaved.

    python -m benchmarks.bench_observations [--seconds 3] [--games 64 1024]

Each loop is the batch rows' loop of the suite (`benchmarks.suite.batch_loop`): one uniformly random
legal action per game drawn by a compiled scan of the mask, then ``batch.step``, which writes every
game's mask and observation. The planes and the pieces loops of one game type and batch size are
measured in alternating slices (`benchmarks.bench_hive_env._interleaved`), so that the load of a
shared machine hits both alike; the ratio is pieces / planes. The load average is printed beside.
"""

from __future__ import annotations

import argparse
import os

from benchmarks.bench_hive_env import _interleaved
from benchmarks.suite import HIVE_TYPES, batch_loop
from hive_envs.hive import HiveBatch

OBSERVATIONS = ("planes", "pieces")


def rates(expansions: str, num_games: int, seconds: float) -> dict[str, float]:
    """Plies per second of each observation's batch loop, interleaved."""
    loops = {}
    for observation in OBSERVATIONS:
        loop, _batch = batch_loop(HiveBatch(num_games, expansions=expansions, observation=observation))
        loops[observation] = loop
    return _interleaved(loops, seconds)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per loop")
    parser.add_argument("--games", type=int, nargs="+", default=[64, 1024], help="batch sizes")
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min)")
    print(f"{'game':10} {'N':>6} {'planes plies/s':>15} {'pieces plies/s':>15} {'pieces/planes':>14}")
    for name, expansions in HIVE_TYPES.items():
        for num_games in args.games:
            rate = rates(expansions, num_games, args.seconds)
            print(
                f"{name:10} {num_games:6d} {rate['planes']:15.0f} {rate['pieces']:15.0f} "
                f"{rate['pieces'] / rate['planes']:13.2f}x"
            )
    print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
