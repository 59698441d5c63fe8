"""The package version (one place; `hive_envs.__version__`, checkpoints and the UHP engine id read it)."""

__version__ = "0.1.0"
