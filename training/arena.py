"""`python training/arena.py` in a checkout: runs `hive_envs.training.arena` (its docstring and `--help`
document it; installed, `python -m hive_envs.training.arena` does the same)."""

import sys

from hive_envs.training.arena import main

if __name__ == "__main__":
    sys.exit(main())
