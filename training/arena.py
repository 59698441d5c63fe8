"""`python training/arena.py` in a checkout: runs `hive_envs.evaluation.arena` (its docstring and `--help`
document it; installed, `hive-arena` and `python -m hive_envs.evaluation.arena` do the same)."""

import sys

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # without the extra it needs: one line, not a traceback
    from hive_envs.evaluation.arena import main

if __name__ == "__main__":
    sys.exit(command(main)())
