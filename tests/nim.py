"""Nim, a third game added to the package by its definition alone (`NIM`, `hive_envs.register_game`).

A pile of ``pile`` stones; the player to move takes 1, 2 or 3 (move id k takes k stones, action k-1);
whoever takes the last stone wins. With ``extra_turn=True``, taking exactly 2 stones (without ending
the game) gives the same player another move, so a seat can decide several times in a row, as in
Hoyito. Perfect play: leave a multiple of 4 (when extra_turn is False).

Written here: the protocol game, its encoder (the observation is the one-hot of the stones left,
(pile + 1,) uint8, the same for both seats: the position is all there is), a batch over the protocol
games, a tiny negamax searcher and the definition. The AEC env, the single-agent and vector envs,
players, arena, ladder, play CLI, PPO training and `hive_envs.testing` come from the package.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hive_envs.core.alphabeta import WIN_SCORE, AlphaBetaSearcher
from hive_envs.core.batch import BatchGame, check_num_games, check_rows
from hive_envs.core.definition import EnvParts, Evaluation, GameDefinition, MatchMetric, Presentation
from hive_envs.core.game import check_integer
from hive_envs.core.game_env import GameAECEnv
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


class NimEncoder:
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

    def describes(self, game) -> bool:
        return getattr(game, "game_name", None) == "nim" and game.options == self.options

    @staticmethod
    def label_of(game) -> str:
        return str(getattr(game, "options", type(game).__name__))


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
    ),
    evaluation=Evaluation(
        searcher=NimAlphaBeta,
        ladder=("random", "greedy", "alphabeta:2"),
        eval_opponents=("random", "greedy"),
        metrics=(MatchMetric("moves_by_a", "moves A made", lambda game, seat: game.movers.count(seat)),),
    ),
)
