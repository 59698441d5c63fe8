"""Game-agnostic pieces shared by every game, from the bottom layer up (docs/architecture.md).

- `definition.GameDefinition`: one game's record of everything game-specific, which every tool reads
  (`hive_envs.games` collects them).
- `lazy.lazy_names`: a package's names imported on first read (the game packages' ``__init__``).
- `game.Game`: the game protocol every tool talks to (implemented by HiveGame and HoyitoGame), and
  `game.as_integer` / `check_integer`: what counts as an integer action, move id or row (no bools,
  no floats).
- `choice`: a random legal action per mask row (compiled), a best score with random ties.
- `batch.BatchGame`: base of HiveBatch / HoyitoBatch (buffers, input checks, reset/step plumbing).
- `aec_batch.AecBatch`: the batched contract over N copies of any PettingZoo AEC env (`aec_game`: an
  AEC env as a protocol game; `aec_source`: which env a name stands for, and the import rule).
- `aec.MaskedAECEnv`: PettingZoo AEC base (spaces, masks, illegal actions, dead steps, rewards,
  render plumbing) and `aec.wrap_aec` for `env()`.
- `game_env.GameAECEnv`: the AEC env of any protocol game plus its encoder.
- `single_agent.SingleAgentEnv`: Gymnasium env with the opponent inside, over a GameAECEnv.
- `opponents`: an `opponent` argument (player spec, player or callable) made into env opponents.
- `env_input`: the checks of the envs' own arguments (`learner_seat`, `reset` options).
- `vector.BatchVectorEnv`: Gymnasium vector env over a batched game (the batched contract).

Only `game` and `choice` (and `batch`) are below the engines; this package's `__init__` imports
nothing, so importing `hive_envs.core.game` pulls in no environment library.
"""
