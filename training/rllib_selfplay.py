"""`python training/rllib_selfplay.py` in a checkout: runs `hive_envs.training.rllib_selfplay` (its docstring and `--help`
document it; installed, `hive-train-rllib` and `python -m hive_envs.training.rllib_selfplay` do the same)."""

import sys

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # without the extra it needs: one line, not a traceback
    from hive_envs.training.rllib_selfplay import main

if __name__ == "__main__":
    sys.exit(command(main)())
