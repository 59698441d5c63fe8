"""A position from a lost match game, shared by the threat search's and the tactical check's tests."""

from hive_envs.hive import HiveGame

# Black to move, ply 31 of a game `hive_base@T=1` lost to `alphabeta:3` (docs/results/
# hive_base_T1_tactics_vs_alphabeta3.json): it played `bB1 /wG1`, after which white surrounds the black
# Queen by force in five moves of its own; a 3-ply search proves nothing, and 13 of the 16 moves are
# not flagged by the threat search.
DEEP_LOSS_POSITION = (
    "Base;InProgress;Black[16];wG1;bS1 wG1-;wQ /wG1;bA1 bS1/;wA1 \\wG1;bQ bS1\\;wA1 bA1-;bA2 \\bA1;"
    "wA1 bA2/;bA3 bA1-;wG2 \\wG1;bB1 /bQ;wA2 /wG2;bA3 -wA2;wA3 wA1-;bS2 -bA3;wA3 \\bS2;bB2 /bA3;"
    "wA3 bQ-;bB2 /wA2;wQ bB2\\;bS2 /wQ;wB1 wA3\\;bA3 /wB1;wB2 wA3/;bB1 /bS1;wB2 wA3;bG1 /bQ;wB2 /wA3;"
    "bG1 \\wG2;wB1 bA3"
)
DEEP_LOSS = "bB1 /wG1"


def deep_loss() -> tuple[HiveGame, HiveGame]:
    """The position and the position after the losing move (white to move)."""
    game = HiveGame.from_gamestring(DEEP_LOSS_POSITION)
    after = game.copy()
    after.play(DEEP_LOSS)
    return game, after
