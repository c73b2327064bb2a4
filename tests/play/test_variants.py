"""The catalogue (`solver.play.variants`, `solver.play.presets`): each variant's rules, the
front-ends reading their choices from it, and no variant compared by name elsewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.core.tiles import DISTRIBUTIONS
from solver.play import bots, presets, spellevate_bots
from solver.play.rules import RuleError, Rules
from solver.play.variants import BANANAGRAMS, ENGINE_VARIANTS, SPELLEVATE, VARIANTS, offered, variant_named

SOLVER = Path(__file__).resolve().parents[2] / "solver"


def test_the_catalogue_holds_every_variant_once_and_the_engine_runs_three_rule_sets():
    assert set(VARIANTS) == {"classic", "three-letter", "smoothie", "solo", "spellevate"}
    assert ENGINE_VARIANTS == ("classic", "smoothie", "solo")
    assert offered(SPELLEVATE) == ("spellevate",)
    assert "spellevate" not in offered(BANANAGRAMS)
    with pytest.raises(ValueError, match="choose from"):
        variant_named("speed")


def test_each_variant_builds_the_rules_it_stands_for():
    three = Rules.for_variant(VARIANTS["three-letter"], "fr")
    assert (three.variant, three.min_length, three.lexicon) == ("classic", 3, "fr")
    assert three.distribution == DISTRIBUTIONS["fr"]
    smoothie = Rules.for_variant(VARIANTS["smoothie"], "en")
    assert not smoothie.peel_and_dump and smoothie.hand_size(3) == 144 // 3
    assert Rules.for_variant(VARIANTS["classic"], "en").hand_size(5) == 15
    with pytest.raises(RuleError):
        Rules.for_variant(VARIANTS["spellevate"], "en")  # another game: no Bananagrams hand


def test_a_room_alone_plays_solo_with_the_variant_s_shortest_word():
    from solver.web.bananagrams_table import table_rules
    from solver.web.table import Seat, TableSetup

    assert VARIANTS["classic"].at_table(1).name == "solo"
    assert VARIANTS["classic"].at_table(2).name == "classic"
    setup = TableSetup((Seat("person", "Ann"),), VARIANTS["three-letter"], "en", DISTRIBUTIONS["en"], True, 0, None, 0)
    alone = table_rules(setup)
    assert alone.variant == "solo" and alone.min_length == 3
    assert VARIANTS["smoothie"].at_table(1).name == "smoothie"  # and check_players refuses it
    with pytest.raises(RuleError, match="2 to 8"):
        Rules.for_variant(VARIANTS["smoothie"], "en").check_players(1)


def test_player_counts_come_from_the_variant():
    assert VARIANTS["solo"].check_players(2) is not None
    assert VARIANTS["classic"].check_players(8) is None and VARIANTS["classic"].check_players(9) is not None
    assert VARIANTS["spellevate"].check_players(2) is not None and VARIANTS["spellevate"].check_players(3) is None


def test_every_preset_has_its_line_and_every_line_a_preset():
    assert presets.preset_names(BANANAGRAMS) == (*bots.PRESETS, bots.GREEDY)
    assert presets.preset_names(SPELLEVATE) == tuple(spellevate_bots.PRESETS)
    for game in (BANANAGRAMS, SPELLEVATE):
        assert set(presets.SUMMARIES[game]) == set(presets.preset_names(game))
        for name in presets.preset_names(game):
            presets.check_spec(game, name)
    with pytest.raises(ValueError):
        presets.check_spec(BANANAGRAMS, "simple")  # a Spellevate bot cannot sit at a Bananagrams table


def test_the_front_ends_offer_the_catalogue():
    from solver.cli.game_options import VARIANT_CHOICES
    from solver.protocol.session import Session
    from solver.web.config import WebConfig
    from solver.web.rooms import ROOM_VARIANTS

    assert VARIANT_CHOICES == offered(BANANAGRAMS)
    assert set(ROOM_VARIANTS) == set(VARIANTS) - {"solo"}
    hello = Session().receive('{"type": "hello"}', 0.0)[0]
    assert hello["variants"] == list(ENGINE_VARIANTS) and hello["bots"] == list(presets.preset_names())
    config = WebConfig()
    assert list(config.presets(BANANAGRAMS)) == list(presets.preset_names(BANANAGRAMS))
    assert list(config.presets(SPELLEVATE)) == list(presets.preset_names(SPELLEVATE))


def test_nothing_outside_the_catalogue_compares_a_variant_s_name():
    compare = re.compile(r"""variant\s*(==|!=)\s*["']|variant\s+(not\s+)?in\s*\(""")
    offenders = [
        f"{path.relative_to(SOLVER)}:{number}: {line.strip()}"
        for path in SOLVER.rglob("*.py")
        if path.name != "variants.py"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if compare.search(line)
    ]
    assert not offenders, offenders


def test_the_web_layer_never_asks_which_game_a_table_plays():
    isinstance_of_table = re.compile(r"isinstance\([^)]*(Table|Game)\b")
    offenders = [
        f"{path.name}:{number}"
        for path in (SOLVER / "web").glob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if isinstance_of_table.search(line)
    ]
    assert not offenders, offenders
