"""`python training/pretrained.py` in a checkout: runs `hive_envs.training.pretrained` (its docstring and `--help`
document it; installed, `python -m hive_envs.training.pretrained` does the same)."""

import sys

from hive_envs.training.pretrained import main

if __name__ == "__main__":
    sys.exit(main())
