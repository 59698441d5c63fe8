"""Policy-value networks for the games of this package.

Every network maps a batch of observations (uint8/bool planes from the env, as float) to
`(logits, value)`: `logits` has one entry per action of the env's `Discrete` space, `value`
is the expected final reward of the player to move (the observation is always from that
player's view, so one network serves both seats).

- `mlp`: flattened observation -> hidden layers -> policy and value heads. Hoyito's
  observation is small; this is the default there (and a baseline for Hive).
- `hoyito_lookahead`: the mlp plus, for each action, two-ply rule features computed from the
  observation by the Hoyito engine's kernels (`hoyito_features.py`); a small network shared
  across actions turns each action's features into a logit added to the mlp's. The spec
  carries the rule options (`rules`) the features need and the feature set (`features`: 1, the
  two-ply features, or 2, plus an alpha-beta search of `search_depth` plies after each move; a
  spec without it is set 1, as every checkpoint written before set 2). `init_from_rule()` sets
  the heads to play the searched value (set 2). With `board_values: true` in the spec the
  network carries a table of learned board values (a buffer saved with its weights) that its
  search adds to the alpha-beta's evaluation (`set_board_values`).
- `hive_lookahead`: the hexconv network plus, for each legal action, two-ply rule features
  computed from the observation by the Hive engine's kernels (`hive_features.py`): a small
  network shared across actions turns each action's features into a logit added to the
  trunk's, and a DeepSets pooling of them (mean and max) plus position features feeds the
  value. The spec carries the game options (`rules`) the decoder needs and the feature set
  (`features`: 1, the Queen features, or 2, plus the alpha-beta evaluation after each move and
  the two-ply value; a spec without it is set 1, as every checkpoint written before set 2), and
  with set 2 optionally `search_depth` D >= 3: the two-ply value's columns then hold the alpha-beta
  player's D-ply root scores (`hive_features`).
  `init_from_rule()` sets the action and value heads to a hand-written rule over feature set 2
  (the two-ply value first), so that training starts from a player that already finishes
  games.
- `hexconv`: for Hive planes `(C, H, W)` on a hex torus in axial coordinates. 3x3 convolutions
  with circular padding (the frame is a torus) whose two corner taps that are not hex
  neighbours are zeroed, residual blocks, then a policy head aligned with the action layout
  `action = slot * H * W + cell` (+ one trailing pass action): a 1x1 convolution gives one
  logit per (tile slot, destination cell), the pass logit and the value come from pooled
  features.

A network is described by a plain dict (`NetworkSpec`) saved in every checkpoint, so a
checkpoint rebuilds its network without the training config.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple, cast

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from .sparse_ops import row_max, weighted_bag_sum

NetworkSpec = dict[str, Any]

NETWORK_KINDS = ("mlp", "hoyito_lookahead", "hexconv", "hive_lookahead")


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


HOYITO_RULE_WEIGHTS = {6: 16.0, 7: 8.0}
"""Feature-set-2 Hoyito action feature -> logit weight of `HoyitoLookaheadPolicy.init_from_rule`: the
searched value after the move (2 logits per counter), then a proven win (+8) or loss (-8)."""
HOYITO_RULE_VALUE_WEIGHT = 0.5
"""The initial value: this factor x the best searched value over the legal moves (feature 6)."""


class HoyitoLookaheadPolicy(LegalActionNetwork):
    """MLP over the counters plus per-action rule features (see the module doc and `hoyito_features`).

    Like `HiveLookaheadPolicy` it has a legal-action form: `rule_features(observation)` gives
    (actions (B, n): hole k where legal, else the padding index n; features (B, n, F); position
    (B, 0)), computed once per rollout by training (feature set 2 runs a search per move), and
    `legal_policy` scores them; `forward` gives the dense logits.
    """

    def __init__(
        self,
        observation_shape: tuple[int, ...],
        num_actions: int,
        hidden_sizes: list[int],
        rules: dict,
        feature_set: int = 1,
        search_depth: int | None = None,
        board_values: bool = False,
    ):
        """``board_values``: the network carries learned board values (a buffer, saved with the
        weights) that its features' search adds to the evaluation (`set_board_values`)."""
        super().__init__()
        from hive_envs.agents.hoyito_features import DEFAULT_SEARCH_DEPTH, HoyitoRuleFeatures
        from hive_envs.hoyito.search.alphabeta import BOARD_BUCKETS

        self.holes = num_actions
        if observation_shape != (2 * num_actions + 4,):
            raise ValueError(
                f"network 'hoyito_lookahead' needs Hoyito observations (2n+4,) with n actions; got "
                f"shape {observation_shape} and {num_actions} actions"
            )
        self.feature_set = feature_set
        self.extractor = HoyitoRuleFeatures(
            num_actions, int(rules["seeds_per_hole"]), int(rules["max_laps"]), int(rules["no_capture_limit"]),
            feature_set, DEFAULT_SEARCH_DEPTH if search_depth is None else search_depth,
        )  # fmt: skip
        if board_values:
            if feature_set != 2:
                raise ValueError("board values are used by the search of feature set 2 only")
            self.register_buffer(
                "board_values", torch.zeros((2 * num_actions, BOARD_BUCKETS), dtype=torch.int32)
            )
        features = self.extractor.features
        self.board = MLPPolicy(observation_shape, num_actions, hidden_sizes)
        width = 32
        self.action_net = nn.Sequential(nn.Linear(features, width), nn.ReLU(), nn.Linear(width, 1))
        self.value_net = nn.Sequential(
            nn.Linear(num_actions * features, width), nn.ReLU(), nn.Linear(width, 1)
        )

    @torch.no_grad()
    def init_from_rule(self) -> None:
        """Set the heads so that, before any training, the network plays `HOYITO_RULE_WEIGHTS` (the
        searched value after each move: an alpha-beta one ply deeper than the features' search) and
        values a position at `HOYITO_RULE_VALUE_WEIGHT` x its best legal move's searched value; the
        board MLP's policy and value heads start at zero. Units as in `HiveLookaheadPolicy`."""
        self.check_rule_features()
        first, last = cast(nn.Linear, self.action_net[0]), cast(nn.Linear, self.action_net[2])
        last.weight.zero_()
        last.bias.zero_()
        for unit, (feature, weight) in enumerate(HOYITO_RULE_WEIGHTS.items()):
            for sign, column in ((1.0, 2 * unit), (-1.0, 2 * unit + 1)):
                first.weight[column].zero_()
                first.weight[column, feature] = sign
                first.bias[column] = 0.0
                last.weight[0, column] = sign * weight
        # the value: ReLU units (+x and -x) of each legal move's feature 6 cannot take a max, so
        # the initial value reads the mean over the holes of (legal x searched value): close
        # enough to start from, training corrects it.
        value_first, value_last = cast(nn.Linear, self.value_net[0]), cast(nn.Linear, self.value_net[2])
        value_last.weight.zero_()
        value_last.bias.zero_()
        features = self.extractor.features
        for sign, unit in ((1.0, 0), (-1.0, 1)):
            value_first.weight[unit].zero_()
            for hole in range(self.holes):
                value_first.weight[unit, hole * features + 6] = sign / self.holes
            value_first.bias[unit] = 0.0
            value_last.weight[0, unit] = sign * HOYITO_RULE_VALUE_WEIGHT
        for head in (self.board.policy_head, self.board.value_head):
            head.weight.zero_()
            head.bias.zero_()

    def rule_value(self, rule_features: tuple[torch.Tensor, ...]) -> torch.Tensor:
        """(B,) the rule's value of each position: `HOYITO_RULE_VALUE_WEIGHT` x the best searched
        value over its legal moves (feature 6; the value head starts from the mean instead)."""
        self.check_rule_features()
        _, feats, _ = rule_features
        searched = feats[..., 6].masked_fill(~self.legal_mask(rule_features), -math.inf)
        return HOYITO_RULE_VALUE_WEIGHT * searched.amax(dim=1)

    def set_board_values(self, table: np.ndarray) -> None:
        """Set the learned board values (score units, shape (2n, `BOARD_BUCKETS`); the module doc of
        `hive_envs.hoyito.search.alphabeta`); refused for a network built without them."""
        buffer = self._buffers.get("board_values")
        if buffer is None:
            raise ValueError("this network has no board values (build it with board_values=True)")
        from hive_envs.hoyito.search.alphabeta import check_board_values

        table = check_board_values(table)
        if table.shape != tuple(buffer.shape):
            raise ValueError(f"board values of shape {tuple(buffer.shape)} expected, got {table.shape}")
        buffer.copy_(torch.as_tensor(table))

    def rule_features(self, observation: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """(actions (B, n), features (B, n, F), position (B, 0)) on the observation's device."""
        buffer = self._buffers.get("board_values")
        if buffer is not None:  # read at each call: loading weights replaces the buffer's values
            self.extractor.board_values = np.ascontiguousarray(buffer.cpu().numpy(), dtype=np.int32)
        features = self.extractor(observation.detach().float().cpu().numpy())
        holes = np.arange(self.holes, dtype=np.int64)
        actions = np.where(features[..., 0] > 0, holes, self.holes)
        position = np.zeros((features.shape[0], 0), dtype=np.float32)
        return tuple(torch.as_tensor(x, device=observation.device) for x in (actions, features, position))

    def legal_policy(
        self, observation: torch.Tensor, rule_features: tuple[torch.Tensor, ...]
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits (B, n) with 0 on illegal holes, value (B,)): entry k is hole k."""
        _, feats, _ = rule_features
        logits, value = self.board(observation)
        logits = (logits + self.action_net(feats).squeeze(-1)) * feats[..., 0]
        value = value + self.value_net(feats.flatten(1)).squeeze(-1)
        return logits, value

    def forward(
        self, observation: torch.Tensor, rule_features: tuple[torch.Tensor, ...] | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        return self.legal_policy(observation, rule_features or self.rule_features(observation))


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
    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = HexConv(channels, channels)
        self.conv2 = HexConv(channels, channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(x + self.conv2(F.relu(self.conv1(x))))


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


RULE_WEIGHTS = {12: 8.0, 11: 1.0, 4: 20.0, 5: -20.0}
"""Feature-set-2 action feature -> logit weight of `HiveLookaheadPolicy.init_from_rule`: the two-ply
value relative to the best move (a move 5 evaluation units below the best: -1), the evaluation
after the move to break its ties, then winning (+20) and losing (-20) at once."""
RULE_VALUE_FEATURE, RULE_VALUE_WEIGHT = 5, 0.25
"""The position feature (the best two-ply value, in units of 100, clipped to +-4) the initial value
is proportional to, and the factor."""


class HiveLookaheadPolicy(LegalActionNetwork):
    """Hex-convolution trunk plus per-action rule features (see the module doc and `hive_features`).

    The network scores the legal actions only: `legal_policy(observation, rule_features)` gives
    (B, K) logits over each row's K legal actions (the extractor's order) and the value;
    `forward` scatters them into the dense action layout like every other network. Training
    uses the legal form (K is ~100 where the layout has 12,673 actions) and computes
    `rule_features` once per rollout: they depend on the observation only, not on the weights.
    """

    def __init__(
        self,
        observation_shape: tuple[int, ...],
        num_actions: int,
        channels: int,
        blocks: int,
        rules: dict,
        feature_set: int = 1,
        search_depth: int | None = None,
    ):
        """``search_depth`` (feature set 2): the plies of the searched value in the features, None for
        the two-ply value (`hive_features.TWO_PLY`), 3 or more for the alpha-beta player's root scores."""
        super().__init__()
        from hive_envs.agents.hive_features import TWO_PLY, HiveRuleFeatures

        self.extractor = HiveRuleFeatures(
            str(rules["expansions"]), bool(rules["tournament_opening"]), rules["max_turns"], feature_set,
            TWO_PLY if search_depth is None else search_depth,
        )  # fmt: skip
        self.feature_set = feature_set
        # a deeper searched value costs a search per position (tens to hundreds of ms): a search by
        # time cannot bound one network call of it (`AgentPlayer.check_timed`)
        self.keeps_time_limits = not self.extractor.searches_deeper
        action_features, position_features = self.extractor.action_features, self.extractor.position_features
        if tuple(observation_shape) != self.extractor.encoding.observation_shape:
            raise ValueError(
                f"network 'hive_lookahead' for expansions {rules['expansions']!r} needs observations "
                f"{self.extractor.encoding.observation_shape}, got {tuple(observation_shape)}"
            )
        self.num_actions = num_actions
        self.board = HexConvPolicy(observation_shape, num_actions, channels, blocks)
        width = 64
        self.action_embed = nn.Sequential(nn.Linear(action_features, width), nn.ReLU())
        self.action_logit = nn.Linear(width, 1)
        self.value_net = nn.Sequential(
            nn.Linear(2 * width + position_features, width), nn.ReLU(), nn.Linear(width, 1)
        )

    @torch.no_grad()
    def init_from_rule(self) -> None:
        """Set the heads so that, before any training, the network plays `RULE_WEIGHTS` (a logit
        that is a weighted sum of feature set 2's action features) and values a position at
        `RULE_VALUE_WEIGHT` x its best two-ply value (position feature 5).

        Each weighted feature passes the embedding's ReLU as two units, +x and -x, whose logit
        weights are +w and -w; the other units keep their random input weights and get logit and
        value weights 0, so they add nothing until training moves them. The trunk's own logits
        (initialised at ~0.01) are left as they are.
        """
        self.check_rule_features()
        embed = cast(nn.Linear, self.action_embed[0])
        self.action_logit.weight.zero_()
        self.action_logit.bias.zero_()
        for unit, (feature, weight) in enumerate(RULE_WEIGHTS.items()):
            for sign, column in ((1.0, 2 * unit), (-1.0, 2 * unit + 1)):
                embed.weight[column].zero_()
                embed.weight[column, feature] = sign
                embed.bias[column] = 0.0
                self.action_logit.weight[0, column] = sign * weight
        first, last = cast(nn.Linear, self.value_net[0]), cast(nn.Linear, self.value_net[2])
        value_input = 2 * embed.out_features + RULE_VALUE_FEATURE  # the position features come last
        last.weight.zero_()
        last.bias.zero_()
        for sign, unit in ((1.0, 0), (-1.0, 1)):
            first.weight[unit].zero_()
            first.weight[unit, value_input] = sign
            first.bias[unit] = 0.0
            last.weight[0, unit] = sign * RULE_VALUE_WEIGHT
        board_value = cast(nn.Linear, self.board.value_head[-1])
        board_value.weight.zero_()
        board_value.bias.zero_()

    def rule_value(self, rule_features: tuple[torch.Tensor, ...]) -> torch.Tensor:
        """(B,) the rule's value of each position: `RULE_VALUE_WEIGHT` x its best two-ply value, the
        value `init_from_rule` starts the value head at."""
        self.check_rule_features()
        return RULE_VALUE_WEIGHT * rule_features[2][:, RULE_VALUE_FEATURE]

    def rule_features(self, observation: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """(actions (B, K) int64, features (B, K, F), position (B, G)) on the observation's device;
        padding entries have action index `num_actions` and all-zero features."""
        obs = observation.detach().to("cpu", torch.uint8).numpy()
        return tuple(torch.as_tensor(x, device=observation.device) for x in self.extractor(obs))

    def plane_entries(self, observation: torch.Tensor) -> PlaneEntries | None:
        """The observations as `PlaneEntries` where the trunk reads them (no residual blocks, sparse
        planes), else None: `legal_policy` then takes them (or rows of them) for the observations."""
        return plane_entries(observation) if len(self.board.blocks) == 0 else None

    def legal_policy(
        self, observation: torch.Tensor | PlaneEntries, rule_features: tuple[torch.Tensor, ...]
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits (B, K) over each row's legal actions, value (B,)); padding logits are 0."""
        actions, features, position = rule_features
        real = features[..., 0] > 0  # a legal action (feature 0 is 1), not padding
        trunk, value = self.board.action_logits(observation, actions.clamp(max=self.num_actions - 1))
        # The per-action part runs on the legal entries only (rows are padded to the widest).
        hidden = self.action_embed(features[real])  # (legal entries, width), >= 0 (ReLU)
        legal_logits = trunk[real] + self.action_logit(hidden).squeeze(-1)
        logits = torch.zeros_like(trunk).masked_scatter(real, legal_logits)  # padding logits: 0
        legal = real.sum(dim=1)  # the entries of a row are consecutive in `hidden`
        row = torch.repeat_interleave(torch.arange(len(real), device=real.device), legal)
        mean = hidden.new_zeros(len(real), hidden.shape[1]).index_add(0, row, hidden)
        mean = mean / legal.clamp(min=1).unsqueeze(1)
        # the gradient is shared among equal entries, as `amax` over the padded rows shares it
        peak = row_max(hidden, row, len(real))  # a row without legal entries: 0
        value = value + self.value_net(torch.cat([mean, peak, position], dim=1)).squeeze(-1)
        return logits, value

    def forward(
        self, observation: torch.Tensor, rule_features: tuple[torch.Tensor, ...] | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        rule_features = rule_features or self.rule_features(observation)
        logits, value = self.legal_policy(observation, rule_features)
        dense = logits.new_zeros(logits.shape[0], self.num_actions + 1)  # + a column for padding
        return dense.scatter(1, rule_features[0], logits)[:, :-1], value


def build_network(spec: NetworkSpec, observation_shape: tuple[int, ...], num_actions: int) -> nn.Module:
    """Build the network a spec describes: {"kind": "mlp", "hidden_sizes": [...]},
    {"kind": "hexconv", "channels": C, "blocks": B}, or one of those plus "rules" for the
    lookahead kinds."""
    kind = spec.get("kind")
    if kind == "mlp":
        return MLPPolicy(tuple(observation_shape), num_actions, list(spec["hidden_sizes"]))
    if kind == "hoyito_lookahead":
        return HoyitoLookaheadPolicy(
            tuple(observation_shape),
            num_actions,
            list(spec["hidden_sizes"]),
            dict(spec["rules"]),
            int(spec.get("features", 1)),
            spec.get("search_depth"),
            bool(spec.get("board_values", False)),
        )
    if kind == "hive_lookahead":
        return HiveLookaheadPolicy(
            tuple(observation_shape),
            num_actions,
            int(spec["channels"]),
            int(spec["blocks"]),
            dict(spec["rules"]),
            int(spec.get("features", 1)),
            spec.get("search_depth"),
        )
    if kind == "hexconv":
        return HexConvPolicy(
            tuple(observation_shape), num_actions, int(spec["channels"]), int(spec["blocks"])
        )
    raise ValueError(f"unknown network kind {kind!r}; allowed: {', '.join(NETWORK_KINDS)}")
