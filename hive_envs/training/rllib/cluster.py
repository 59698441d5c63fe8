"""Starting Ray: a local instance by default, or joining a cluster with `--address`.

An unreachable address fails fast with a clear message: before `ray.init` (which may retry
for a long time) we open a TCP connection to the head's host:port with a short timeout.

Env-runner and learner processes must import `training` and `hive_envs` from this checkout:
locally through PYTHONPATH (the processes are children of this machine's Ray), on a cluster by
shipping the checkout as the job's `working_dir` (runs/ and .git left out); the cluster's
Python environments need the package's dependencies (`pip install 'hive_envs[rllib]'`).
"""

from __future__ import annotations

import logging
import os
import socket
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_PORT = 6379  # Ray's GCS port, what `ray start --head` listens on
WORKING_DIR_EXCLUDES = ["runs/", ".git/", "**/__pycache__/", "*.egg-info/", ".pytest_cache/", ".hypothesis/"]


def parse_address(address: str) -> tuple[str, int]:
    """'host', 'host:port', 'ray://host:port' -> (host, port); ValueError if malformed."""
    rest = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = rest.rpartition(":")
    if not sep:
        host, port = rest, str(DEFAULT_PORT)
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--address {address!r} is not of the form host:port (e.g. 10.0.0.5:6379)")
    return host, int(port)


def check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """ValueError naming the address unless a TCP connection to it opens within timeout_s."""
    host, port = parse_address(address)
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            pass
    except OSError as error:
        raise ValueError(
            f"cannot reach a Ray cluster at {address!r} ({error.strerror or error}); start its head with "
            f"'ray start --head --port={port}' or fix --address"
        ) from None


def init_ray(address: str | None, num_cpus: int) -> None:
    """Local Ray with `num_cpus` logical CPUs (address None), or connect to the cluster."""
    import ray

    if address is None:
        # Ray renices its worker processes to 15 so the driver stays responsive; on a busy shared
        # machine that starves the env runners, which do most of the work. Normal priority instead.
        os.environ.setdefault("RAY_worker_niceness", "0")
        paths = [str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        ray.init(
            num_cpus=num_cpus,
            include_dashboard=False,
            runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(paths)}},
            logging_level=logging.WARNING,
        )
        return
    if address != "auto":
        check_reachable(address)
    ray.init(
        address=address,
        runtime_env={"working_dir": str(REPO_ROOT), "excludes": WORKING_DIR_EXCLUDES},
        logging_level=logging.WARNING,
    )
