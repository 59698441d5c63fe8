"""A misbehaving UHP engine for the arena tests: ``python fake_uhp_engine.py garbage|hang|die``.

It follows the protocol for info / newgame / play, but its ``bestmove`` answers a move that does
not exist (garbage), never answers (hang), or exits (die).
"""

import sys
import time

mode = sys.argv[1]
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
