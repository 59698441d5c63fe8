"""The Hoyito II search over the rules of `hive_envs.hoyito.engine`: the alpha-beta searcher
`HoyitoAlphaBeta` with its evaluation and learned board values (`alphabeta`). It imports the engine;
the engine never imports it (tests/test_layers.py)."""
