"""`python training/ppo_selfplay.py` in a checkout: runs `hive_envs.training.ppo_selfplay` (its docstring and `--help`
document it; installed, `python -m hive_envs.training.ppo_selfplay` does the same)."""

import sys

from hive_envs.training.ppo_selfplay import main

if __name__ == "__main__":
    sys.exit(main())
