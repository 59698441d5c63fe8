"""`Oscillator`: a Hive player that repeats positions on purpose (for the repetition-draw tests)."""

from hive_envs.hive import PASS_MOVE, move_cell, move_piece
from hive_envs.hive.engine.pieces import NUM_PIECE_SLOTS
from hive_envs.hive.engine.state import PCELL
from hive_envs.players import BasePlayer


class Oscillator(BasePlayer):
    """Moves its Queen to a neighbouring cell and back again, for ever; before the Queen is in play
    (or when it cannot move) the first legal move."""

    def __init__(self, seed=None, name: str = "oscillator"):
        super().__init__(name, seed)
        self.came_from: dict[int, int] = {}  # seat -> the cell its Queen left on its last move

    def choose(self, game, limits=None) -> int:
        seat, ids = game.to_move, [int(m) for m in game.legal_move_ids()]
        queen = seat * NUM_PIECE_SLOTS
        moves = [
            m for m in ids if m != PASS_MOVE and move_piece(m) == queen and game.state[PCELL + queen] >= 0
        ]
        if not moves:
            return ids[0]
        back = [m for m in moves if move_cell(m) == self.came_from.get(seat)]
        move = back[0] if back else moves[0]
        self.came_from[seat] = int(game.state[PCELL + queen])
        return move
