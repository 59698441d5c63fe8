"""Hoyito's agent kit: what makes a Hoyito agent strong, reached only through Hoyito's definition.

- `options`: the ``hoyito_lookahead`` network kind's options (torch-free: configs are checked with it);
- `features`: each action's rule features from an observation (`HoyitoRuleFeatures`), feature set 2
  with an alpha-beta search after each move;
- `network`: the ``hoyito_lookahead`` network (mlp + rule features), its builder, and what a new run
  does first (fit the board values);
- `board_values`: the learned board values that search adds to its evaluation, fitted to self-play
  games; `board_values_screen` plays a fitted table against the hand evaluation.

The kind is declared in `hive_envs.hoyito.definition` (``agents.networks``); generic code finds it by
its name through `hive_envs.agents.network_kinds`.
"""
