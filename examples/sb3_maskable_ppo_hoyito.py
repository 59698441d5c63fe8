"""Train `Hoyito-v0` with SB3-contrib's MaskablePPO through the env's `action_masks()`.

    pip install 'hive_envs[sb3]'
    python examples/sb3_maskable_ppo_hoyito.py --steps 50000

The Gymnasium env has one learner seat (drawn at random each game here) and the opponent inside
(uniform random by default). MaskablePPO finds the legal actions by calling the env's
`action_masks()` method, so it never samples an illegal move; nothing else is needed. At the
end the trained policy (argmax over legal moves) plays `--eval-games` games vs random.
"""

from __future__ import annotations

import argparse

import gymnasium as gym

import hive_envs  # noqa: F401  (registers the hive_envs/ ids)


def make_env(seed: int, holes_per_row: int = 6, opponent="random") -> gym.Env:
    env = gym.make(
        "hive_envs/Hoyito-v0", holes_per_row=holes_per_row, opponent=opponent, learner_seat="random"
    )
    env.reset(seed=seed)
    return env


def build(seed: int = 0, holes_per_row: int = 6, n_steps: int = 512, env: gym.Env | None = None):
    """An untrained MaskablePPO model on a Hoyito env (`env`, or a new one vs random)."""
    from sb3_contrib import MaskablePPO

    env = env if env is not None else make_env(seed, holes_per_row)
    return MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=128, seed=seed, verbose=0)


def win_rate(model, games: int, seed: int = 1, holes_per_row: int = 6) -> float:
    """Share of `games` the model (argmax over legal moves) wins against the env's opponent."""
    env = make_env(seed, holes_per_row)
    wins = 0
    for game in range(games):
        obs, _ = env.reset(seed=seed + game)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        wins += reward > 0
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=50_000, help="env steps of training")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--holes-per-row", type=int, default=6)
    parser.add_argument("--eval-games", type=int, default=200)
    args = parser.parse_args()
    model = build(args.seed, args.holes_per_row)
    untrained = win_rate(model, args.eval_games, holes_per_row=args.holes_per_row)
    model.learn(total_timesteps=args.steps)
    rate = win_rate(model, args.eval_games, holes_per_row=args.holes_per_row)
    print(
        f"win rate vs random over {args.eval_games} games: untrained {untrained:.3f}, "
        f"after {args.steps} steps {rate:.3f}"
    )


if __name__ == "__main__":
    main()
