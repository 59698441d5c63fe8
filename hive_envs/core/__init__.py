"""Game-agnostic plumbing shared by the Hive and Hoyito environments.

- `aec.MaskedAECEnv`: PettingZoo AEC base (spaces, masks, illegal actions, dead steps, rewards,
  render plumbing) and `aec.wrap_aec` for `env()`.
- `single_agent.SingleAgentEnv`: Gymnasium env with the opponent inside, over a MaskedAECEnv.
- `opponents`: resolving an `opponent` argument ("random", "greedy", callable, loaders).
- `batch.BatchGame`: base of HiveBatch / HoyitoBatch (buffers, input checks, reset/step plumbing).
- `vector.BatchVectorEnv`: Gymnasium vector env over a batched game (the batched contract).
"""
