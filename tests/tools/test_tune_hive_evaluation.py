"""`tools/tune_hive_evaluation.py`: the rows it records, the fit, and the match of two weight vectors."""

import json

import numpy as np
import pytest

from hive_envs.hive.search.evaluation import NUM_TERMS, RULE_WEIGHTS, TERM_NAMES
from tools import tune_hive_evaluation as tune


def test_a_game_gives_one_row_per_position_after_the_opening_and_the_result_for_its_mover():
    terms, results = tune.play_game((5, 1, RULE_WEIGHTS.tolist()))
    assert terms.shape == (len(results), NUM_TERMS) and len(results) > 0
    assert set(np.unique(results)) <= {0.0, 0.5, 1.0}
    assert np.all(terms[:, TERM_NAMES.index("to_move")] == 1)
    # This seed's game is decided and the players alternate (no pass in it): consecutive positions'
    # movers get opposite results.
    assert results[0] != 0.5
    assert np.all(results[:-1] + results[1:] == 1.0)


def test_the_fit_lowers_the_training_loss_and_writes_every_term(tmp_path):
    out, data = tmp_path / "fit.json", tmp_path / "rows.npz"
    report = tune.main(
        ["--games", "6", "--depth", "1", "--workers", "1", "--data", str(data), "--out", str(out)]
    )
    assert data.exists() and json.loads(out.read_text()) == report
    assert list(report["weights"]) == list(TERM_NAMES)
    # Rounded weights may cost a little of what the fit gained.
    assert report["loss_train"]["fitted"] <= report["loss_train"]["start"] + 1e-3
    again = tune.main(["--data", str(data), "--workers", "1"])  # the saved rows, not new games
    assert again["rows"] == report["rows"]


def test_a_weight_vector_against_itself_scores_one_half_from_swapped_seats():
    """Deterministic searchers with the same weights: each opening's two games mirror each other."""
    result = tune.match(RULE_WEIGHTS, RULE_WEIGHTS, 4, 1, 1, 7)
    assert result["wins"] + result["draws"] + result["losses"] == 4
    assert result["score"] == 0.5


def test_starting_weights_are_read_from_a_report_naming_every_term(tmp_path):
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"weights": dict(zip(TERM_NAMES, RULE_WEIGHTS.tolist()))}))
    np.testing.assert_array_equal(tune.read_weights(str(path)), RULE_WEIGHTS)
    for bad in (
        {"destinations": 1},
        {**dict.fromkeys(TERM_NAMES, 1), "queen": 2},
        dict.fromkeys(TERM_NAMES, 0.5),
    ):
        path.write_text(json.dumps({"weights": bad}))
        with pytest.raises(ValueError, match="w.json"):
            tune.read_weights(str(path))
