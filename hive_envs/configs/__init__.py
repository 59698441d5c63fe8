"""The training configs that come with the package, found by name.

    hive-train --config quickstart                    # hive_envs/configs/quickstart.yaml
    hive-train --config experiments/hive_base_exit    # hive_envs/configs/experiments/hive_base_exit.yaml
    hive-train --config my_setup.yaml                 # any YAML file, by its path

This folder holds the shipped recipes (the quick start, the recipes behind the pretrained agents and
those that met their target); ``experiments/`` the recipes that missed their target and research
baselines, kept so that the measurements in the docs can be rerun. README.md here has the table of
every config. A ``--config`` value that is an existing file is read as that file; otherwise it is a
config's name (``.yaml`` may be added).
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
EXPERIMENTS = "experiments"
_NAME = re.compile(rf"(?:{EXPERIMENTS}/)?[A-Za-z0-9_]+")


def config_names() -> list[str]:
    """The shipped configs' names ("quickstart", ...), then the experiments' ("experiments/NAME")."""
    shipped = sorted(path.stem for path in FOLDER.glob("*.yaml"))
    experiments = sorted(f"{EXPERIMENTS}/{path.stem}" for path in (FOLDER / EXPERIMENTS).glob("*.yaml"))
    return shipped + experiments


def config_path(name_or_path: str | Path) -> Path:
    """The file a ``--config`` value names: an existing file as it is, else the package's config of
    that name (NAME or experiments/NAME, with or without ``.yaml``). ValueError for neither, listing
    the names and the closest one."""
    path = Path(name_or_path)
    if path.is_file():
        return path
    name = str(name_or_path).removesuffix(".yaml")
    if _NAME.fullmatch(name) and (FOLDER / f"{name}.yaml").is_file():
        return FOLDER / f"{name}.yaml"
    names = config_names()
    by_stem = {name.rpartition("/")[2]: name for name in names}
    close = difflib.get_close_matches(path.stem, by_stem, n=1)
    hint = f" (did you mean --config {by_stem[close[0]]}?)" if close else ""
    raise ValueError(
        f"config file {str(name_or_path)!r} does not exist, nor is it a config of the package{hint}; "
        f"the package's configs: {', '.join(names)}"
    )
