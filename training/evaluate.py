"""`python training/evaluate.py` in a checkout: runs `hive_envs.training.evaluate` (its docstring and `--help`
document it; installed, `python -m hive_envs.training.evaluate` does the same)."""

import sys

from hive_envs.training.evaluate import main

if __name__ == "__main__":
    sys.exit(main())
