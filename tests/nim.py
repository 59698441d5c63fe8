"""Nim, a third game added to the package by its definition alone (`NIM`, `hive_envs.register_game`).

A pile of ``pile`` stones; the player to move takes 1, 2 or 3 (move id k takes k stones, action k-1);
whoever takes the last stone wins. With ``extra_turn=True``, taking exactly 2 stones (without ending
the game) gives the same player another move, so a seat can decide several times in a row, as in
Hoyito. Perfect play: leave a multiple of 4 (when extra_turn is False).

Written here: the protocol game, its encoder (the observation is the one-hot of the stones left,
(pile + 1,) uint8, the same for both seats: the position is all there is), a batch over the protocol
games, a tiny negamax searcher, its own network kind (``nim_lookahead``: each action's rule features,
with options, a rule start and a rule value), its web board and drawing script, and the definition.
The AEC env, the single-agent and vector envs, players, arena, ladder, play CLI, PPO training and
expert iteration, the web page and `hive_envs.testing` come from the package.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from hive_envs.agents.networks import LegalActionNetwork
from hive_envs.core.alphabeta import WIN_SCORE, AlphaBetaSearcher
from hive_envs.core.batch import BatchGame, check_num_games, check_rows
from hive_envs.core.definition import (
    AgentKit,
    EnvParts,
    Evaluation,
    GameDefinition,
    MatchMetric,
    Presentation,
)
from hive_envs.core.game import OneGameEncoder, check_integer
from hive_envs.core.game_env import GameAECEnv
from hive_envs.core.network_kind import NetworkKind, NetworkOptions, Trunk, check_int
from hive_envs.core.single_agent import SingleAgentEnv
from hive_envs.core.vector import BatchVectorEnv


@dataclass(frozen=True)
class NimOptions:
    pile: int = 10
    extra_turn: bool = False

    def __post_init__(self):
        if isinstance(self.pile, bool) or not isinstance(self.pile, int) or self.pile < 1:
            raise ValueError(f"pile must be an integer >= 1, got {self.pile!r}")
        if not isinstance(self.extra_turn, bool):
            raise ValueError(f"extra_turn must be True or False, got {self.extra_turn!r}")


class NimGame:
    game_name = "nim"

    def __init__(self, options: NimOptions | None = None):
        self.options = options or NimOptions()
        self.stones, self.to_move = self.options.pile, 0
        self.moves: list[int] = []
        self._movers: list[int] = []

    @property
    def is_terminal(self) -> bool:
        return self.stones == 0

    @property
    def movers(self) -> list[int]:
        """The seat that made each move, in order."""
        return list(self._movers)

    @property
    def result(self) -> float | None:
        return None if self.stones else (1.0 if self._movers[-1] == 0 else -1.0)  # the last mover won

    @property
    def ply(self) -> int:
        return len(self.moves)

    def legal_move_ids(self) -> np.ndarray:
        return np.arange(1, min(3, self.stones) + 1)

    def play_id(self, move_id) -> None:
        move = check_integer(move_id, "move id")
        if move not in self.legal_move_ids():
            raise ValueError(f"illegal move {move_id!r}")
        self._movers.append(self.to_move)
        self.moves.append(move)
        self.stones -= move
        if not (self.options.extra_turn and move == 2 and self.stones):
            self.to_move = 1 - self.to_move

    def undo(self) -> None:
        if not self.moves:
            raise ValueError("nothing to undo")
        self.stones += self.moves.pop()
        self.to_move = self._movers.pop()

    def copy(self) -> NimGame:
        other = NimGame(self.options)
        other.stones, other.to_move = self.stones, self.to_move
        other.moves, other._movers = list(self.moves), list(self._movers)
        return other

    def move_name(self, move_id) -> str:
        if check_integer(move_id, "move id") not in self.legal_move_ids():
            raise ValueError(f"illegal move {move_id!r}")
        return f"take {move_id}"

    def move_id(self, name: str) -> int:
        try:
            move = int(str(name).removeprefix("take "))
        except ValueError:
            raise ValueError(f"not a move: {name!r} (write 'take K' or K)") from None
        self.move_name(move)
        return move

    def record(self) -> str:
        return ",".join(map(str, self.moves))

    @classmethod
    def from_record(cls, text: str, options: NimOptions) -> NimGame:
        game = cls(options)
        for move in filter(None, text.split(",")):
            game.play_id(int(move))
        return game

    def greedy_move_scores(self) -> tuple[np.ndarray, np.ndarray]:
        ids = self.legal_move_ids()
        return ids, (ids == self.stones).astype(np.int64)  # taking the last stones wins

    def potential(self, seat: int) -> float:
        return 0.0


class NimEncoder(OneGameEncoder):
    encodes = "nim"
    num_actions = 3
    observation_dtype = np.dtype(np.uint8)

    def __init__(self, options: NimOptions):
        self.options = options
        self.observation_shape = (options.pile + 1,)

    def observation_bounds(self):
        return np.zeros(self.observation_shape, np.uint8), np.ones(self.observation_shape, np.uint8)

    def observe(self, game, seat, out):
        out[:] = 0
        out[game.stones] = 1

    def write_mask(self, game, out):
        out[:] = np.arange(1, 4) <= game.stones

    def legal_actions(self, game):
        moves = game.legal_move_ids()
        return moves, moves - 1

    def action_to_move(self, game, action):
        return int(action) + 1

    def move_to_action(self, game, move_id):
        return int(move_id) - 1

    @property
    def label(self) -> str:
        return f"Nim of {self.options.pile}"


class NimAEC(GameAECEnv):
    def __init__(self, render_mode=None, **options):
        NIM.check_option_names(options)
        self.nim_options = NimOptions(**options)
        super().__init__(NimEncoder(self.nim_options), render_mode)

    def _make_game(self):
        return NimGame(self.nim_options)

    def _render_text(self):
        return f"{self.game.stones} stones"


def nim_env(**options):
    from hive_envs.core.aec import wrap_aec

    return wrap_aec(NimAEC(**options))


def nim_gym_env(opponent="random", learner_seat=0, render_mode=None, **options):
    return SingleAgentEnv(NimAEC(render_mode, **options), opponent=opponent, learner_seat=learner_seat)


class NimBatch(BatchGame):
    """`num_games` protocol games stepped in a Python loop (the batched contract, no kernel; no
    potentials, so reward shaping is refused)."""

    def __init__(self, num_games: int, pile: int = 10, extra_turn: bool = False):
        self.options = NimOptions(pile, extra_turn)
        self.encoder = NimEncoder(self.options)
        self.num_actions = 3
        self.observation_shape = self.encoder.observation_shape
        self.observation_dtype = self.encoder.observation_dtype
        self._allocate(check_num_games(num_games))
        self.games = [NimGame(self.options) for _ in range(self.num_games)]
        self.reset()

    def _publish(self, g: int) -> None:
        game = self.games[g]
        self.encoder.observe(game, game.to_move, self.observation[g])
        self.encoder.write_mask(game, self.action_mask[g])
        self.to_move[g] = game.to_move

    def _reset_games(self) -> None:
        self.games = [NimGame(self.options) for _ in range(self.num_games)]
        for g in range(self.num_games):
            self._publish(g)

    def _prepare_actions(self, a, active):
        for g in np.flatnonzero(active):
            if not (0 <= a[g] < 3) or not self.action_mask[g, a[g]]:
                raise ValueError(f"game {g}: illegal action {a[g]}")
        return a.astype(np.int64)

    def _step_games(self, actions, a, active, view) -> None:
        self.rewards[:] = 0
        self.terminated[:] = False
        for g in np.flatnonzero(active):
            game = self.games[g]
            mover = game.to_move
            game.play_id(int(a[g]) + 1)
            if game.is_terminal:
                self.terminated[g] = True
                self.rewards[g, mover], self.rewards[g, 1 - mover] = 1.0, -1.0
                self.episode_length[g] = game.ply
                self.encoder.observe(game, mover, self.final_observation[g])
                self.games[g] = NimGame(self.options)
            self._publish(g)

    def game(self, row) -> NimGame:
        return self.games[self._row(row)].copy()

    def move_to_action(self, row, move_id) -> int:
        g = self._row(row)
        return self._legal_action(g, check_integer(move_id, "move id") - 1, move_id)

    def greedy_actions(self, rows, rng: np.random.Generator) -> np.ndarray:
        """Take the last stones when possible, else a random legal amount."""
        rows = check_rows(rows, self.num_games)
        stones = np.array([self.games[g].stones for g in rows])
        random = (rng.random((len(rows), 3)) * self.action_mask[rows]).argmax(axis=1)
        return np.where(stones <= 3, stones - 1, random).astype(np.int64)


class NimVectorEnv(BatchVectorEnv):
    def __init__(self, num_envs=1, opponent="random", learner_seat=0, **options):
        batch = NimBatch(num_envs, **options)
        super().__init__(batch, *batch.encoder.observation_bounds(), opponent, learner_seat)


class NimAlphaBeta(AlphaBetaSearcher):
    """Plain negamax with alpha-beta over the protocol game (Nim is small: no table, no ordering)."""

    game_class = NimGame
    max_depth = 12
    default_depth = 4

    def _run_kernel(self, game, depth, time_s, table, pv, stats) -> int:
        nodes = [0]

        def child_value(move: int, depth: int, alpha: int, beta: int) -> int:
            """The value of ``move`` for the player making it (an extra turn keeps the sign)."""
            mover = game.to_move
            game.play_id(move)
            same = game.to_move == mover and not game.is_terminal
            value = negamax(depth, alpha, beta) if same else -negamax(depth, -beta, -alpha)
            game.undo()
            return value

        def negamax(depth: int, alpha: int, beta: int) -> int:
            nodes[0] += 1
            if game.is_terminal:
                return -WIN_SCORE  # the player to move lost: the last mover took the last stone
            if depth == 0:
                return 0
            best = -WIN_SCORE - 1
            for move in game.legal_move_ids().tolist():
                best = max(best, child_value(move, depth - 1, alpha, beta))
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
            return best

        scores = {
            m: child_value(m, depth - 1, -WIN_SCORE - 1, WIN_SCORE + 1)
            for m in game.legal_move_ids().tolist()
        }
        best = max(scores, key=lambda m: (scores[m], -m))
        stats[:] = (scores[best], depth, nodes[0], 1)
        pv[0] = best
        return best


# ---------------------------------------------------------------- its own network kind
NIM_FEATURES = 3
"""Per action (take k + 1 stones): legal, it leaves a multiple of 4 (the winning move), it takes the
last stone."""
RULE_LOGITS = {1: 8.0, 2: 16.0}
"""The rule `NimLookaheadPolicy.init_from_rule` starts from: feature -> logit."""


@dataclass(frozen=True)
class NimLookaheadOptions(NetworkOptions):
    """``width``: the hidden units each action's features pass through."""

    width: int = 8

    def __post_init__(self):
        check_int("network 'nim_lookahead'", "width", self.width, 1, 256)

    def spec(self, trunk: Trunk) -> dict[str, Any]:
        return {"width": self.width}

    @property
    def rule_value(self) -> bool:
        return True


def nim_features(observation: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """(actions (B, 3): k where legal, else the padding 3; features (B, 3, `NIM_FEATURES`); position
    (B, 0)) of one-hot observations (B, pile + 1): what the rules say each action does."""
    stones = observation.float().argmax(dim=1, keepdim=True)
    take = torch.arange(1, 4, device=observation.device).unsqueeze(0)
    legal = (take <= stones).float()
    features = torch.stack(
        [legal, legal * ((stones - take) % 4 == 0).float(), legal * (take == stones).float()], dim=-1
    )
    actions = torch.where(legal > 0, take - 1, torch.full_like(take, 3))
    return actions, features, observation.new_zeros((len(observation), 0), dtype=torch.float32)


class NimLookaheadPolicy(LegalActionNetwork):
    """A logit per action from its rule features, a value from their mean (entry k is action k)."""

    def __init__(self, observation_shape: tuple[int, ...], num_actions: int, width: int, rules: dict):
        super().__init__()
        if num_actions != 3 or observation_shape != (int(rules["pile"]) + 1,):
            raise ValueError(f"network 'nim_lookahead' needs Nim of {rules['pile']}'s spaces")
        self.action_net = nn.Sequential(nn.Linear(NIM_FEATURES, width), nn.ReLU(), nn.Linear(width, 1))
        self.value_net = nn.Linear(NIM_FEATURES, 1)

    def check_rule_features(self) -> None:
        """Its features always give the rule a value (`rule_value`)."""

    @torch.no_grad()
    def init_from_rule(self) -> None:
        """Play `RULE_LOGITS` before any training: a unit per weighted feature, the rest silent."""
        first, last = self.action_net[0], self.action_net[2]
        last.weight.zero_()
        last.bias.zero_()
        for unit, (feature, logit) in enumerate(RULE_LOGITS.items()):
            first.weight[unit].zero_()
            first.weight[unit, feature] = 1.0
            first.bias[unit] = 0.0
            last.weight[0, unit] = logit

    def rule_value(self, rule_features: tuple[torch.Tensor, ...]) -> torch.Tensor:
        """+0.5 where a legal move leaves a multiple of 4 or takes the last stone, else -0.5."""
        wins = rule_features[1][..., 1:].amax(dim=(1, 2))
        return wins - 0.5

    def rule_features(self, observation: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return nim_features(observation)

    def legal_policy(self, observation, rule_features) -> tuple[torch.Tensor, torch.Tensor]:
        _, features, _ = rule_features
        logits = self.action_net(features).squeeze(-1) * features[..., 0]
        return logits, self.value_net(features.mean(dim=1)).squeeze(-1)

    def forward(self, observation, rule_features=None):
        return self.legal_policy(observation, rule_features or self.rule_features(observation))


def build_nim_network(spec: dict, observation_shape: tuple[int, ...], num_actions: int) -> NimLookaheadPolicy:
    return NimLookaheadPolicy(tuple(observation_shape), num_actions, int(spec["width"]), dict(spec["rules"]))


NIM_LOOKAHEAD = NetworkKind(
    name="nim_lookahead",
    summary="Nim only: a logit from each action's rule features (tests/nim.py)",
    options=NimLookaheadOptions,
    build=build_nim_network,
    rules=lambda options: {"pile": options.pile},
    legal_actions=True,
)


# ---------------------------------------------------------------- its web board
def nim_web_board(game) -> dict:
    """What the page draws: the pile, the stones left, the moves as ``{"name", "take"}``, one turn per
    move."""
    names = [f"take {move}" for move in game.moves]
    return {
        "pile": game.options.pile,
        "stones": game.stones,
        "moves": [{"name": game.move_name(m), "take": int(m)} for m in game.legal_move_ids()],
        "turns": [{"number": i + 1, "side": None, "moves": [name]} for i, name in enumerate(names)],
        "last_move": names[-1] if names else None,
        "reason": "the last stone was taken" if game.is_terminal else None,
    }


NIM_DRAWER = """
(() => {
  registerBoard({
    draw(ctx) {
      const { position, field, width, height } = ctx;
      const r = 14, step = 2 * r + 6, left = (width - position.pile * step) / 2, y = height / 2 - 30;
      for (let i = 0; i < position.pile; i++) {
        el("circle", { cx: left + i * step + r, cy: y, r, class: i < position.stones ? "stone" : "taken",
                       fill: i < position.stones ? "rgb(110,110,110)" : "none", stroke: "rgb(50,50,50)" }, field);
      }
      (ctx.interactive ? position.moves : []).forEach((move, k) => {
        const g = el("g", { class: "clickable move", "data-move": move.name }, field);
        el("rect", { x: width / 2 - 150 + 100 * k, y: y + 40, width: 90, height: 30, rx: 6, fill: "rgb(225,225,225)" }, g);
        el("text", { x: width / 2 - 105 + 100 * k, y: y + 60, "text-anchor": "middle", "font-size": 14 }, g, move.name);
        g.addEventListener("click", () => ctx.onMove(move.name));
      });
    },
  });
})();
"""


NIM = GameDefinition(
    name="nim",
    title="Nim",
    options=NimOptions,
    new_game=NimGame,
    from_record=NimGame.from_record,
    envs=EnvParts(
        encoder=NimEncoder,
        batch=NimBatch,
        aec_env=nim_env,
        aec_id="hive_envs_tests/nim-v0",
        gym_envs={"hive_envs_tests/Nim-v0": {}},
        gym_entry_point=nim_gym_env,
        vector_entry_point=NimVectorEnv,
    ),
    presentation=Presentation(
        label=lambda options: f"Nim of {options.pile}",
        seat_names=("First", "Second"),
        draw_text=lambda game: f"{game.stones} stones left",
        web_board=nim_web_board,
        web_drawer=lambda: NIM_DRAWER,
    ),
    evaluation=Evaluation(
        searcher=NimAlphaBeta,
        ladder=("random", "greedy", "alphabeta:2"),
        eval_opponents=("random", "greedy"),
        metrics=(MatchMetric("moves_by_a", "moves A made", lambda game, seat: game.movers.count(seat)),),
    ),
    agents=AgentKit(networks=(NIM_LOOKAHEAD,)),
)
