"""`python training/pretrained.py` in a checkout: runs `hive_envs.training.pretrained` (its docstring and `--help`
document it; installed, `python -m hive_envs.training.pretrained` does the same)."""

import sys

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # without the extra it needs: one line, not a traceback
    from hive_envs.training.pretrained import main

if __name__ == "__main__":
    sys.exit(command(main)())
