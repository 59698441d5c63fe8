"""Self-play PPO training and checkpoint evaluation (scripts: ppo_selfplay.py, evaluate.py)."""
