"""A `GameDefinition` part takes the object itself or a ``"module:attribute"`` text, imported on first
read; `ref` gives what was written, which registration hands to PettingZoo unimported."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hive_envs.core.definition import EnvParts, Evaluation, GameDefinition, Presentation
from hive_envs.hoyito.definition import HOYITO
from hive_envs.hoyito.encoding import HoyitoEncoding
from hive_envs.hoyito.engine.game import HoyitoGame
from hive_envs.hoyito.engine.options import HoyitoOptions


def parts(encoder=HoyitoEncoding, batch=None, searcher=None, **given) -> dict:
    return {
        "name": "toy",
        "title": "Toy",
        "options": HoyitoOptions,
        "new_game": HoyitoGame.from_options,
        "from_record": HOYITO.from_record,
        "envs": EnvParts(encoder=encoder, batch=batch),
        "presentation": Presentation(label=str, seat_names=("A", "B")),
        "evaluation": Evaluation(searcher=searcher),
        **given,
    }


def test_a_text_part_reads_as_the_object_it_names_and_ref_gives_the_text():
    text = "hive_envs.hoyito.engine.game:HoyitoGame.from_options"
    toy = GameDefinition(**parts(new_game=text, encoder="hive_envs.hoyito.encoding:HoyitoEncoding"))
    assert toy.new_game == HoyitoGame.from_options and toy.encoder is HoyitoEncoding
    assert toy.ref("new_game") == text
    assert toy.game({"holes_per_row": 12}).record() == HoyitoGame.from_options(HoyitoOptions(12)).record()


def test_an_object_part_is_kept_as_given():
    toy = GameDefinition(**parts(searcher=HoyitoGame))
    assert toy.searcher is HoyitoGame and toy.ref("searcher") is HoyitoGame
    assert toy.batch is None and toy.score_text(None) == ""  # the defaults
    assert toy.envs.batch is None and toy.presentation.score_text is toy.score_text  # the same fields


def test_a_sub_record_of_the_wrong_kind_is_refused():
    with pytest.raises(ValueError, match="a definition's presentation must be a Presentation"):
        GameDefinition(**parts(presentation=Evaluation()))


def test_the_package_definitions_keep_their_parts_as_texts_until_read():
    assert HOYITO.ref("batch") == "hive_envs.hoyito.batch:HoyitoBatch"
    assert HOYITO.ref("aec_env") == "hive_envs.hoyito_v0:env"
    assert replace(HOYITO, name="copy").options is HoyitoOptions


@pytest.mark.parametrize("text", ["hive_envs.hoyito.batch", "HoyitoBatch", "a:b:c", "", "a b:c"])
def test_a_part_text_not_of_the_form_module_attribute_is_refused(text):
    with pytest.raises(
        ValueError, match=f"batch must be an object or a 'module:attribute' text, got {text!r}"
    ):
        GameDefinition(**parts(batch=text))


def test_ref_of_a_field_that_is_not_a_part_is_refused():
    with pytest.raises(
        ValueError, match="a game definition has no part 'name'; its parts are aec_env, batch, draw_picture"
    ):
        HOYITO.ref("name")


def test_a_missing_part_is_a_type_error_and_fields_are_keywords():
    with pytest.raises(TypeError, match="encoder"):
        EnvParts()
    with pytest.raises(TypeError, match="presentation"):
        GameDefinition(**{k: v for k, v in parts().items() if k != "presentation"})
    with pytest.raises(TypeError):
        GameDefinition("toy", "Toy")  # type: ignore[misc]


def test_with_parts_replaces_each_field_where_it_lives():
    copy = HOYITO.with_parts(name="copy", batch=None, ladder=("random",))
    assert (copy.name, copy.envs.batch, copy.evaluation.ladder) == ("copy", None, ("random",))
    assert copy.presentation is HOYITO.presentation and HOYITO.ladder[-1] == "alphabeta:6"  # the rest kept
    with pytest.raises(ValueError, match="a game definition has no field colour"):
        HOYITO.with_parts(colour="red")
