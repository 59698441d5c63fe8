"""`python training/ppo_selfplay.py` in a checkout: runs `hive_envs.training.ppo_selfplay` (its docstring and `--help`
document it; installed, `hive-train` and `python -m hive_envs.training.ppo_selfplay` do the same)."""

import sys

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # without the extra it needs: one line, not a traceback
    from hive_envs.training.ppo_selfplay import main

if __name__ == "__main__":
    sys.exit(command(main)())
