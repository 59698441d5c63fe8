"""Conformance checks of a game's parts against each other, for the package's games and for yours.

    from hive_envs.testing import check_definition
    check_definition(HIVE, {"expansions": "MLP"})      # raises ConformanceError naming what disagrees
    check_definition(my_game_definition, seed=3, games=4)

Given a `hive_envs.core.definition.GameDefinition` and keyword options (rules, and the definition's
``env_options`` such as Hive's ``observation``), seeded random playouts check
(as `pgx.api_test`, `pettingzoo.test.api_test` and Gymnasium's `check_env` do for theirs):

- **protocol game** (`check_protocol`): legal moves distinct, never empty while the game runs and
  empty once it is over, with a ``result`` exactly then; ``greedy_move_scores`` lists the legal moves;
  every ``play_id`` then ``undo`` gives back the same record, seat to move, ply, result, legal
  moves and observation; a refused
  move (an id that is not legal, a bool, a float) raises ValueError and changes nothing; ``copy`` is
  independent; the record replays (``from_record``) to the same record and legal moves; the
  drawings give text and an (H, W, 3) uint8 picture.
- **encoder** (inside `check_protocol`): one action per legal move and none else (the mask is the
  legal set, ``legal_actions`` is aligned with ``legal_move_ids``, ``action_to_move`` and
  ``move_to_action`` are inverse), observations inside the declared bounds, shape and dtype. An
  encoder that offers ``audit_observation(game, seat, observation) -> str | None`` (what in the
  observation disagrees with an independent reading of the game, or None) has every observation
  audited so: Hive's ``observation="pieces"`` has each tile's row read back from the engine's stacks,
  and each legal action's (tile row, destination) in its action table compared with the move the
  action maps to (`hive_envs.hive.piece_audit`).
- **AEC env** (`check_aec_env`): played with the moves of a protocol game kept beside it, every
  observation and mask equals the encoder's on that game, the final rewards equal its result, the
  same seed gives the same play; a refused action on the raw env changes nothing.
- **Gym env** (`check_gym_env`, when the definition has ids): the mask it returns is the encoder's
  on its own game, the same seed gives the same episode (opponent inside included), an action
  outside the action space is refused with ValueError and changes nothing, an illegal one in range
  loses the episode (-1, ``info["illegal_action"]``) and changes nothing.
- **batch** (`check_batch`, when the definition has one): stepped in lock-step with protocol games,
  every row's observation, mask, seat to move, rewards, end and episode length agree with them; an
  illegal action is refused with ValueError before any game moves.

Each check raises `ConformanceError` (an AssertionError) naming the check, the game (its label) and
the record of the position where it failed. Costs: ``games`` playouts of at most ``max_plies`` plies
per part; the defaults take a few seconds for a Hive game type once its kernels are compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from hive_envs.core.definition import GameDefinition
from hive_envs.core.parts import load


class ConformanceError(AssertionError):
    """A part of a game that disagrees with another (the message names the check and the position)."""


def check_definition(
    definition: GameDefinition,
    options: dict | None = None,
    *,
    seed: int = 0,
    games: int = 2,
    max_plies: int = 60,
    batch_games: int = 4,
) -> None:
    """Every check below on ``definition`` under keyword ``options`` (see the module docstring)."""
    check_protocol(definition, options, seed=seed, games=games, max_plies=max_plies)
    if definition.aec_env is not None:
        check_aec_env(definition, options, seed=seed, games=games, max_plies=max_plies)
    if definition.gym_envs:
        check_gym_env(definition, options, seed=seed, max_plies=max_plies)
    if definition.batch is not None:
        check_batch(definition, options, seed=seed, num_games=batch_games, max_plies=max_plies)


def _fail(check: str, definition: GameDefinition, game, message: str) -> ConformanceError:
    return ConformanceError(f"{definition.name} {check}: {message} (position: {game.record()!r})")


def _observe(encoder, game, seat: int) -> np.ndarray:
    out = np.zeros(tuple(encoder.observation_shape), dtype=encoder.observation_dtype)
    encoder.observe(game, seat, out)
    return out


def _mask(encoder, game) -> np.ndarray:
    out = np.zeros(int(encoder.num_actions), dtype=np.int8)
    encoder.write_mask(game, out)
    return out


def _move_of(encoder, game, action: int) -> int:
    """The move of ``action`` in ``game`` by the aligned lists of `legal_actions` (which also sets up
    any per-position state of the encoder for this game)."""
    moves, actions = encoder.legal_actions(game)
    return int(np.asarray(moves)[np.flatnonzero(np.asarray(actions) == action)[0]])


def _refuses(action: Callable[[], Any]) -> bool:
    """Whether ``action()`` is refused with the ValueError every part owes a bad action."""
    try:
        action()
    except ValueError:
        return True
    return False


def _check_refused(check: str, definition, game, refuse: Callable[[], Any], snapshot, messages) -> None:
    """``refuse()`` must raise the ValueError every part owes a bad action and leave ``snapshot()`` as
    it was; else ConformanceError with ``messages`` (accepted, changed)."""
    before = snapshot()
    if not _refuses(refuse):
        raise _fail(check, definition, game, messages[0])
    if snapshot() != before:
        raise _fail(check, definition, game, messages[1])


def _same_twice(definition: GameDefinition, part: str, play: Callable[[], list]) -> None:
    """Two plays with the same seed must give the same list (of actions, observations)."""
    if play() != play():
        raise ConformanceError(f"{definition.name} {part}: the same seed played another game")


def _refusals(game) -> list[Any]:
    """Move ids a game must refuse now: a non-legal integer, a bool, a float, None."""
    legal = set(game.legal_move_ids().tolist())
    outside = next(m for m in range(-1, -(len(legal) + 3), -1) if m not in legal)
    first = next(iter(legal), 0)
    return [outside, True, float(first) + 0.5, None]


# ---------------------------------------------------------------------------- protocol + encoder
def check_protocol(
    definition: GameDefinition,
    options: dict | None = None,
    *,
    seed: int = 0,
    games: int = 2,
    max_plies: int = 60,
) -> None:
    """The protocol game and its encoder against each other (module docstring)."""
    parsed = definition.parse_options(options)
    encoder = definition.make_encoder(options)
    low, high = (np.asarray(b) for b in encoder.observation_bounds())
    rng = np.random.default_rng(seed)
    for _ in range(games):
        game = definition.new_game(parsed)
        for _ in range(max_plies):
            _check_position(definition, encoder, game, low, high)
            if game.is_terminal:
                break
            move = int(rng.choice(game.legal_move_ids()))
            _check_apply_undo(definition, encoder, game, move)
            game.play_id(move)
        _check_record(definition, parsed, game)
        _check_drawings(definition, game)


def _check_position(definition, encoder, game, low, high) -> None:
    def fail(message):
        return _fail("protocol", definition, game, message)

    moves = game.legal_move_ids()
    if game.is_terminal:
        if len(moves) or game.result is None:
            raise fail("a finished game lists moves or has no result")
        return
    if not len(moves) or game.result is not None:
        raise fail("a running game lists no move or has a result")
    if len(set(moves.tolist())) != len(moves):
        raise fail(f"legal moves repeat: {moves.tolist()}")
    scored, _ = game.greedy_move_scores()
    if sorted(scored.tolist()) != sorted(moves.tolist()):
        raise fail("greedy_move_scores does not list the legal moves")
    listed, actions = encoder.legal_actions(game)
    if list(listed) != list(moves):
        raise fail("encoder.legal_actions is not aligned with legal_move_ids")
    mask = _mask(encoder, game)
    expected = np.zeros_like(mask)
    expected[np.asarray(actions, dtype=np.int64)] = 1
    if len(set(np.asarray(actions).tolist())) != len(moves) or not np.array_equal(mask, expected):
        raise fail("the mask is not one action per legal move")
    for move, action in zip(moves.tolist(), np.asarray(actions).tolist()):
        if encoder.move_to_action(game, move) != action or encoder.action_to_move(game, action) != move:
            raise fail(f"move {move} and action {action} do not map to each other")
    for seat in (0, 1):
        observation = _observe(encoder, game, seat)
        if (observation < low).any() or (observation > high).any():
            raise fail(f"seat {seat}'s observation leaves the declared bounds")
        _check_audit(encoder, game, seat, observation, fail)


def _check_audit(encoder, game, seat: int, observation: np.ndarray, fail) -> None:
    """The encoder's own independent reading of the game, where it offers one (module docstring)."""
    audit = getattr(encoder, "audit_observation", None)
    disagreement = None if audit is None else audit(game, seat, observation)
    if disagreement is not None:
        raise fail(f"seat {seat}'s observation disagrees with the game: {disagreement}")


def _check_apply_undo(definition, encoder, game, move: int) -> None:
    def snapshot():
        observation = _observe(encoder, game, game.to_move).tobytes()
        return game.record(), game.to_move, game.ply, game.result, game.legal_move_ids().tolist(), observation

    for bad in _refusals(game):
        accepted, changed = f"play_id({bad!r}) was accepted", f"the refused play_id({bad!r}) changed the game"
        _check_refused(
            "protocol", definition, game, partial(game.play_id, bad), snapshot, (accepted, changed)
        )
    before = snapshot()
    twin = game.copy()
    game.play_id(move)
    if twin.record() != before[0]:
        raise _fail("protocol", definition, game, "playing on a game changed its copy")
    game.undo()
    if snapshot() != before:
        raise _fail("protocol", definition, game, f"play_id({move}) then undo() is not the same position")


def _check_record(definition, parsed, game) -> None:
    text = game.record()
    replayed = definition.from_record(text, parsed)
    if replayed.record() != text or replayed.legal_move_ids().tolist() != game.legal_move_ids().tolist():
        raise _fail("record", definition, game, "from_record(record()) is another game")
    if replayed.result != game.result:
        raise _fail("record", definition, game, "the replayed game has another result")


def _check_drawings(definition, game) -> None:
    if not isinstance(definition.draw(game), str):
        raise _fail("drawing", definition, game, "draw_text did not return text")
    if definition.draw_picture is not None:
        picture = np.asarray(load(definition.draw_picture)(game))
        if picture.ndim != 3 or picture.shape[2] != 3 or picture.dtype != np.uint8:
            raise _fail("drawing", definition, game, f"draw_picture gave {picture.dtype} {picture.shape}")


# ---------------------------------------------------------------------------- AEC env
def _aec_playout(definition, options, parsed, encoder, seed: int, max_plies: int) -> list[int]:
    env = definition.make_aec(options)
    env.reset(seed=seed)
    game = definition.new_game(parsed)
    rng = np.random.default_rng(seed)
    actions = []
    for _ in range(max_plies):
        agent = env.agent_selection
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if not game.is_terminal:
                raise _fail("AEC env", definition, game, "the env ended a game that runs")
            seat = env.possible_agents.index(agent)
            result = game.result if seat == 0 else -game.result
            if env.rewards[agent] != result:
                raise _fail("AEC env", definition, game, f"{agent}'s final reward is not the result {result}")
            break
        seat = env.possible_agents.index(agent)
        if seat != game.to_move:
            raise _fail("AEC env", definition, game, f"{agent} is to move; the game says seat {game.to_move}")
        if not np.array_equal(observation["observation"], _observe(encoder, game, seat)):
            raise _fail("AEC env", definition, game, "the observation is not the encoder's")
        if not np.array_equal(observation["action_mask"], _mask(encoder, game)):
            raise _fail("AEC env", definition, game, "the mask is not the encoder's")
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        _check_aec_refusal(definition, env, game)
        game.play_id(_move_of(encoder, game, action))
        env.step(action)
        actions.append(action)
    env.close()
    return actions


def _check_aec_refusal(definition, env, game) -> None:
    raw = env.unwrapped
    illegal = np.flatnonzero(_mask(raw.encoder, raw.game) == 0)
    if not illegal.size:
        return
    messages = (
        f"the raw env accepted the illegal action {int(illegal[0])}",
        "a refused action changed the env's game",
    )
    refuse = partial(raw.step, int(illegal[0]))
    _check_refused("AEC env", definition, game, refuse, lambda: raw.game.record(), messages)


def check_aec_env(
    definition: GameDefinition,
    options: dict | None = None,
    *,
    seed: int = 0,
    games: int = 2,
    max_plies: int = 60,
) -> None:
    """The AEC env against a protocol game played beside it, and per seed (module docstring)."""
    parsed = definition.parse_options(options)
    encoder = definition.make_encoder(options)
    for number in range(games):
        _same_twice(
            definition,
            "AEC env",
            partial(_aec_playout, definition, options, parsed, encoder, seed + number, max_plies),
        )


# ---------------------------------------------------------------------------- Gym env
def _gym_episode(definition, env_id: str, options, seed: int, max_plies: int) -> list[bytes]:
    import gymnasium

    env = gymnasium.make(env_id, **dict(options or {}))
    observation, _ = env.reset(seed=seed)
    single: Any = env.unwrapped  # a SingleAgentEnv: its AEC env and game are read
    encoder, rng, seen = single.aec.encoder, np.random.default_rng(seed), [np.asarray(observation).tobytes()]
    actions: list[int] = []  # the learner's, to replay them on a probe env
    lost_once = False
    for _ in range(max_plies):
        game = single.aec.game
        mask = np.asarray(single.action_masks(), dtype=np.int8)
        if not np.array_equal(mask, _mask(encoder, game)):
            raise _fail("Gym env", definition, game, "action_masks() is not the encoder's mask")
        messages = ("an action outside the action space was accepted", "a refused action changed the game")
        refuse = partial(env.step, int(encoder.num_actions))
        _check_refused("Gym env", definition, game, refuse, lambda: single.aec.game.record(), messages)
        before = game.record()
        illegal = np.flatnonzero(mask == 0)
        if illegal.size and not lost_once:  # an illegal action in range loses the episode, game unchanged
            lost_once = True
            probe = gymnasium.make(env_id, **dict(options or {}))
            probe_single: Any = probe.unwrapped
            probe.reset(seed=seed)
            for action in actions:
                probe.step(action)
            _, reward, terminated, _, info = probe.step(int(illegal[0]))
            if (reward, terminated, info.get("illegal_action")) != (-1.0, True, True):
                raise _fail("Gym env", definition, game, "an illegal action did not lose the episode")
            if probe_single.aec.game.record() != before:
                raise _fail("Gym env", definition, game, "an illegal action changed the game")
            probe.close()
        actions.append(int(rng.choice(np.flatnonzero(mask))))
        observation, reward, terminated, truncated, _ = env.step(actions[-1])
        seen.append(np.asarray(observation).tobytes() + np.float64(reward).tobytes())
        if terminated or truncated:
            break
    env.close()
    return seen


def check_gym_env(
    definition: GameDefinition, options: dict | None = None, *, seed: int = 0, max_plies: int = 60
) -> None:
    """The first Gymnasium id of the definition: masks and per-seed determinism (module docstring)."""
    env_id = next(iter(definition.gym_envs))
    _same_twice(
        definition, f"Gym env {env_id}", lambda: _gym_episode(definition, env_id, options, seed, max_plies)
    )


# ---------------------------------------------------------------------------- batch
def check_batch(
    definition: GameDefinition,
    options: dict | None = None,
    *,
    seed: int = 0,
    num_games: int = 4,
    max_plies: int = 60,
) -> None:
    """The batch in lock-step with one protocol game per row (module docstring)."""
    parsed = definition.parse_options(options)
    encoder = definition.make_encoder(options)
    batch = definition.make_batch(num_games, dict(options or {}))
    batch.reset(seed=seed)
    games = [definition.new_game(parsed) for _ in range(num_games)]
    rng = np.random.default_rng(seed)
    for _ in range(max_plies):
        for row, game in enumerate(games):
            _check_row(definition, encoder, batch, row, game)
        actions = np.array([rng.choice(np.flatnonzero(batch.action_mask[row])) for row in range(num_games)])
        _check_batch_refusal(definition, batch, actions, games[0])
        movers = [game.to_move for game in games]
        for game, action in zip(games, actions.tolist()):
            game.play_id(_move_of(encoder, game, action))
        batch.step(actions)
        for row, game in enumerate(games):
            if bool(batch.terminated[row]) != game.is_terminal:
                raise _fail("batch", definition, game, f"row {row} terminated={bool(batch.terminated[row])}")
            if game.is_terminal:
                expected = [float(game.result or 0.0), -float(game.result or 0.0)]
                if batch.rewards[row].tolist() != expected or batch.episode_length[row] != game.ply:
                    raise _fail("batch", definition, game, f"row {row}'s final rewards or episode length")
                final = _observe(encoder, game, movers[row])
                if not np.array_equal(batch.final_observation[row], final):
                    raise _fail("batch", definition, game, f"row {row}'s final observation")
                games[row] = definition.new_game(parsed)
            elif batch.rewards[row].any():
                raise _fail("batch", definition, game, f"row {row} pays a reward before the end")


def _check_row(definition, encoder, batch, row: int, game) -> None:
    if int(batch.to_move[row]) != game.to_move:
        raise _fail("batch", definition, game, f"row {row}: seat {int(batch.to_move[row])} to move")
    if not np.array_equal(batch.action_mask[row], _mask(encoder, game)):
        raise _fail("batch", definition, game, f"row {row}'s mask is not the encoder's")
    if not np.array_equal(batch.observation[row], _observe(encoder, game, game.to_move)):
        raise _fail("batch", definition, game, f"row {row}'s observation is not the encoder's")


def _check_batch_refusal(definition, batch, actions: np.ndarray, game) -> None:
    illegal = np.flatnonzero(batch.action_mask[0] == 0)
    if not illegal.size:
        return
    bad = actions.copy()
    bad[0] = illegal[0]
    messages = (f"row 0 accepted the illegal action {int(illegal[0])}", "a refused step moved a game")
    _check_refused("batch", definition, game, partial(batch.step, bad), partial(_rows_of, batch), messages)


def _rows_of(batch) -> tuple[bytes, ...]:
    """What a step changes in a batch: its observations, masks and seats to move."""
    return batch.observation.tobytes(), batch.action_mask.tobytes(), batch.to_move.tobytes()
