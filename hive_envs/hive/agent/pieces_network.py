"""``hive_pieces``: a network over the rows of Hive's piece observation (``observation="pieces"``).

One token per tile row and one for the global row (`hive_envs.hive.piece_layout`); no grid. Each
layer passes messages along the board's own edges (the six neighbour columns, the tile beneath and
the one on top, each edge type its own weights), then lets every token attend to every other (a
pre-norm transformer block: the Queens, the pieces in hand and the global row are one step from
everything). Only the tiles' relations are computed, so a position costs the same however the hive
lies in the frame.

Actions are scored from the tokens, never by a dense layer over the 12,673 ids: action ``slot * C^2 +
cell`` moves or places the tile of row ``slot`` onto frame cell ``cell``, whose ``(q, r)`` is the
observation's own coordinate (`hive_envs.hive.piece_encoding.action_table`). The destination's
embedding sums, per direction, a projection of the top tile beside it (and of the tile on it, for a
climb), through a small MLP; the logit is the tile's query times that embedding plus a bias of each.
The pass logit and the value read the mean of the tile tokens and the global token.

Two forms, the same numbers (a test compares them):

- ``forward(observation)``: the logits of every action id (B, A) and the value (B,): what the players,
  the arena and the generic trainers read. The destination embeddings are computed once per cell.
- ``listed_policy(observation, actions)``: the logits of the listed action ids only (B, K; ids equal
  to A are padding) and the value: what PPO's rollouts and updates use (`hive_envs.agents.networks.action_lists`
  turns an action mask into such lists), ~60 entries a position instead of 12,673.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn
from torch.nn import functional as F

from hive_envs.agents.networks import LegalActionNetwork
from hive_envs.hive import piece_layout as L

NEIGHBOUR_STEPS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
"""(dq, dr) of the neighbour columns' directions (NE E SE SW W NW), in the observation's coordinates."""
EDGE_COLUMNS = (*range(L.P_NEIGHBOURS, L.P_NEIGHBOURS + 6), L.P_UNDER, L.P_ABOVE)
"""The columns naming another tile's row: the messages' edge types."""
COUNT_SCALE = 100.0
"""The global row's counters (turns, plies, legal actions) are read divided by this."""


class PieceBlock(nn.Module):
    """Messages along the edges, then a pre-norm attention block. One projection serves every edge;
    each edge type adds its own learned vector, so a token learns how many neighbours it has on each
    side and who they are, at the cost of one ``W x W`` product (per-type projections cost 8)."""

    def __init__(self, width: int, heads: int):
        super().__init__()
        self.message = nn.Linear(width, width, bias=False)
        self.edge_types = nn.Linear(len(EDGE_COLUMNS), width, bias=False)
        self.message_norm = nn.LayerNorm(width)
        self.attention_norm = nn.LayerNorm(width)
        if width % heads:
            raise ValueError(f"network 'hive_pieces': width {width} must be a multiple of heads {heads}")
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.attended = nn.Linear(width, width)
        self.mlp_norm = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 2 * width), nn.ReLU(), nn.Linear(2 * width, width))

    def forward(self, x: torch.Tensor, adjacency: torch.Tensor, edge_counts: torch.Tensor) -> torch.Tensor:
        """``x`` (B, R, W); ``adjacency`` (B, R, R) float: entry (i, j) is 1 where tile j is at the
        other end of one of tile i's edges; ``edge_counts`` (B, R, E): which of its edges tile i has."""
        messages = adjacency @ self.message(self.message_norm(x)) + self.edge_types(edge_counts)
        x = x + F.relu(messages)
        x = x + self.attend(self.attention_norm(x))
        return x + self.mlp(self.mlp_norm(x))

    def attend(self, x: torch.Tensor) -> torch.Tensor:
        """Multi-head self-attention written out: for ~24 tokens two batched products beat the fused
        kernels, whose per-call setup dominates at this size on the CPU."""
        batch, rows, width = x.shape
        q, k, v = self.qkv(x).view(batch, rows, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        weights = torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)
        return self.attended((weights @ v).transpose(1, 2).reshape(batch, rows, width))


def edge_matrix(edges: torch.Tensor, rows: int) -> torch.Tensor:
    """(B, R, R) float of the edges (B, R', E) (each the other end's row, -1 for none; R' <= R): one
    matrix product then sums every token's messages (an index per edge is slower on the CPU, whose
    scatter-add backward dominates a gather's cost)."""
    batch, tiles, _ = edges.shape
    matrix = torch.zeros(batch, rows, rows + 1, device=edges.device)
    matrix[:, :tiles].scatter_(2, torch.where(edges >= 0, edges, rows), 1.0)
    return matrix[..., :-1]


class HivePiecesPolicy(nn.Module):
    """The ``hive_pieces`` network (module docstring). ``reads_action_lists``: the trainers give it the
    legal actions as lists (`hive_envs.agents.networks.action_lists`) rather than rule features."""

    reads_action_lists = True
    cell_neighbours: torch.Tensor  # buffers (register_buffer below)
    direction_ids: torch.Tensor

    def __init__(
        self, observation_shape: tuple[int, ...], num_actions: int, width: int, layers: int, heads: int
    ):
        super().__init__()
        if len(observation_shape) != 2 or observation_shape[1] != L.FIELDS or observation_shape[0] % 2 != 1:
            raise ValueError(
                f"network 'hive_pieces' needs Hive's piece observation (2N + 1, {L.FIELDS}) "
                f"(observation='pieces'), got shape {tuple(observation_shape)}"
            )
        self.tiles = observation_shape[0] - 1
        area = (num_actions - 1) // self.tiles
        self.grid = round(area**0.5)
        if self.tiles * self.grid**2 + 1 != num_actions:
            raise ValueError(
                f"network 'hive_pieces' needs num_actions = 2N * C^2 + 1; got {num_actions} for {self.tiles} tiles"
            )
        self.num_actions = num_actions
        self.register_buffer("cell_neighbours", self._cell_neighbours(), persistent=False)
        self.register_buffer("direction_ids", torch.arange(7), persistent=False)
        self.row_embedding = nn.Embedding(self.tiles + 1, width)
        self.tile_inputs = nn.Linear(12, width)
        self.global_inputs = nn.Linear(L.FIELDS, width)
        self.blocks = nn.ModuleList([PieceBlock(width, heads) for _ in range(layers)])
        self.final_norm = nn.LayerNorm(width)
        self.query = nn.Linear(width, width)  # a tile as the one that moves
        self.beside = nn.Linear(width, width, bias=False)  # a tile as the one beside the destination
        self.directions = nn.Linear(width, 7, bias=False)  # a moving tile's wish for a neighbour per side
        self.tile_bias = nn.Linear(width, 1)
        self.pass_head = nn.Linear(width, 1)
        self.value_head = nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 1))
        for layer in (self.query, self.directions, self.tile_bias):  # near-uniform play at the start
            nn.init.normal_(layer.weight, std=0.01)

    def _cell_neighbours(self) -> torch.Tensor:
        """(C^2, 7): each frame cell's six neighbour cells, then the cell itself."""
        grid = self.grid
        cells = torch.arange(grid * grid)
        fq, fr = cells // grid, cells % grid
        steps = [*NEIGHBOUR_STEPS, (0, 0)]
        return torch.stack([((fq + dq) % grid) * grid + (fr + dr) % grid for dq, dr in steps], dim=1)

    # ------------------------------------------------------------------ the tokens
    def encode(self, observation: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(tokens (B, R + 1, W) after the blocks, each tile's frame cell (B, R) with C^2 for a tile
        in hand or covered, the pooled summary (B, W))."""
        obs = observation.long()
        tiles, grid = self.tiles, self.grid
        rows = obs[:, :tiles]
        placed = rows[..., L.P_PLACED] > 0
        q, r = rows[..., L.P_Q], rows[..., L.P_R]
        x = self.row_embedding.weight[:tiles] + self.tile_inputs(self._tile_scalars(rows, placed, q, r))
        global_token = self.row_embedding.weight[tiles] + self.global_inputs(
            self._global_scalars(obs[:, tiles])
        )
        x = torch.cat([x, global_token.unsqueeze(1)], dim=1)
        edges = rows[..., list(EDGE_COLUMNS)]
        adjacency = edge_matrix(edges, tiles + 1)  # the global row: no edges
        edge_counts = F.pad((edges >= 0).float(), (0, 0, 0, 1))
        for block in self.blocks:
            x = block(x, adjacency, edge_counts)
        x = self.final_norm(x)
        on_top = placed & (rows[..., L.P_ABOVE] < 0)
        cell = ((q + grid // 2) % grid) * grid + (r + grid // 2) % grid
        cell = torch.where(on_top, cell, grid * grid)
        pooled = x[:, :tiles].mean(dim=1) + x[:, tiles]
        return x, cell, pooled

    def _tile_scalars(self, rows, placed, q, r) -> torch.Tensor:
        """Per tile: its flags, height, position and hex distance to each Queen (0 where not placed)."""
        own_queen, opp_queen = rows[:, 0], rows[:, self.tiles // 2]
        parts = [placed.float()]
        for column in (L.P_COLOUR, L.P_PINNED, L.P_MOVABLE, L.P_LAST_MOVED):
            parts.append(rows[..., column].float())
        parts.append(rows[..., L.P_HEIGHT].float() / 2)
        parts += [q.float() / self.grid, r.float() / self.grid]
        for queen in (own_queen, opp_queen):
            dq, dr = q - queen[:, L.P_Q : L.P_Q + 1], r - queen[:, L.P_R : L.P_R + 1]
            distance = (dq.abs() + dr.abs() + (dq + dr).abs()).float() / 2
            both = placed & (queen[:, L.P_PLACED : L.P_PLACED + 1] > 0)
            parts += [both.float(), torch.where(both, distance / 4, 0.0)]
        return torch.stack(parts, dim=-1)

    @staticmethod
    def _global_scalars(row: torch.Tensor) -> torch.Tensor:
        values = row.float().clone()
        counters = [L.G_TURNS_OWN, L.G_TURNS_OPP, L.G_PLY, L.G_PLIES_LEFT, L.G_LEGAL_ACTIONS]
        values[:, counters] = values[:, counters] / COUNT_SCALE
        values[:, [L.G_QUEEN_NEIGHBOURS_OWN, L.G_QUEEN_NEIGHBOURS_OPP]] /= 6
        values[:, [L.G_IN_HAND_OWN, L.G_IN_HAND_OPP]] /= 11
        return values

    def _tile_at(self, cell: torch.Tensor) -> torch.Tensor:
        """(B, C^2 + 1): the row of the top tile on each frame cell, 2N (no tile) elsewhere."""
        batch, area = cell.shape[0], self.grid * self.grid
        at = cell.new_full((batch, area + 1), self.tiles)
        at.scatter_(1, cell, torch.arange(self.tiles, device=cell.device).expand(batch, -1))
        at[:, area] = self.tiles  # where the tiles off the board were written
        return at

    def _pair_scores(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(the score of tile i's move beside tile t (B, 2N, 2N + 1), column 2N for no tile; the score
        of tile i's move with a tile on its destination's side k (B, 2N, 7), k = 6: on the destination
        itself), every tile's bias folded into the latter."""
        tiles = x[:, : self.tiles]
        query = self.query(tiles)
        beside = F.pad(self.beside(tiles), (0, 0, 0, 1))  # the last row: no tile
        sides = self.directions(query) + self.tile_bias(tiles) / len(self.direction_ids)
        return query @ beside.transpose(1, 2), sides

    def _move_logits(self, x: torch.Tensor, cell: torch.Tensor, slot: torch.Tensor, target: torch.Tensor):
        """(B, K) logits of moving (or placing) the tiles of rows ``slot`` (B, K) onto the frame cells
        ``target`` (B, K): over the destination's seven sides (its six neighbours and itself), the
        pair score of the tile with the top tile there and, where there is one, that side's score."""
        batch, directions = x.shape[0], len(self.direction_ids)
        pairs, sides = self._pair_scores(x)
        around = self.cell_neighbours[target].view(batch, -1)  # (B, K * 7)
        beside = self._tile_at(cell).gather(1, around).view(*target.shape, directions)  # (B, K, 7)
        row = torch.arange(batch, device=x.device).view(batch, 1, 1) * self.tiles + slot.unsqueeze(-1)
        pair = pairs.reshape(-1).index_select(0, (row * (self.tiles + 1) + beside).view(-1))
        side = sides.reshape(-1).index_select(0, (row * directions + self.direction_ids).view(-1))
        present = (beside < self.tiles).view(-1)
        return (pair + side * present).view(*beside.shape).sum(dim=-1)

    def _logits(self, x, cell, pooled, actions: torch.Tensor) -> torch.Tensor:
        area = self.grid * self.grid
        is_move = actions < self.num_actions - 1
        slot = torch.where(is_move, actions // area, 0)
        target = torch.where(is_move, actions % area, 0)
        return torch.where(is_move, self._move_logits(x, cell, slot, target), self.pass_head(pooled))

    def listed_policy(
        self, observation: torch.Tensor, actions: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits (B, K) of the listed action ids, value (B,)); ids equal to A (padding) get the pass logit,
        which the caller masks."""
        x, cell, pooled = self.encode(observation)
        return self._logits(x, cell, pooled, actions), self.value_head(pooled).squeeze(-1)

    def legal_policy(self, observation: torch.Tensor, listed: tuple[torch.Tensor, ...]):
        """`listed_policy` of the trainers' action lists (`hive_envs.agents.networks.action_lists`)."""
        return self.listed_policy(observation, listed[0])

    legal_mask = staticmethod(LegalActionNetwork.legal_mask)

    def forward(self, observation: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Every action's logit: `_move_logits` of every (tile, cell), laid out as the action ids."""
        x, cell, pooled = self.encode(observation)
        batch, directions = x.shape[0], len(self.direction_ids)
        pairs, sides = self._pair_scores(x)  # (B, 2N, 2N + 1), (B, 2N, 7)
        beside = self._tile_at(cell).index_select(1, self.cell_neighbours.view(-1))  # (B, C^2 * 7)
        pair = pairs.gather(2, beside.unsqueeze(1).expand(-1, self.tiles, -1))  # (B, 2N, C^2 * 7)
        present = (beside < self.tiles).view(batch, 1, -1, directions).float()
        moves = (pair.view(batch, self.tiles, -1, directions) + sides.unsqueeze(2) * present).sum(-1)
        logits = torch.cat([moves.reshape(batch, -1), self.pass_head(pooled)], dim=1)
        return logits, self.value_head(pooled).squeeze(-1)


def build(spec: dict[str, Any], observation_shape: tuple[int, ...], num_actions: int) -> HivePiecesPolicy:
    """The ``hive_pieces`` network of a spec ``{"kind": "hive_pieces", "width", "layers", "heads"}``."""
    return HivePiecesPolicy(
        tuple(observation_shape), num_actions, int(spec["width"]), int(spec["layers"]), int(spec["heads"])
    )
