"""Tiny untrained checkpoints for the play-time tests (random weights: behaviour is checked, not skill)."""

from __future__ import annotations

from hive_envs.agents import save_checkpoint
from hive_envs.agents.network_kinds import build_network


def tiny_hive_checkpoint(path, expansions: str = "", kind: str = "hive_lookahead"):
    """A random-weight Hive checkpoint; by default of the network the Hive configs train."""
    from hive_envs.hive.encoding import make_encoding

    enc = make_encoding(expansions)
    spec = {"kind": kind, "channels": 4, "blocks": 1}
    if kind == "hive_lookahead":
        spec["rules"] = {"expansions": expansions, "tournament_opening": True, "max_turns": 300}
    network = build_network(spec, enc.observation_shape, enc.num_actions)
    return save_checkpoint(
        path,
        {
            "game": "hive",
            "game_options": {"expansions": expansions},
            "encoding_version": "v0",
            "observation_shape": enc.observation_shape,
            "num_actions": enc.num_actions,
            "network": spec,
            "model": network.state_dict(),
            "global_step": 0,
            "update": 0,
        },
    )


def tiny_hoyito_checkpoint(path, holes_per_row: int = 6, **options):
    """A random-weight Hoyito MLP checkpoint; ``options``: its other game options (seeds_per_hole, ...)."""
    from hive_envs.hoyito.encoding import observation_size

    shape = (observation_size(holes_per_row),)
    spec = {"kind": "mlp", "hidden_sizes": [8]}
    network = build_network(spec, shape, holes_per_row)
    return save_checkpoint(
        path,
        {
            "game": "hoyito",
            "game_options": {"holes_per_row": holes_per_row, **options},
            "encoding_version": "v0",
            "observation_shape": shape,
            "num_actions": holes_per_row,
            "network": spec,
            "model": network.state_dict(),
            "global_step": 0,
            "update": 0,
        },
    )
