"""`python training/evaluate.py` in a checkout: runs `hive_envs.evaluation.evaluate` (its docstring and `--help`
document it; installed, `hive-evaluate` and `python -m hive_envs.evaluation.evaluate` do the same)."""

import sys

from hive_envs.extras import command, script_imports

with script_imports(__name__):  # without the extra it needs: one line, not a traceback
    from hive_envs.evaluation.evaluate import main

if __name__ == "__main__":
    sys.exit(command(main)())
