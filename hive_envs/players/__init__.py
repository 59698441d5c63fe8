"""Players: anything that picks moves on a protocol game, and the one resolver of player specs.

- `base`: the `Player` interface (``choose(game, limits) -> move id``, ``seed``, ``close``, the batched
  ``act(batch, rows)``), `SearchLimits`, `PlayerFailure`, `BasePlayer`;
- `builtin`: `RandomPlayer`, `GreedyPlayer`;
- `alphabeta`: `AlphaBetaPlayer`, the alpha-beta search of either game (``alphabeta:D``, ``alphabeta:T=S``);
- `specs`: `parse_spec(text) -> PlayerSpec` (once, at the edge) and `make_player(spec, context)` for ``random``, ``greedy``, ``alphabeta:...``, ``PATH[@N]``,
  ``uhp:COMMAND`` and every kind added with `register_player_kind`;
- `uhp_engine`: an external UHP engine process as a player;
- `checkpoint`: a trained checkpoint as a player (raw policy or PUCT search; imports torch, so it is
  imported only when a checkpoint spec is resolved).

No gymnasium / pettingzoo / torch imports at this level.
"""

from hive_envs.players.alphabeta import AlphaBetaPlayer
from hive_envs.players.base import (
    BasePlayer,
    Player,
    PlayerFailure,
    SearchLimits,
    actions_by_choosing,
    batch_actions,
)
from hive_envs.players.builtin import GreedyPlayer, RandomPlayer
from hive_envs.players.specs import (
    PlayerContext,
    PlayerSpec,
    checkpoint_path,
    describe_specs,
    make_player,
    parse_spec,
    player_kinds,
    register_player_kind,
    split_checkpoint_spec,
)

__all__ = [
    "AlphaBetaPlayer",
    "BasePlayer",
    "GreedyPlayer",
    "Player",
    "PlayerContext",
    "PlayerFailure",
    "PlayerSpec",
    "RandomPlayer",
    "SearchLimits",
    "actions_by_choosing",
    "batch_actions",
    "checkpoint_path",
    "describe_specs",
    "make_player",
    "parse_spec",
    "player_kinds",
    "register_player_kind",
    "split_checkpoint_spec",
]
