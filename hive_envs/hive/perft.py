"""``python -m hive_envs.hive.perft``: the documented command line of `hive_envs.hive.engine.perft`."""

import sys

from hive_envs.hive.engine.perft import main

if __name__ == "__main__":
    sys.exit(main())
