"""The old names of the modules that moved from `hive_envs.training` to `hive_envs.evaluation` (the
evaluation needs no torch, the trainers sit on it).

``hive_envs.training.arena``, ``.evaluate`` and ``.ladder``, the names earlier versions documented
(``from hive_envs.training.ladder import ladder``, ``python -m hive_envs.training.evaluate``), still
work and warn (DeprecationWarning); each is the moved module itself, not a copy, and a later version
removes them. The other moved modules (``match``, ``elo``, ``results_files``, ``provenance``) were
never documented to be imported and have no old name.
"""

from __future__ import annotations

import sys
import warnings
from types import ModuleType


def warn_moved(old: str, module: ModuleType) -> None:
    """Warn that ``old`` (the calling module) is now ``module``: at the line that imports it, or at the
    old module itself when it runs as a script (``python -m``), where Python shows the warning."""
    run_as_script = sys._getframe(1).f_globals.get("__name__") == "__main__"
    warnings.warn(
        f"{old} is deprecated: it moved to {module.__name__}; use that (the old name will be removed)",
        DeprecationWarning,
        stacklevel=2 if run_as_script else 3,  # 3: the importer (the import machinery's frames not counted)
    )
