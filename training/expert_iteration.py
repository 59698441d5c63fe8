"""`python training/expert_iteration.py` in a checkout: runs `hive_envs.training.expert_iteration` (its docstring and `--help`
document it; installed, `python -m hive_envs.training.expert_iteration` does the same)."""

import sys

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # without the extra it needs: one line, not a traceback
    from hive_envs.training.expert_iteration import main

if __name__ == "__main__":
    sys.exit(command(main)())
