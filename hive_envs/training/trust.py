"""Player specs that start a process (``uhp:COMMAND``) run code: a config *file* may name one only
when the user says so on the command line.

A config file is data: it can come from anyone (a shared results folder, a downloaded example), and
``teacher: 'uhp:rm -rf ~'`` in it must not run. A spec typed on the command line (``--teacher
'uhp:nokamute uhp'``) is the user's own and is trusted; ``--trust-commands`` trusts the file's too.
"""

from __future__ import annotations

from typing import Any

#: the player kinds whose argument is a command line to run (`hive_envs.players.specs`)
COMMAND_KINDS = ("uhp",)
#: the training config keys that hold player specs
PLAYER_KEYS = ("teacher", "pool_players", "eval_opponents")
TRUST_FLAG = "--trust-commands"


def names_a_command(spec: Any) -> bool:
    """Whether ``spec`` is a player spec that starts a process."""
    return isinstance(spec, str) and spec.strip().partition(":")[0].strip() in COMMAND_KINDS


def check_commands(config: Any, from_command_line: dict[str, Any], trusted: bool) -> None:
    """ValueError naming the key and the spec when a player spec of ``config`` that did not come
    from the command line (``from_command_line``: the ``--key value`` overrides) starts a process,
    unless ``trusted`` (the user passed `TRUST_FLAG`)."""
    if trusted:
        return
    for key in PLAYER_KEYS:
        if key in from_command_line:
            continue
        value = getattr(config, key)
        for spec in value if isinstance(value, list) else [value]:
            if names_a_command(spec):
                raise ValueError(
                    f"config key {key!r} names the player {spec!r}, which runs a command; a config file "
                    f"does not run commands unless you pass {TRUST_FLAG} (or give --{key} on the command "
                    f"line)"
                )
