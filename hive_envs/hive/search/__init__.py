"""The Hive search over the rules of `hive_envs.hive.engine`: the alpha-beta searcher `HiveAlphaBeta`
(`alphabeta`), its static evaluation (`evaluation`) and the plan against a locked opponent
(`locked_plan`). It imports the engine; the engine never imports it (tests/test_layers.py)."""
