"""Evaluation: matches between players, the arena, checkpoint evaluation, the Elo ladder, and the
results files they write. Below the trainers (which evaluate with it) and free of torch: players that
need torch, the checkpoints, load it when they are made (`hive_envs.players.specs`), so a match or a
ladder of classical players, UHP engines or any registered player kind runs without it.

- `match`: the one match runner (a schedule of games, game by game or batched) and its W/D/L with
  intervals;
- `arena`: game-by-game matches of player specs over worker processes (``hive-arena``);
- `evaluate`: checkpoints against opponents, batched, with an Elo table for a list (``hive-evaluate``);
- `ladder`: the Elo ladder of a game's fixed players and any players given (``hive-evaluate --ladder``);
- `elo`: the maximum-likelihood Elo fit;
- `agent_results`: the shipped agents' measured results (their model cards' rows);
- `results_files`: a report on disk, its summary apart from its games; `provenance`: where and from
  what a result was measured; `cli`: what the command lines share.
"""
