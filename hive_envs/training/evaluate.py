"""The deprecated name of `hive_envs.evaluation.evaluate` (`hive_envs.training.moved`)."""

import sys

from hive_envs.evaluation import evaluate
from hive_envs.extras import command
from hive_envs.training.moved import warn_moved

warn_moved("hive_envs.training.evaluate", evaluate)
if __name__ == "__main__":
    sys.exit(command(evaluate.main)())
sys.modules[__name__] = evaluate
