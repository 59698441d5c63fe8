"""Game-by-game matches between any players, UHP engine processes included; W/D/L with Wilson CIs.

    # a checkpoint (raw policy) vs an external UHP engine, 1 s per move, 20 games
    python training/arena.py runs/hive/checkpoints/latest.pt "uhp:nokamute uhp" --games 20 --move-time 1
    # play-time search (64 simulations) vs the raw policy of the same checkpoint, 4 workers
    python training/arena.py A.pt@64 A.pt --games 200 --workers 4
    # also reachable from evaluate.py:  python training/evaluate.py A.pt --opponent uhp:"COMMAND"

Player specs are those of `hive_envs.players`: ``random``, ``greedy``, ``PATH`` (a checkpoint, raw
policy) or ``PATH@N`` (PUCT search, N simulations per move), ``uhp:COMMAND`` (a UHP engine process,
Hive only; started once per worker and kept in step with each game), and every kind registered there.

Our engine is the referee: every move a player chooses is checked by the game (`hive_envs.core.game`)
before the other side sees it. A player whose move is illegal, who errs, dies or exceeds
``--move-timeout`` loses that game (the reason is recorded); a dead or confused engine is restarted
for the next game.
Deterministic players would repeat one game over and over, so each pair of games starts from the same
``--opening-plies`` uniformly random plies (a different opening for every pair while there are enough),
once with each player as White (South) — as in engine tournaments' opening books. Results are counted from the first player's side.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `training` and `hive_envs` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hive_envs.core.game import Game
from hive_envs.games import game_entry
from hive_envs.players import (
    PlayerContext,
    PlayerFailure,
    RandomPlayer,
    SearchLimits,
    checkpoint_path,
    make_player,
)
from training.cli import exit_code, write_report
from training.match import MatchResult, format_table


def game_of(specs: list[str]) -> tuple[str, dict]:
    """The game the specs' checkpoints are for (Hive when none is a checkpoint)."""
    from hive_envs.agents.checkpoint import load_checkpoint

    for spec in specs:
        path = checkpoint_path(spec)
        if path is not None:
            data = load_checkpoint(path)
            return str(data["game"]), dict(data["game_options"])
    return "hive", {}


# -- games and matches ----------------------------------------------------------------------------
@dataclass
class Settings:
    game: str = "hive"
    game_options: dict = field(default_factory=dict)
    opening_plies: int = 2
    move_time_s: float | None = None
    move_timeout_s: float = 60.0
    max_turns: int | None = 300  # for games with a turn cap (Hive)
    sample: bool = False
    seed: int = 0
    threads: int = 1  # torch threads per worker
    log_games: bool = False

    def new_game(self) -> Game:
        """A game at the start under the match's options (``max_turns`` where the game has a cap)."""
        entry = game_entry(self.game)
        options = dict(self.game_options)
        if "max_turns" in {f.name for f in dataclasses.fields(entry.options)}:
            options["max_turns"] = self.max_turns
        return entry.game(options)

    def player(self, spec: str, seed: int):
        return make_player(spec, PlayerContext(self.game, seed, self.sample, self.move_timeout_s))


@dataclass
class GameRecord:
    seat_of_a: int
    result_for_a: float  # +1 / 0 / -1
    plies: int
    reason: str  # "" for a game played to its end by the rules
    record: str  # the game's record (`Game.record`: Hive's GameString, Hoyito's move list)


def queen_margins(records: list[GameRecord], max_turns: int | None = 300) -> list[int]:
    """Hive: for each game, the occupied cells around the opponent's Queen minus those around A's own Queen
    in the final position (a finer measure than W/D/L when weak players draw at the turn limit)."""
    from hive_envs.hive import HiveGame

    return [
        HiveGame.from_gamestring(r.record, max_turns=max_turns).queen_margin(r.seat_of_a) for r in records
    ]


def mean_ci95(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal-approximation interval."""
    n = len(values)
    mean = sum(values) / n
    sd = (sum((v - mean) ** 2 for v in values) / max(n - 1, 1)) ** 0.5
    half = 1.959964 * sd / n**0.5
    return mean, mean - half, mean + half


def random_opening(new_game: Callable[[], Game], plies: int, seed: int) -> list[int]:
    player = RandomPlayer(seed)
    game, moves = new_game(), []
    for _ in range(plies):
        if game.is_terminal:
            break
        moves.append(player.choose(game))
        game.play_id(moves[-1])
    return moves


def distinct_openings(new_game: Callable[[], Game], plies: int, count: int, seed: int) -> list[list[int]]:
    """``count`` random openings, all different while the game has that many (deterministic players
    would otherwise replay the same game, and the games would not be independent samples)."""
    openings, seen = [], set()
    for k in range(100 * count):
        opening = random_opening(new_game, plies, seed * 1_000_003 + k)
        if tuple(opening) not in seen:
            seen.add(tuple(opening))
            openings.append(opening)
            if len(openings) == count:
                return openings
    return [openings[k % len(openings)] for k in range(count)]


def play_game(game: Game, players: tuple, limits: SearchLimits) -> tuple[float, int, str, str]:
    """Play ``game`` (after its opening) to the end, ``players[0]`` as White/South.

    Returns (result for seat 0, plies, reason, record); a player that fails to move or moves
    illegally loses at once (the reason says why).
    """
    while not game.is_terminal:
        seat = game.to_move
        try:
            move = players[seat].choose(game.copy(), limits)
            try:
                game.play_id(move)
            except ValueError as error:
                raise PlayerFailure(f"illegal move {move!r}: {error}") from None
        except PlayerFailure as error:
            return (-1.0 if seat == 0 else 1.0), game.ply, f"seat {seat} forfeits: {error}", game.record()
    return game.result, game.ply, "", game.record()


def play_pairs(spec_a: str, spec_b: str, settings: Settings, openings: list[list[int]]) -> list[GameRecord]:
    """Two games from each opening: A as seat 0, then as seat 1."""
    import torch

    torch.set_num_threads(settings.threads)  # small networks: threads only fight the other workers
    limits = SearchLimits(time_s=settings.move_time_s)
    a = settings.player(spec_a, settings.seed * 7919 + 1)
    b = settings.player(spec_b, settings.seed * 7919 + 2)
    records = []
    try:
        for opening in openings:
            for seat_of_a in (0, 1):
                game = settings.new_game()
                for move in opening:
                    game.play_id(move)
                seats = (a, b) if seat_of_a == 0 else (b, a)
                result0, plies, reason, record = play_game(game, seats, limits)
                result_a = (result0 if seat_of_a == 0 else -result0) + 0.0  # no -0.0 for a draw
                records.append(GameRecord(seat_of_a, result_a, plies, reason, record))
                if settings.log_games:  # one line per game on stderr: partial results of a long match
                    extra = ""
                    if settings.game == "hive":
                        extra = (
                            f" queen_margin_for_a={queen_margins([records[-1]], settings.max_turns)[0]:+d}"
                        )
                    print(
                        f"game seat_of_a={seat_of_a} result_for_a={int(result_a):+d} plies={plies}{extra} {reason}",
                        file=sys.stderr,
                        flush=True,
                    )
    finally:
        a.close()
        b.close()
    return records


def play_match(
    spec_a: str, spec_b: str, games: int, settings: Settings, workers: int = 1
) -> tuple[MatchResult, list[GameRecord]]:
    """``games`` (even, >= 2) games between A and B, spread over ``workers`` processes."""
    if games < 2 or games % 2:
        raise ValueError(
            f"games must be an even number >= 2 (each opening is played with both seats), got {games}"
        )
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    pairs = distinct_openings(settings.new_game, settings.opening_plies, games // 2, settings.seed)
    chunks = [pairs[i::workers] for i in range(min(workers, len(pairs)))]
    if len(chunks) == 1:
        records = play_pairs(spec_a, spec_b, settings, pairs)
    else:
        with ProcessPoolExecutor(len(chunks), mp_context=get_context("spawn")) as pool:
            parts = pool.map(
                play_pairs, [spec_a] * len(chunks), [spec_b] * len(chunks), [settings] * len(chunks), chunks
            )
            records = [r for part in parts for r in part]
    return summarise(spec_a, spec_b, records), records


def summarise(name_a: str, name_b: str, records: list[GameRecord]) -> MatchResult:
    counts = {label: [0, 0] for label in ("wins", "draws", "losses")}
    for r in records:
        label = "wins" if r.result_for_a > 0 else ("losses" if r.result_for_a < 0 else "draws")
        counts[label][r.seat_of_a] += 1
    return MatchResult.from_counts(
        name_a, name_b, len(records), counts, sum(r.plies for r in records) / len(records)
    )


def run(
    players: list[str],
    opponents: list[str],
    games: int,
    settings: Settings,
    workers: int = 1,
    out: str | None = None,
) -> dict:
    """Every player against every opponent; prints the table, writes JSON (with every game) to ``out``."""
    results, report = (
        [],
        {
            "game": settings.game,
            "game_options": settings.game_options,
            "opening_plies": settings.opening_plies,
            "move_time_s": settings.move_time_s,
            "matches": [],
        },
    )
    for a in players:
        for b in opponents:
            result, records = play_match(a, b, games, settings, workers)
            results.append(result)
            report["matches"].append({**result.to_dict(), "games_played": [r.__dict__ for r in records]})
            if settings.game == "hive":
                margins = queen_margins(records, settings.max_turns)
                for row, margin in zip(report["matches"][-1]["games_played"], margins):
                    row["queen_margin_for_a"] = margin
                report["matches"][-1]["queen_margin_for_a"] = mean_ci95(margins)
    print(format_table(results))
    for match in report["matches"]:
        if "queen_margin_for_a" in match:
            mean, low, high = match["queen_margin_for_a"]
            print(
                f"{match['player']} vs {match['opponent']}: final Queen margin (neighbours of the opponent's "
                f"Queen - of the player's) {mean:+.2f} [{low:+.2f}, {high:+.2f}]"
            )
    for match in report["matches"]:
        forfeits = [g["reason"] for g in match["games_played"] if g["reason"]]
        if forfeits:
            print(f"{match['player']} vs {match['opponent']}: {len(forfeits)} forfeit(s), e.g. {forfeits[0]}")
    if out:
        write_report(out, report)
    return report


def settings_for(specs: list[str], **kwargs) -> Settings:
    game, options = game_of(specs)
    return Settings(game=game, game_options=options, **kwargs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("player", help="random | greedy | PATH[@N] | uhp:COMMAND")
    parser.add_argument("opponents", nargs="+", help="one or more specs, each played against PLAYER")
    parser.add_argument("--games", type=int, default=20, help="games per match (even), half in each seat")
    parser.add_argument(
        "--opening-plies", type=int, default=2, help="random plies opening each pair of games"
    )
    parser.add_argument(
        "--move-time", type=float, help="seconds per move, sent as 'bestmove time' to every player"
    )
    parser.add_argument(
        "--move-timeout",
        type=float,
        default=60.0,
        help="an engine that has not answered after this (+ move time) loses the game",
    )
    parser.add_argument(
        "--max-turns", type=int, default=300, help="Hive: draw after this many plies (0: none)"
    )
    parser.add_argument(
        "--sample", action="store_true", help="checkpoints sample their moves (default: argmax)"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes playing games in parallel")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="JSON output path (every game with its final position)")
    parser.add_argument("--log-games", action="store_true", help="a line on stderr as each game ends")
    args = parser.parse_args(argv)

    def play() -> None:
        settings = settings_for(
            [args.player, *args.opponents],
            opening_plies=args.opening_plies,
            move_time_s=args.move_time,
            move_timeout_s=args.move_timeout,
            max_turns=args.max_turns or None,
            sample=args.sample,
            seed=args.seed,
            log_games=args.log_games,
        )
        run([args.player], args.opponents, args.games, settings, args.workers, args.out)

    return exit_code(play)


if __name__ == "__main__":
    sys.exit(main())
