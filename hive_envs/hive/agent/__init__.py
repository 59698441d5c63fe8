"""Hive's agent kit: what makes a Hive agent strong, reached only through Hive's definition.

- `options`: the options of Hive's network kinds (torch-free: configs are checked with them);
- `features`: each legal action's rule features from an observation or an engine state
  (`HiveRuleFeatures`, over the kernel `hive_envs.hive.rule_features` that the envs'
  ``rule_features=True`` observation shares);
- `network`: the ``hive_lookahead`` network (hexconv trunk + rule features) and its builder;
- `pieces_network`: the ``hive_pieces`` network over the piece observation alone (no rule features);
- `evaluator`: a search's leaf evaluation from the games' engine states (`HiveStateEvaluator`);
- `history`: which moves lead to a position the game has not been in (``fresh_moves``).

The kinds are declared in `hive_envs.hive.definition` (``agents.networks``); generic code finds them by
their names through `hive_envs.agents.network_kinds`.
"""
