"""The trainers: self-play PPO, expert iteration, RLlib, and what they need (configs, runs, budgets).

They evaluate with `hive_envs.evaluation` (matches, the arena, the ladder), the layer below them.
"""
