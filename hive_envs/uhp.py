"""``python -m hive_envs.uhp``: run the Universal Hive Protocol engine on stdin/stdout.

See `hive_envs.hive.uhp` for the commands. Options: ``--player SPEC`` (any player spec of
`hive_envs.players`: ``alphabeta:3,eval=pretrained:hive_eval,other=hand`` (default; ``alphabeta:3`` without
torch), ``greedy``, ``random``, ``PATH[@N]``, ``PATH@T=S``, ...), ``--seed N``,
``--agent PATH`` (a Hive checkpoint) with ``--simulations N`` (play-time search, 0 = raw policy).
"""

from hive_envs.extras import command
from hive_envs.hive.uhp import main

if __name__ == "__main__":
    raise SystemExit(command(main)())
