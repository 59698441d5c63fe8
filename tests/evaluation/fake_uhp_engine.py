"""Misbehaving UHP engines for the arena tests: ``python fake_uhp_engine.py MODE``.

- ``garbage`` / ``hang`` / ``die``: info / newgame / play follow the protocol, but ``bestmove``
  answers a move that does not exist, never answers, or exits;
- ``start-exit`` / ``start-silent``: exits before its info block / never prints it;
- ``repetition``: a real engine (ours) with the repetition draw on, as nokamute always plays, and
  `Oscillator` behind ``bestmove``: once a position occurs a third time its game is over and it
  says so in the GameString ``play`` answers (`tests.play.oscillator.Oscillator`);
- ``repetition-err``: the same, but the ``play`` that ends its game is answered ``err game over``
  (its state is only seen by asking, e.g. with ``undo 0``).

Only the ``repetition`` modes import the package (the others must start within a second).
"""

import sys
import time
from pathlib import Path


def _play_engine(answer_game_over_with_err: bool) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository: tests.play.oscillator
    from hive_envs.hive.uhp import UHPEngine
    from tests.play.oscillator import Oscillator

    engine = UHPEngine(Oscillator())
    engine.options["RepetitionDraw"] = True
    print("\n".join(engine.handle("info")), flush=True)
    for line in sys.stdin:
        lines = engine.handle(line)
        over = engine.game is not None and engine.game.is_terminal
        if answer_game_over_with_err and line.startswith("play") and over and lines[0].startswith("Base;"):
            lines = ["err game over", "ok"]
        print("\n".join(lines), flush=True)


def main(mode: str) -> None:
    if mode == "start-exit":
        sys.exit(1)
    if mode == "start-silent":
        time.sleep(60)
    if mode.startswith("repetition"):
        _play_engine(mode == "repetition-err")
        return
    print("id fake 0\nok", flush=True)
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "bestmove":
            if mode == "hang":
                time.sleep(60)
            if mode == "die":
                sys.exit(3)
            print("wZ9 nowhere\nok", flush=True)
        elif word == "newgame":
            print("Base;NotStarted;White[1]\nok", flush=True)
        else:
            print("Base;InProgress;White[1]\nok", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
