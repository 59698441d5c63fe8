"""Policy-value networks every game can use, and the base of a game's own (`LegalActionNetwork`).

Every network maps a batch of observations (uint8/bool planes from the env, as float) to
`(logits, value)`: `logits` has one entry per action of the env's `Discrete` space, `value`
is the expected final reward of the player to move (the observation is always from that
player's view, so one network serves both seats).

- `mlp` (`MLPPolicy`): flattened observation -> hidden layers -> policy and value heads.
- `gridconv` (`GridConvPolicy`): for a square-grid board (PettingZoo's classic boards: connect four,
  Go, chess planes), 3x3 convolutions with zero padding and residual blocks, then policy and value
  heads over the whole board (a 1x1 convolution, flattened, to every action; pooled for the value).
- `hexconv` (`HexConvPolicy`): for planes `(C, H, W)` on a hex torus in axial coordinates, with
  actions laid out as `action = slot * H * W + cell` (+ one trailing pass action), as a game that
  places and moves tiles on hex cells lays them out (Hive's planes). 3x3 convolutions with circular
  padding (the frame is a torus) whose two corner taps that are not hex neighbours are zeroed,
  residual blocks, then a policy head aligned with that layout: a 1x1 convolution gives one logit
  per (tile slot, destination cell), the pass logit and the value come from pooled features.

A game's own kinds (its definition's ``agents.networks``: Hive's ``hive_lookahead`` in
`hive_envs.hive.agent.network`, Hoyito's ``hoyito_lookahead`` in `hive_envs.hoyito.agent.network`)
build on these trunks. A network is described by a plain dict (`NetworkSpec`: its ``kind`` and that
kind's entries) saved in every checkpoint, so a checkpoint rebuilds its network without the training
config (`hive_envs.agents.network_kinds.build_network`).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple, cast

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from .sparse_ops import weighted_bag_sum

NetworkSpec = dict[str, Any]


class MLPPolicy(nn.Module):
    def __init__(self, observation_shape: tuple[int, ...], num_actions: int, hidden_sizes: list[int]):
        super().__init__()
        layers: list[nn.Module] = []
        width = int(math.prod(observation_shape))
        for size in hidden_sizes:
            layers += [nn.Linear(width, size), nn.ReLU()]
            width = size
        self.trunk = nn.Sequential(nn.Flatten(), *layers)
        self.policy_head = nn.Linear(width, num_actions)
        self.value_head = nn.Linear(width, 1)
        # Small policy init: near-uniform play at the start (as CleanRL's 0.01 gain).
        nn.init.orthogonal_(self.policy_head.weight, gain=0.01)
        nn.init.zeros_(self.policy_head.bias)

    def forward(self, observation: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.trunk(observation.float())
        return self.policy_head(features), self.value_head(features).squeeze(-1)


class LegalActionNetwork(nn.Module):
    """A network with a legal-action form (training uses it when present): ``rule_features(obs)``
    gives (actions (B, K) int64, features (B, K, F) whose feature 0 is 1 for a legal action and 0
    for padding, position (B, G)), computed once per rollout since they depend on the observation
    only; ``legal_policy(obs, rule_features)`` gives (logits (B, K), value (B,))."""

    @staticmethod
    def legal_mask(rule_features: tuple[torch.Tensor, ...]) -> torch.Tensor:
        """(B, K) bool: which of the K entries of each row are legal actions (not padding)."""
        return rule_features[1][..., 0] > 0

    def check_rule_features(self) -> None:
        if self.feature_set != 2:
            raise ValueError(f"the rule needs feature set 2, this network has {self.feature_set}")


def action_lists(mask: np.ndarray, device: torch.device | str = "cpu") -> tuple[torch.Tensor, ...]:
    """The legal actions of each row of a (B, A) 0/1 mask in the form of a legal-action network's rule
    features, for a network that reads action lists (``reads_action_lists``: it scores listed ids
    from the observation alone): (ids (B, K) int64 ascending, padded with A; (B, K, 1) float, 1 for a
    listed id; an empty (B, 0) position), K the most any row has.

    Found in numpy over the mask's bytes read as bools: ten times the speed of a torch ``nonzero``
    on int8, which a rollout pays at every ply."""
    mask = np.ascontiguousarray(mask)
    batch, num_actions = mask.shape
    flat = np.flatnonzero(mask.view(bool) if mask.dtype.itemsize == 1 else mask)
    rows, ids = np.divmod(flat, num_actions)
    counts = np.bincount(rows, minlength=batch)
    width = max(int(counts.max(initial=0)), 1)
    out = np.full((batch, width), num_actions, dtype=np.int64)
    out[rows, np.arange(len(flat)) - (np.cumsum(counts) - counts)[rows]] = ids
    return listed_features(out, num_actions, device)


def listed_features(ids: np.ndarray, num_actions: int, device) -> tuple[torch.Tensor, ...]:
    """Padded action ids (B, K) (padding ``num_actions``) as a legal-action network's rule features:
    (ids int64, (B, K, 1) float flags, 1 for a listed id, an empty (B, 0) position)."""
    listed = torch.as_tensor(ids, device=device)
    flags = (listed < num_actions).float().unsqueeze(-1)
    return listed, flags, flags.new_zeros(len(ids), 0)


SPARSE_SHARE = 0.1
"""`HexConv.convolve_planes` goes the sparse way while at most this share of the entries of the
planes that vary are non-zero (a Hive observation: ~40 of ~14,000), else the dense way."""


BYTES_PER_WORD = 8


class PlaneEntries(NamedTuple):
    """Observation planes (B, C, H, W) held as what they contain (`plane_entries` makes them):
    the planes that hold one number in every row (``constant`` (C,)) and that number (``corner``
    (B, C), each plane's first cell), and the non-zero entries of the other planes (``rows``,
    ``plane``, ``cell`` = r * W + q, ``values`` float), in row order. The trunk without blocks
    reads them as it reads the planes (`HexConvPolicy.action_logits`)."""

    shape: tuple[int, int, int, int]
    constant: torch.Tensor
    corner: torch.Tensor
    rows: torch.Tensor
    plane: torch.Tensor
    cell: torch.Tensor
    values: torch.Tensor

    def take(self, index: torch.Tensor) -> PlaneEntries:
        """The rows ``index`` (1-D, as ``planes[index]``): the PPO update's minibatches are taken
        from the rollout's entries, found once, instead of scanning 12 million bytes each."""
        counts = torch.bincount(self.rows, minlength=self.shape[0])
        starts = torch.cumsum(counts, dim=0) - counts
        taken = counts[index]
        new_rows = torch.repeat_interleave(torch.arange(len(index), device=index.device), taken)
        first = torch.cumsum(taken, dim=0) - taken  # where each taken row begins among the taken
        at = starts[index][new_rows] + torch.arange(len(new_rows), device=index.device) - first[new_rows]
        return PlaneEntries(
            (len(index), *self.shape[1:]),
            self.constant,
            self.corner.index_select(0, index),
            new_rows,
            self.plane[at],
            self.cell[at],
            self.values[at],
        )


def plane_entries(planes: torch.Tensor) -> PlaneEntries | None:
    """The planes (B, C, H, W) as `PlaneEntries`; None when the entries off the constant planes are
    more than `SPARSE_SHARE` of their cells (for byte planes: the words holding them, of their
    words), or the batch is empty.

    Byte planes (uint8 or bool, as the envs give them) are read as 8-byte words: the scans for
    constant planes and non-zero entries go through 1/8 of the elements (a Hive minibatch of 512
    observations is 12 million bytes, ~40 of them non-zero per position off the constant planes).
    """
    batch, channels, height, width = planes.shape
    area = height * width
    if batch == 0:
        return None
    corner = planes[:, :, 0, 0]
    if planes.dtype in (torch.uint8, torch.bool) and area % BYTES_PER_WORD == 0:
        words = planes.contiguous().view(torch.uint8).reshape(batch, channels, area).view(torch.int64)
        corner_word = corner.view(torch.uint8).to(torch.int64) * 0x0101010101010101  # the byte 8 times
        constant = (words == corner_word.unsqueeze(2)).all(dim=2).all(dim=0)
        varying = torch.nonzero(~constant).squeeze(1)
        rows, plane, word = torch.nonzero(words[:, varying], as_tuple=True)
        if rows.numel() * BYTES_PER_WORD > SPARSE_SHARE * batch * len(varying) * area:
            return None
        word_bytes = words[rows, varying[plane], word].view(torch.uint8).view(-1, BYTES_PER_WORD)
        entry, byte = torch.nonzero(word_bytes, as_tuple=True)
        values = word_bytes[entry, byte].float()
        cell = word[entry] * BYTES_PER_WORD + byte
        return PlaneEntries(
            (batch, channels, height, width),
            constant,
            corner,
            rows[entry],
            varying[plane[entry]],
            cell,
            values,
        )
    constant = (planes == planes[:, :, :1, :1]).flatten(2).all(dim=2).all(dim=0)
    varying = torch.nonzero(~constant).squeeze(1)
    sub = planes[:, varying]
    rows, plane, r, q = torch.nonzero(sub, as_tuple=True)
    if rows.numel() > SPARSE_SHARE * sub.numel():
        return None
    values = sub[rows, plane, r, q].float()
    return PlaneEntries(
        (batch, channels, height, width), constant, corner, rows, varying[plane], r * width + q, values
    )


class HexConv(nn.Conv2d):
    """3x3 convolution over axial hex coordinates with circular (torus) padding.

    In axial coordinates (q along W, r along H) the six neighbours of (r, q) are
    (r, q±1), (r-1, q), (r-1, q+1), (r+1, q-1), (r+1, q): the 3x3 window minus the corners
    (r-1, q-1) and (r+1, q+1), which are masked to zero.
    """

    hex_mask: torch.Tensor  # a buffer (register_buffer below)

    def __init__(self, in_channels: int, out_channels: int):
        super().__init__(in_channels, out_channels, kernel_size=3)  # padding done in forward
        hex_mask = torch.ones(1, 1, 3, 3)
        hex_mask[..., 0, 0] = 0.0
        hex_mask[..., 2, 2] = 0.0
        self.register_buffer("hex_mask", hex_mask, persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.pad(x, (1, 1, 1, 1), mode="circular")
        return F.conv2d(x, self.weight * self.hex_mask, self.bias)

    def convolve_planes(self, planes: torch.Tensor) -> torch.Tensor:
        """``forward`` of observation planes (B, C, H, W) of any dtype, the same values (to float
        rounding) at a fraction of the cost when they are sparse; the result is channels-last.

        Why: a Hive observation is ~40 non-zero entries (the tiles, the top and last-moved marks) on
        25 planes of 24 x 24, plus 17 planes that hold one number each (reserves, turn, ply), and
        the dense convolution of it multiplies ~1.7 million zeros per position. `sparse_parts`
        gives what differs from cell to cell; here it is laid over each row's common value.
        """
        batch, _, height, width = planes.shape
        parts = self.sparse_parts(planes)
        if parts is None:
            return self(planes.float()).contiguous(memory_format=torch.channels_last)
        everywhere, cells, values = parts
        out = everywhere.repeat_interleave(height * width, dim=0).index_copy(0, cells, values)
        return out.view(batch, height, width, -1).permute(0, 3, 1, 2)

    def sparse_parts(self, planes: torch.Tensor | PlaneEntries) -> tuple[torch.Tensor, ...] | None:
        """The convolution of sparse planes (B, C, H, W), or of their `PlaneEntries`, as (everywhere
        (B, O): the output at every cell no non-zero entry reaches, cells (U,): the flat ids
        ``row * H * W + cell`` of the cells some entry reaches, sorted, values (U, O): the output
        there); None where `plane_entries` finds the planes not sparse or the batch empty.

        A plane that is constant in every row adds value x (the sum of its kernel) to every cell;
        each non-zero entry of the other planes adds value x its kernel tap to each of the seven
        cells it reaches.
        """
        _, _, height, width = planes.shape
        entries = planes if isinstance(planes, PlaneEntries) else plane_entries(planes)
        if entries is None:
            return None
        _, constant, corner, rows, plane, at, values = entries
        r, q = torch.div(at, width, rounding_mode="floor"), at % width
        weight = self.weight * self.hex_mask  # (O, C, 3, 3)
        bias = cast(torch.Tensor, self.bias)  # Conv2d(bias=True): a tensor
        everywhere = corner[:, constant].float() @ weight[:, constant].sum(dim=(2, 3)).T + bias
        taps = torch.nonzero(self.hex_mask[0, 0])  # the 7 (row, column) taps the mask keeps
        tap_row, tap_col = taps[:, 0:1], taps[:, 1:2]  # (7, 1): every entry reaches 7 cells
        cell = rows * (height * width) + (r - tap_row + 1) % height * width + (q - tap_col + 1) % width
        tap = plane * 9 + tap_row * 3 + tap_col  # (7, E): the row of `table` that weighs it
        # Each reached cell sums value x tap weight over the (entry, tap) pairs that reach it: a
        # weighted embedding bag of the taps, the pairs sorted by cell.
        by_cell, order = torch.sort(cell.reshape(-1))
        cells, counts = torch.unique_consecutive(by_cell, return_counts=True)
        table = weight.permute(1, 2, 3, 0).reshape(-1, weight.shape[0])  # (C * 9, O)
        summed = weighted_bag_sum(
            table,
            tap.reshape(-1)[order],
            torch.cumsum(counts, dim=0) - counts,
            values.expand(len(taps), -1).reshape(-1)[order],
        )
        return everywhere, cells, summed + everywhere[cells // (height * width)]


class ResidualBlock(nn.Module):
    """Two 3x3 convolutions (``make_conv(in, out)``: `HexConv` or `square_conv`) and a skip."""

    def __init__(self, channels: int, make_conv=HexConv):
        super().__init__()
        self.conv1 = make_conv(channels, channels)
        self.conv2 = make_conv(channels, channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(x + self.conv2(F.relu(self.conv1(x))))


def square_conv(in_channels: int, out_channels: int) -> nn.Conv2d:
    """A 3x3 convolution of a square grid, zero-padded to keep the board's size."""
    return nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1)


class HexConvPolicy(nn.Module):
    def __init__(self, observation_shape: tuple[int, ...], num_actions: int, channels: int, blocks: int):
        super().__init__()
        if len(observation_shape) != 3:
            raise ValueError(f"network 'hexconv' needs (C, H, W) observations, got shape {observation_shape}")
        in_channels, height, width = observation_shape
        cells = height * width
        if (num_actions - 1) % cells != 0:
            raise ValueError(
                f"network 'hexconv' needs num_actions = slots * H * W + 1 (pass); got {num_actions} "
                f"actions for a {height}x{width} grid"
            )
        self.slots = (num_actions - 1) // cells
        self.stem = HexConv(in_channels, channels)
        self.blocks = nn.Sequential(*[ResidualBlock(channels) for _ in range(blocks)])
        self.slot_head = nn.Conv2d(channels, self.slots, kernel_size=1)
        self.pass_head = nn.Linear(channels, 1)
        self.value_head = nn.Sequential(nn.Linear(channels, channels), nn.ReLU(), nn.Linear(channels, 1))
        nn.init.normal_(self.slot_head.weight, std=0.01)
        nn.init.zeros_(self.slot_head.bias)  # type: ignore[arg-type]  # Linear(bias=True): a tensor

    def trunk(self, observation: torch.Tensor) -> torch.Tensor:
        """(B, channels, H, W) features of the observations (channels-last in memory)."""
        return self.blocks(F.relu(self.stem.convolve_planes(observation)))

    def forward(self, observation: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.trunk(observation)
        pooled = x.mean(dim=(2, 3))
        slot_logits = self.slot_head(x).flatten(1)  # (B, slots * H * W), slot-major like the actions
        logits = torch.cat([slot_logits, self.pass_head(pooled)], dim=1)
        return logits, self.value_head(pooled).squeeze(-1)

    def action_logits(
        self, observation: torch.Tensor | PlaneEntries, actions: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(the logits ``forward`` gives at ``actions`` (B, K), value (B,)), computed at those actions
        only: a legal-action network needs ~60 of the 12,673 (the slot head is a 1x1 convolution, so
        the logit of (slot, cell) is that slot's weights times the features at that cell)."""
        area = observation.shape[2] * observation.shape[3]
        is_pass = actions >= self.slots * area
        slot = torch.where(is_pass, 0, actions // area)
        cell = torch.where(is_pass, 0, actions % area)
        shallow = self.shallow_features(observation, cell) if len(self.blocks) == 0 else None
        if shallow is None:
            if isinstance(observation, PlaneEntries):
                raise ValueError("a trunk with residual blocks reads observation planes, not PlaneEntries")
            x = self.trunk(observation)
            batch, channels = x.shape[:2]
            pooled = x.mean(dim=(2, 3))
            cells = x.permute(0, 2, 3, 1).reshape(batch, -1, channels)  # (B, H * W, channels): a view
            at = cells.gather(1, cell.unsqueeze(-1).expand(-1, -1, channels))
        else:
            at, pooled = shallow
            channels = at.shape[-1]
        weight = self.slot_head.weight.view(self.slots, channels)
        bias = cast(torch.Tensor, self.slot_head.bias)  # Conv2d(bias=True): a tensor
        logits = (at * weight[slot]).sum(dim=-1) + bias[slot]
        logits = torch.where(is_pass, self.pass_head(pooled), logits)
        return logits, self.value_head(pooled).squeeze(-1)

    def shallow_features(
        self, observation: torch.Tensor | PlaneEntries, cell: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor] | None:
        """A trunk without residual blocks (ReLU of the stem) at ``cell`` (B, K) and its mean over
        the grid (B, channels), computed at the cells the observation's entries reach only; None
        when the observation is not sparse (then the trunk is computed whole).

        Why: without blocks, every cell no entry reaches holds its row's common value, so the mean
        is the reached cells' sum plus the others' count times that value, and a Hive position
        reaches ~150 of the 576 cells: the update of ``conv_blocks: 0`` networks need not build
        and differentiate the (B, channels, 24, 24) map.
        """
        parts = self.stem.sparse_parts(observation)
        if parts is None:
            return None
        everywhere, cells, values = (F.relu(parts[0]), parts[1], F.relu(parts[2]))
        if len(cells) == 0:  # empty boards: every cell holds its row's common value
            return everywhere.unsqueeze(1).expand(-1, cell.shape[1], -1), everywhere
        batch, area = observation.shape[0], observation.shape[2] * observation.shape[3]
        row_of = torch.div(cells, area, rounding_mode="floor")
        reached = torch.bincount(row_of, minlength=batch).unsqueeze(1)
        total = values.new_zeros(batch, values.shape[1]).index_add(0, row_of, values)
        pooled = (total + (area - reached) * everywhere) / area
        wanted = torch.arange(batch, device=cell.device).unsqueeze(1) * area + cell
        place = torch.searchsorted(cells, wanted).clamp(max=len(cells) - 1)
        found = (cells[place] == wanted).unsqueeze(-1)
        at = torch.where(found, values[place], everywhere.unsqueeze(1))
        return at, pooled


class GridConvPolicy(nn.Module):
    """The ``gridconv`` network (module docstring): observation (H, W, C) when ``channels_last``."""

    def __init__(
        self,
        observation_shape: tuple[int, ...],
        num_actions: int,
        channels: int,
        blocks: int,
        channels_last: bool,
    ):
        super().__init__()
        if len(observation_shape) != 3:
            raise ValueError(
                f"network 'gridconv' needs a board observation (3 dimensions), got {observation_shape}"
            )
        self.channels_last = channels_last
        planes, height, width = (
            (observation_shape[2], *observation_shape[:2]) if channels_last else observation_shape
        )
        self.stem = square_conv(planes, channels)
        self.blocks = nn.Sequential(*[ResidualBlock(channels, square_conv) for _ in range(blocks)])
        self.policy_conv = nn.Conv2d(channels, 2, kernel_size=1)
        self.policy_head = nn.Linear(2 * height * width, num_actions)
        self.value_head = nn.Sequential(nn.Linear(channels, channels), nn.ReLU(), nn.Linear(channels, 1))
        nn.init.orthogonal_(self.policy_head.weight, gain=0.01)  # near-uniform play at the start
        nn.init.zeros_(self.policy_head.bias)

    def forward(self, observation: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = observation.float()
        if self.channels_last:
            x = x.permute(0, 3, 1, 2)
        x = self.blocks(F.relu(self.stem(x)))
        logits = self.policy_head(F.relu(self.policy_conv(x)).flatten(1))
        return logits, self.value_head(x.mean(dim=(2, 3))).squeeze(-1)


def build_gridconv(spec: NetworkSpec, observation_shape: tuple[int, ...], num_actions: int) -> GridConvPolicy:
    """The ``gridconv`` of a spec ``{"kind": "gridconv", "channels": C, "blocks": B, "channels_last": bool}``."""
    return GridConvPolicy(
        tuple(observation_shape),
        num_actions,
        int(spec["channels"]),
        int(spec["blocks"]),
        bool(spec.get("channels_last", True)),
    )


def build_mlp(spec: NetworkSpec, observation_shape: tuple[int, ...], num_actions: int) -> MLPPolicy:
    """The ``mlp`` of a spec ``{"kind": "mlp", "hidden_sizes": [...]}``."""
    return MLPPolicy(tuple(observation_shape), num_actions, list(spec["hidden_sizes"]))


def build_hexconv(spec: NetworkSpec, observation_shape: tuple[int, ...], num_actions: int) -> HexConvPolicy:
    """The ``hexconv`` of a spec ``{"kind": "hexconv", "channels": C, "blocks": B}``."""
    return HexConvPolicy(tuple(observation_shape), num_actions, int(spec["channels"]), int(spec["blocks"]))
