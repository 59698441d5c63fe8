"""The deprecated name of `hive_envs.evaluation.arena` (`hive_envs.training.moved`)."""

import sys

from hive_envs.evaluation import arena
from hive_envs.extras import command
from hive_envs.training.moved import warn_moved

warn_moved("hive_envs.training.arena", arena)
if __name__ == "__main__":
    sys.exit(command(arena.main)())
sys.modules[__name__] = arena
