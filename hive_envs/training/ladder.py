"""The deprecated name of `hive_envs.evaluation.ladder` (`hive_envs.training.moved`)."""

import sys

from hive_envs.evaluation import ladder
from hive_envs.training.moved import warn_moved

warn_moved("hive_envs.training.ladder", ladder)
sys.modules[__name__] = ladder
