"""`make_env(options)`: a new env of a name and options; one of PettingZoo's classic games is first
made in a child process, under a memory and time ceiling.

A config or a checkpoint names the env and its options, and the env's factory is code of someone
else's, which may allocate anything in its constructor: ``pettingzoo.classic.go_v5`` with
``board_size: 30000`` builds 900 million coordinates before it returns. No check of the options can
know that in advance, so the first time a process is to make an env of such a name and options
(`needs_probe`), `footprint` makes and resets one in a fresh interpreter (``python -m
hive_envs.core.aec_make``) whose memory is capped at `ENV_MEMORY` bytes above what its imports took
(its address space, RLIMIT_AS, on Linux) and whose time at `ENV_SECONDS`, and reads back the memory
that env took (the growth of the child's resident memory, after or at its peak: an estimate, as pages
an env never touches are not counted). An env past a ceiling is refused with a ValueError naming it;
the answer is kept for the process, so each name and options cost one child.

Not probed: this package's own envs (their options are parsed and bounded by their game) and a
``MODULE:FACTORY`` the user trusted on the command line (the user's own code, like a ``uhp:`` command
typed there; its options are passed to it as given).
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from typing import Any

from hive_envs.core.aec_source import AecOptions, call_factory, import_factory, is_classic

ENV_MEMORY = 1 << 30
"""Bytes one env may take to be made and reset (1 GiB; a classic board game takes a few MB)."""
ENV_SECONDS = 60.0
"""Seconds the child may take: starting an interpreter, importing the env's module, making and
resetting one env (about 1 s)."""
_RESULT = "hive_envs.aec_make:"
_footprints: dict[bytes, int] = {}


def make_env(options: AecOptions):
    """A new, not yet reset, env of ``options`` (ValueError naming the env when it cannot be made);
    an env that `needs_probe` is made in a child process first (`footprint`)."""
    footprint(options)
    return call_factory(options)


def needs_probe(options: AecOptions) -> bool:
    """Whether an env of ``options`` is made in a child first (see the module docstring)."""
    return is_classic(options.env)


def footprint(options: AecOptions) -> int:
    """Bytes one env of ``options`` took to make and reset in a child process (0 when it
    `needs_probe` not); ValueError naming the env when it could not be made within the ceilings, or
    its factory refused the options."""
    if not needs_probe(options):
        return 0
    key = pickle.dumps((options.env, options.env_options))
    if key not in _footprints:
        _footprints[key] = _probe(options)
    return _footprints[key]


def _probe(options: AecOptions) -> int:
    request = pickle.dumps((options.env, options.env_options, list(sys.path)))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "hive_envs.core.aec_make"],
            input=request,
            capture_output=True,
            timeout=ENV_SECONDS,
            env={**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"},
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise ValueError(
            f"env {options.label}: making and resetting one took more than {ENV_SECONDS:.0f} s in a "
            f"child process (check env_options)"
        ) from None
    answers = [line for line in done.stdout.decode(errors="replace").splitlines() if line.startswith(_RESULT)]
    if not answers:
        raise ValueError(
            f"env {options.label}: the child process that makes one first ended without an answer "
            f"(exit status {done.returncode}; past {ENV_MEMORY >> 30} GiB of memory? check env_options)"
        )
    answer = json.loads(answers[-1][len(_RESULT) :])
    if "refused" in answer:  # the factory's ValueError, which names the env
        raise ValueError(answer["refused"])
    if "failed" in answer:
        raise ValueError(f"env {options.label}: {answer['failed']}")
    return int(answer["bytes"])


def _memory() -> tuple[int, int]:
    """(resident bytes now, peak resident bytes so far) of this process; now is the peak where
    /proc/self/statm cannot be read."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE"), peak
    except (OSError, ValueError, IndexError):
        return peak, peak


def _cap_memory() -> None:
    """RLIMIT_AS at the current address space plus `ENV_MEMORY` (Linux; elsewhere nothing)."""
    try:
        import resource

        with open("/proc/self/status") as status:
            kib = next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))
    except (ImportError, OSError, StopIteration):
        return
    limit = kib * 1024 + ENV_MEMORY
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    if hard != resource.RLIM_INFINITY:  # a parent's own cap stays the ceiling
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _answer(**fields: Any) -> None:
    print(_RESULT + json.dumps(fields), flush=True)


def main() -> None:
    """The child: read (env, env_options, sys.path) from stdin, make and reset one env under the cap,
    print the answer (its bytes, or the error) as the last line starting with `_RESULT`."""
    env, env_options, path = pickle.loads(sys.stdin.buffer.read())  # the parent process's own request
    sys.path[:] = path
    options = AecOptions(env, env_options)
    try:
        import_factory(options.env)  # imports take what they take, uncapped
        _cap_memory()
        before = _memory()
        made = call_factory(options)
        made.reset(seed=0)
        after = _memory()
        _answer(bytes=max(0, after[0] - before[0], after[1] - before[1]))
    except MemoryError:
        _answer(
            failed=f"making and resetting one took more than {ENV_MEMORY >> 30} GiB of memory (check env_options)"
        )
    except ValueError as error:  # names the env
        _answer(refused=str(error)[:1000])
    except Exception as error:  # noqa: BLE001 (any failure of someone else's factory is reported)
        _answer(failed=f"making and resetting one raised {type(error).__name__}: {str(error)[:300]}")


if __name__ == "__main__":
    main()
