"""The one match runner: two players, a schedule of games, W/D/L from the first player's side.

A match is a schedule: one ``(opening, seat of A)`` per game, the opening a list of engine move ids
played before the players move (`paired`: each opening once with each seat, as the arena plays its
book; `halves`: the first half of the games with A in seat 0, the second half with A in seat 1, game
k from opening k, as the trainers' evaluation and ``evaluate.py`` play). The book itself is the
arena's (`arena.distinct_openings`): deterministic players would otherwise play the same game in
every slot of a seat. Every tool plays its matches here, in one of two modes:

- `play_games`: game by game on protocol games (`hive_envs.core.game`), our engine refereeing each
  move (`play_game`): any players, UHP engine processes included; a player that fails or moves
  illegally forfeits (no result). The arena, its ladder and the trainers' evaluation of a compiled
  game play so;
- `play_games_batched`: all the games at once in one batch of the game (`GameDefinition.make_batch`),
  each player moving on all the rows it is to move in with its batched ``act`` when it has one (one
  network forward pass for all of them), else ``choose`` on each row's game: ``evaluate.py`` and the
  trainers' evaluation of an AEC env play so. Each row counts only its first finished game; a row
  that is done keeps being stepped with random moves (cheap) until every row has finished.

Both give one `GameRecord` per game in the schedule's order, and `summarise` counts them: W/D/L by
seat, the score with its Wilson interval over the games, and the pentanomial count of the pairs of
games from one opening with the seats swapped (`pair_points`) with the score's interval over the pairs
(`pair_score_interval`). The second is the honest one for a paired book: in Hoyito II after four
random plies most openings are won by one seat whoever holds it, a win and a loss whoever is stronger,
so the games are not independent samples.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import numpy as np

from hive_envs.core.game import Game
from hive_envs.games import game_entry
from hive_envs.players import Player, PlayerFailure, RandomPlayer, SearchLimits, batch_actions

Schedule = list[tuple[list[int], int]]
"""One ``(opening, seat of A)`` per game (module doc)."""


def paired(openings: list[list[int]]) -> Schedule:
    """Each opening twice, A first as seat 0 then as seat 1."""
    return [(opening, seat) for opening in openings for seat in (0, 1)]


def halves(openings: list[list[int]], games: int) -> Schedule:
    """``games`` games: game k from opening k (cycling), A in seat 0 for the first ``games // 2`` (at
    least one), in seat 1 for the rest; no openings: every game from the start position."""
    first = max(games // 2, 1)
    return [(openings[k % first % len(openings)] if openings else [], int(k >= first)) for k in range(games)]


@dataclass
class GameRecord:
    seat_of_a: int
    result_for_a: float | None  # +1 / 0 / -1; None for a forfeit (no result)
    plies: int
    reason: str  # "" for a game played to its end by the rules, else why it was forfeited
    record: str  # the game's record (`Game.record`: Hive's GameString, Hoyito's move list); "" batched
    forfeit: str = ""  # "A" or "B": the side that forfeited; "" for a game with a result
    move_seconds_a: list[float] = field(default_factory=list)
    """Wall seconds of each of A's moves, as the referee timed the player's ``choose`` (an engine's
    answer included); empty when batched."""
    move_seconds_b: list[float] = field(default_factory=list)
    opening: list[int] = field(default_factory=list)
    """The engine move ids played before the players moved (the schedule's opening): two games with
    one opening and the seats swapped make a pair (`pair_points`)."""


def play_game(
    game: Game, players: tuple, limits: SearchLimits
) -> tuple[float | None, int, str, str, int | None, tuple[list[float], list[float]]]:
    """Play ``game`` (after its opening) to the end, ``players[0]`` as White/South.

    Returns (result for seat 0, plies, reason, record, the seat that forfeited, each seat's move wall
    times in seconds); a player that fails to move or moves illegally forfeits at once: no result
    (None), the reason says why.
    """
    seconds: tuple[list[float], list[float]] = ([], [])
    while not game.is_terminal:
        seat = game.to_move
        try:
            started = time.perf_counter()
            move = players[seat].choose(game.copy(), limits)
            seconds[seat].append(round(time.perf_counter() - started, 4))
            try:
                game.play_id(move)
            except ValueError as error:
                raise PlayerFailure(f"illegal move {move!r}: {error}") from None
        except PlayerFailure as error:
            return None, game.ply, f"seat {seat} forfeits: {error}", game.record(), seat, seconds
    return game.result, game.ply, "", game.record(), None, seconds


def play_games(
    a: Player,
    b: Player,
    schedule: Schedule,
    new_game: Callable[[], Game],
    limits: SearchLimits,
    on_game: Callable[[GameRecord], None] | None = None,
) -> list[GameRecord]:
    """The games of ``schedule``, one after the other, each on a ``new_game()`` after its opening;
    results from A's side. ``on_game`` sees each record as it ends (a long match's partial results)."""
    records = []
    for opening, seat_of_a in schedule:
        game = new_game()
        for move in opening:
            game.play_id(move)
        seats = (a, b) if seat_of_a == 0 else (b, a)
        result0, plies, reason, record, forfeit_seat, seconds = play_game(game, seats, limits)
        result_a = None if result0 is None else (result0 if seat_of_a == 0 else -result0) + 0.0
        side = "" if forfeit_seat is None else ("A" if forfeit_seat == seat_of_a else "B")
        seconds_a, seconds_b = seconds if seat_of_a == 0 else seconds[::-1]
        records.append(
            GameRecord(seat_of_a, result_a, plies, reason, record, side, seconds_a, seconds_b, list(opening))
        )
        if on_game is not None:
            on_game(records[-1])
    return records


def play_games_batched(
    a: Player, b: Player, schedule: Schedule, game: str, game_options: dict, seed: int
) -> list[GameRecord]:
    """The games of ``schedule`` (at least 2) at once, in one batch of ``game`` reset with ``seed``
    (module doc); the openings must all have one length."""
    num_games = len(schedule)
    if num_games < 2:
        raise ValueError(f"a match needs at least 2 games (one per seat), got {num_games}")
    batch = game_entry(game).make_batch(num_games, game_options)
    batch.reset(seed=seed)
    _play_row_openings(batch, [opening for opening, _ in schedule])
    filler = RandomPlayer(seed)  # moves in the rows whose first game is over
    seat_of_a = np.array([seat for _, seat in schedule], dtype=np.int8)
    outcome = np.zeros(num_games, dtype=np.float32)  # A's reward in the row's first game
    length = np.zeros(num_games, dtype=np.int64)
    done = np.zeros(num_games, dtype=bool)
    while not done.all():
        actions = np.empty(num_games, dtype=np.int64)
        a_moves = (batch.to_move == seat_of_a) & ~done
        b_moves = (batch.to_move != seat_of_a) & ~done
        for player, rows_mask in ((a, a_moves), (b, b_moves)):
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
    return [
        GameRecord(int(seat), float(np.sign(result)), int(plies), "", "", opening=list(opening))
        for (opening, _), seat, result, plies in zip(schedule, seat_of_a, outcome, length)
    ]


def _play_row_openings(batch, openings: list[list[int]]) -> None:
    """Play row k's opening (engine move ids; all of one length) in row k of a freshly reset batch."""
    for ply in range(len(openings[0])):
        actions = np.array(
            [batch.move_to_action(row, opening[ply]) for row, opening in enumerate(openings)], dtype=np.int64
        )
        batch.step(actions)


def summarise(
    name_a: str, name_b: str, records: list[GameRecord], limit_s: float | None = None
) -> MatchResult:
    """W/D/L by seat over the games with a result; the forfeits of each side apart; each side's move
    times (`move_time_summary`, with its moves over ``limit_s``, the match's seconds a move)."""
    counts = {label: [0, 0] for label in ("wins", "draws", "losses")}
    for r in records:
        if r.result_for_a is None:
            continue
        label = "wins" if r.result_for_a > 0 else ("losses" if r.result_for_a < 0 else "draws")
        counts[label][r.seat_of_a] += 1
    forfeits = (sum(r.forfeit == "A" for r in records), sum(r.forfeit == "B" for r in records))
    result = MatchResult.from_counts(
        name_a, name_b, len(records), counts, sum(r.plies for r in records) / len(records), forfeits
    )
    result.pair_points = pair_points(records)
    for side, seconds in (
        ("player", [s for r in records for s in r.move_seconds_a]),
        ("opponent", [s for r in records for s in r.move_seconds_b]),
    ):
        if seconds:
            result.move_seconds[side] = move_time_summary(seconds, limit_s)
    return result


def game_pairs(records: list[GameRecord]) -> list[tuple[GameRecord, GameRecord]]:
    """(A as seat 0, A as seat 1) pairs of games with one opening and a result each: within one
    opening the k-th game of each seat, in the records' order; a forfeited or unmatched game is in none."""
    by_opening: dict[tuple[int, ...], tuple[list[GameRecord], list[GameRecord]]] = {}
    for r in records:
        if r.result_for_a is not None:
            by_opening.setdefault(tuple(r.opening), ([], []))[r.seat_of_a].append(r)
    return [pair for first, second in by_opening.values() for pair in zip(first, second)]


def pair_points(records: list[GameRecord]) -> list[int]:
    """The pentanomial count of a paired match: how many pairs (`game_pairs`) gave A 0, 0.5, 1, 1.5
    and 2 points. A pair scoring 1 is a win and a loss (the seat, not the player, decided the opening)
    or two draws."""
    counts = [0] * 5
    for first, second in game_pairs(records):
        assert first.result_for_a is not None and second.result_for_a is not None  # `game_pairs`: results
        counts[int(first.result_for_a + second.result_for_a + 2)] += 1
    return counts


def pair_score_interval(counts: list[int], z: float = 1.959964) -> tuple[float, float] | None:
    """95% normal interval of the mean score per pair from the pentanomial ``counts`` (`pair_points`);
    None for fewer than two pairs or pairs that all scored the same (no spread to measure: read the
    games' Wilson interval there). Two games from one opening are not independent samples (an opening
    one seat wins whoever plays it gives a win and a loss), so the spread of the pairs' scores, not
    the games', measures what the book leaves to chance: engine-testing frameworks count so."""
    pairs = sum(counts)
    if pairs < 2 or max(counts) == pairs:
        return None
    scores = np.repeat(np.arange(5) / 4.0, counts)
    mean, spread = float(scores.mean()), float(scores.std(ddof=1))
    half = z * spread / math.sqrt(pairs)
    return (max(0.0, mean - half), min(1.0, mean + half))


def move_time_summary(seconds: list[float], limit_s: float | None = None) -> dict[str, float]:
    """Moves, median, 99th percentile and longest of a player's move wall times (seconds); with a time
    limit, ``over_limit``: how many moves took longer than it (as the referee timed them)."""
    summary = {
        "moves": len(seconds),
        "median": float(np.median(seconds)),
        "p99": float(np.percentile(seconds, 99)),
        "max": float(max(seconds)),
    }
    if limit_s is not None:
        summary["over_limit"] = int(sum(s > limit_s for s in seconds))
    return summary


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
    move_seconds: dict[str, dict[str, float]] = field(default_factory=dict)
    """``"player"`` / ``"opponent"``: `move_time_summary` of each side's move wall times, as the
    referee timed them (game by game only: empty when batched)."""
    pair_points: list[int] = field(default_factory=list)
    """`pair_points` of the games (pairs with A 0, 0.5, 1, 1.5, 2 points); empty when the result was
    built from counts alone (no games)."""

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

    def pair_score_ci95(self) -> tuple[float, float] | None:
        """95% interval of the score over the pairs of games (`pair_score_interval`); None where that
        gives none (fewer than two pairs, or no spread) and for a result built from counts."""
        return pair_score_interval(self.pair_points)

    def to_dict(self) -> dict:
        pair_interval = self.pair_score_ci95()
        return {
            **asdict(self),
            "win_rate": self.win_rate,
            "win_rate_ci95": list(self.win_rate_ci95()),
            "score": self.score,
            "score_ci95": list(self.score_ci95()),
            "pair_score_ci95": None if pair_interval is None else list(pair_interval),
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


def pairs_line(counts: list[int], interval: tuple[float, float] | None) -> str:
    """The pentanomial count and the score over the pairs, as `format_table` prints them."""
    mean = sum(k * n for k, n in enumerate(counts)) / (4 * sum(counts))
    spread = "no spread" if interval is None else f"[{interval[0]:.3f}, {interval[1]:.3f}]"
    return (
        f"{sum(counts)} pairs of games by points 0/0.5/1/1.5/2: {'/'.join(map(str, counts))}; score over "
        f"the pairs {mean:.3f} {spread}"
    )


def format_table(results: list[MatchResult], forfeits: bool | None = None) -> str:
    """A plain-text table: one row per match, W/D/L per seat, win rate with its 95% CI; the forfeits
    column (by the player / by the opponent) when ``forfeits`` (None: when a match had any). Below it,
    a line per match of two pairs of games or more: its `pairs_line`."""
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
    for r in results:
        if sum(r.pair_points) >= 2:
            lines.append(f"{r.player} vs {r.opponent}: {pairs_line(r.pair_points, r.pair_score_ci95())}")
    return "\n".join(lines)
