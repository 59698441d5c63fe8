"""Play a match between two players in one batch of games and summarise it.

`num_games` games run at once in one batch: in the first half player A holds seat 0, in the
second half seat 1. With ``openings`` (lists of engine move ids, e.g. the arena's random opening
book `arena.distinct_openings`), game k and game k + num_games/2 (the same pair with the seats
swapped) first play opening k: deterministic players would otherwise play the same game in every
slot of a seat. Each game slot counts only its first finished game; a slot that is done
keeps being stepped with random moves (cheap) until every slot has finished. Players are those of
`hive_envs.players`: their batched ``act`` when they have one (one network forward pass for all the
rows a network moves in), else ``choose`` on each row's game.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

from hive_envs.players import RandomPlayer, batch_actions
from hive_envs.training.game_lookup import make_batch


@dataclass
class MatchResult:
    player: str
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    wins_by_seat: list[int]
    draws_by_seat: list[int]
    losses_by_seat: list[int]
    mean_length: float
    forfeits: list[int] = field(default_factory=lambda: [0, 0])
    """Games that ended without a result under the rules: [forfeited by the player, by the opponent]
    (an engine that died, timed out, moved illegally or ended the game by rules of its own; the arena).
    They are counted in ``games`` but in none of wins / draws / losses, rates and scores."""

    @classmethod
    def from_counts(
        cls,
        player: str,
        opponent: str,
        games: int,
        counts: dict[str, list[int]],
        mean_length: float,
        forfeits: tuple[int, int] = (0, 0),
    ) -> MatchResult:
        """The result from `counts` = {"wins"|"draws"|"losses": [as seat 0, as seat 1]}."""
        return cls(
            player=player,
            opponent=opponent,
            games=games,
            wins=sum(counts["wins"]),
            draws=sum(counts["draws"]),
            losses=sum(counts["losses"]),
            wins_by_seat=counts["wins"],
            draws_by_seat=counts["draws"],
            losses_by_seat=counts["losses"],
            mean_length=mean_length,
            forfeits=list(forfeits),
        )

    @property
    def decided(self) -> int:
        """Games played to their end by the rules (all but the forfeits)."""
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        return self.wins / self.decided if self.decided else math.nan

    @property
    def score(self) -> float:
        """Wins plus half the draws, per game played to its end."""
        return (self.wins + 0.5 * self.draws) / self.decided if self.decided else math.nan

    def win_rate_ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.decided)

    def score_ci95(self) -> tuple[float, float]:
        """95% Wilson interval of the score, a draw counted as half a win."""
        return wilson_interval(self.wins + 0.5 * self.draws, self.decided)

    def to_dict(self) -> dict:
        return {
            **asdict(self),
            "win_rate": self.win_rate,
            "win_rate_ci95": list(self.win_rate_ci95()),
            "score": self.score,
            "score_ci95": list(self.score_ci95()),
        }


def wilson_interval(successes: float, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a binomial proportion (sane at 0 and 1, unlike the normal one)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_match(
    game: str,
    game_options: dict,
    player_a,
    player_b,
    num_games: int,
    seed: int,
    openings: list[list[int]] | None = None,
) -> MatchResult:
    """Play `num_games` games (half with A in each seat) and count them from A's side, each pair
    after its opening when `openings` are given (module doc)."""
    if num_games < 2:
        raise ValueError(f"a match needs at least 2 games (one per seat), got {num_games}")
    batch = make_batch(game, num_games, game_options)
    batch.reset(seed=seed)
    if openings:
        play_openings(batch, openings)
    filler = RandomPlayer(seed)  # moves in the slots whose first game is over
    seat_of_a = (np.arange(num_games) >= num_games // 2).astype(np.int8)
    outcome = np.zeros(num_games, dtype=np.float32)  # A's reward in the slot's first game
    length = np.zeros(num_games, dtype=np.int64)
    done = np.zeros(num_games, dtype=bool)
    while not done.all():
        actions = np.empty(num_games, dtype=np.int64)
        a_moves = (batch.to_move == seat_of_a) & ~done
        b_moves = (batch.to_move != seat_of_a) & ~done
        for player, rows_mask in ((player_a, a_moves), (player_b, b_moves)):
            rows = np.flatnonzero(rows_mask)
            if rows.size:
                actions[rows] = batch_actions(player, batch, rows)
        idle = np.flatnonzero(done)
        if idle.size:
            actions[idle] = filler.act(batch, idle)
        batch.step(actions)
        finished = batch.terminated & ~done
        rows = np.flatnonzero(finished)
        outcome[rows] = batch.rewards[rows, seat_of_a[rows]]
        length[rows] = batch.episode_length[rows]
        done |= finished
    counts = {}
    for label, value in (("wins", 1.0), ("draws", 0.0), ("losses", -1.0)):
        hit = np.sign(outcome) == value
        counts[label] = [int((hit & (seat_of_a == seat)).sum()) for seat in (0, 1)]
    return MatchResult.from_counts(player_a.name, player_b.name, num_games, counts, float(length.mean()))


def play_openings(batch, openings: list[list[int]]) -> None:
    """Play opening k (engine move ids, all of one length) in games k and k + n/2 of a freshly reset
    batch of n games (opening k % len(openings) when there are fewer)."""
    half = max(batch.num_games // 2, 1)
    for ply in range(len(openings[0])):
        actions = np.empty(batch.num_games, dtype=np.int64)
        for row in range(batch.num_games):
            actions[row] = batch.move_to_action(row, openings[(row % half) % len(openings)][ply])
        batch.step(actions)


def format_table(results: list[MatchResult], forfeits: bool | None = None) -> str:
    """A plain-text table: one row per match, W/D/L per seat, win rate with its 95% CI; the forfeits
    column (by the player / by the opponent) when ``forfeits`` (None: when a match had any)."""
    if forfeits is None:
        forfeits = any(sum(r.forfeits) for r in results)
    header = (
        f"{'player':<28} {'opponent':<28} {'games':>5} {'W/D/L as seat 0':>16} {'W/D/L as seat 1':>16} "
        f"{'win rate [95% CI]':>22} {'score':>6} {'mean len':>8}"
        + (f" {'forfeits A/B':>12}" if forfeits else "")
    )
    lines = [header, "-" * len(header)]
    for r in results:
        low, high = r.win_rate_ci95()
        seat0 = f"{r.wins_by_seat[0]}/{r.draws_by_seat[0]}/{r.losses_by_seat[0]}"
        seat1 = f"{r.wins_by_seat[1]}/{r.draws_by_seat[1]}/{r.losses_by_seat[1]}"
        rate = f"{r.win_rate:.3f} [{low:.3f},{high:.3f}]"
        lines.append(
            f"{r.player[-28:]:<28} {r.opponent[-28:]:<28} {r.games:>5} {seat0:>16} {seat1:>16} "
            f"{rate:>22} {r.score:>6.3f} {r.mean_length:>8.1f}"
            + (f" {r.forfeits[0]:>6}/{r.forfeits[1]:<5}" if forfeits else "")
        )
    return "\n".join(lines)
