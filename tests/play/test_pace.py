"""Bots a person can keep up with (`solver.play.pace`, the presets for people, `pacer`), on the
simulated clock.

1. The table the engine shows: a bot's work shows on its grid when it lands.
2. Why `easy` never calls PEEL beside `medium` (a tile rate below the table's PEELs), and the
   presets for people: a first grid in a few minutes down to about 30 s, well spread.
3. The recorded paces (`pace.json`) are what the benchmark's measure gives.
4. `pacer`: slower beside a slow player, faster beside a fast one, near their tile count;
   `lead` puts it ahead or behind.
Every grid a test looks at goes through `solver.core.grid.validate`.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import replace

import pytest

from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts
from solver.play import presets
from solver.play.bots import BOT_SEARCH, GREEDY, PRESETS, BotSettings, SolverBot, make_bot
from solver.play.cost import work_seconds
from solver.play.hand import Hand
from solver.play.pace import (
    PACE_FILE,
    Pace,
    clock_words,
    first_grid_seconds,
    measure_pace,
    pace_samples,
    placed_timeline,
    play_until,
    preset_pace,
    recorded_paces,
)
from solver.play.rules import Decision, Rules, TableView
from solver.play.variants import BANANAGRAMS
from solver.search import solving
from solver.search.plans import Phase, SearchPlan

PEOPLE = ("beginner", "casual", "club", "expert")


def played(specs: list[str], seed: int, until: float) -> Hand:
    hand = Hand(Rules(), [make_bot(spec) for spec in specs], seed)
    play_until(hand, lambda: hand.clock >= until)
    return hand


def check_grids(hand: Hand, seats: tuple[int, ...] | None = None) -> None:
    """Every grid the table shows (of `seats`, or all) is a valid grid of tiles its player holds."""
    for index, seat in enumerate(hand.seats):
        if seats is not None and index not in seats:
            continue
        grid = hand.table_grid(index)
        if seat.active and grid is not None:
            report = validate(grid, hand.lexicon, min_length=hand.rules.min_length)
            assert report.ok, report.problems()
            assert seat.held.contains(grid.tiles())


def tiles_at(hand: Hand, player: int, when: float) -> int:
    return max((tiles for at, tiles in placed_timeline(hand.ledger, player) if at <= when), default=0)


def charged_speeds(hand: Hand, player: int) -> list[float]:
    """The speed each of the player's decisions was charged at (the jitter left in)."""
    return [
        work_seconds(Decision(c.action, looks=c.looks), 1.0, c.work) / c.seconds
        for c in hand.ledger
        if c.player == player
    ]


# -- 1. the table the engine shows -----------------------------------------------------------------


def test_a_bot_s_grid_shows_on_the_table_when_its_work_lands():
    hand = Hand(Rules(), [make_bot("medium"), make_bot("beginner")], seed=3)
    hand.start()
    hand.advance(0.0)  # both decided at the split: their first grids are work under way
    assert hand.placed(0) == hand.placed(1) == 0 and hand.table_grid(0) is None
    assert hand.seats[0].bot.current_grid() is not None  # the bot itself already knows its grid
    first = first_grid_seconds(hand.ledger, 0)
    assert first is not None
    hand.advance(first)
    assert hand.placed(0) == 21 and hand.placed(1) == 0  # medium's grid landed, beginner still works
    check_grids(hand)
    view = hand.view(1)
    assert view.seat == 1 and view.placed == (21, 0) and view.clock == pytest.approx(first)
    assert view.others_tile_rate() == pytest.approx(21 / first)


def test_the_pace_fields_do_not_change_what_a_view_compares():
    rules = Rules()
    assert TableView(50, 2, rules) == TableView(50, 2, rules, clock=9.0, seat=1, placed=(21, 3))
    assert TableView(50, 2, rules).others_tile_rate() is None  # at the split
    assert TableView(50, 2, rules, clock=10.0, seat=0, placed=(21, 0)).others_tile_rate() == 0.0
    assert TableView(50, 1, rules, clock=10.0, seat=0, placed=(21,)).others_tile_rate() is None  # alone


# -- 2. easy beside medium, and the presets for people ---------------------------------------------


def test_easy_finishes_its_first_grid_beside_medium_but_never_calls_peel():
    """The cause of 'easy never finished its first grid': it does finish it (about 100 s), but
    medium PEELs every 8 s, a tile more than easy places a minute at 0.4x, so its hand
    never empties and it never calls PEEL."""
    hand = played(["easy", "medium"], seed=11, until=240)
    first = first_grid_seconds(hand.ledger, 0)
    assert first is not None and 60 < first < 150
    peels = [e for e in hand.events if e["event"] == "peel"]
    assert peels and all(e["player"] == 1 for e in peels)
    assert tiles_at(hand, 0, 240) >= 21  # its grid did grow
    check_grids(hand)


@pytest.mark.parametrize("name", PEOPLE)
def test_each_preset_for_people_finishes_a_first_grid_alone(name):
    (sample,) = pace_samples(name, 1, seed=11, window=60)
    assert sample.first_grid is not None and sample.first_grid < 4.5 * 60
    assert sample.tiles_per_minute is not None and sample.tiles_per_minute > 0


def test_the_presets_for_people_are_spread_from_minutes_to_seconds():
    paces = [preset_pace(name) for name in PEOPLE]
    assert all(isinstance(pace, Pace) for pace in paces)
    firsts = [pace.first_grid for pace in paces if pace]
    rates = [pace.tiles_per_minute for pace in paces if pace]
    assert firsts == sorted(firsts, reverse=True) and rates == sorted(rates)
    assert 150 <= firsts[0] <= 270  # beginner: 2.5-4.5 min
    assert 90 <= firsts[1] <= 170  # casual: about 2 min
    assert 45 <= firsts[2] <= 100  # club: about a minute
    assert 20 <= firsts[3] <= 45  # expert: about 30 s
    assert all(later / earlier >= 1.4 for earlier, later in zip(firsts[1:], firsts, strict=False))


def test_the_lab_presets_keep_their_settings():
    """The fair-clock results (benchmarks/results/*-strength.md) were measured with these."""
    assert PRESETS["easy"] == BotSettings(
        "easy", level=50, speed=0.4, dump_policy="hardest", node_budget=100, hooks="first", patience=40
    )
    assert PRESETS["medium"].speed == 1.0 and PRESETS["hard"].speed == 2.0
    assert all(PRESETS[name].lead is None for name in ("easy", "medium", "hard", "long", "compact", "reckless"))


# -- 3. the recorded paces --------------------------------------------------------------------------


def test_every_preset_with_a_fixed_pace_has_a_recorded_one_and_a_lobby_line():
    for name in presets.preset_names(BANANAGRAMS):
        line = presets.pace_line(BANANAGRAMS, name)
        if name != GREEDY and PRESETS[name].lead is not None:
            assert line is None  # a pacer follows the table
        else:
            assert line is not None and line.startswith("finishes a 21-tile grid in about ")
    assert set(recorded_paces()) == {
        n for n in presets.preset_names(BANANAGRAMS) if n == GREEDY or PRESETS[n].lead is None
    }
    assert presets.pace_line("spellevate", "simple") is None


@pytest.mark.parametrize("name", ["beginner"])  # the rest: the slow test below
def test_the_recorded_pace_is_what_the_benchmark_measures(name):
    """pace.json holds bench_pace.py's medians; the measure is a pure function of the seeds."""
    how = json.loads(PACE_FILE.read_text(encoding="utf-8"))
    measured = measure_pace(name, tuple(how["players"]), how["hands"], how["seed"])
    recorded = preset_pace(name)
    assert recorded is not None
    assert measured.first_grid == pytest.approx(recorded.first_grid, rel=0.02)
    assert measured.tiles_per_minute == pytest.approx(recorded.tiles_per_minute, rel=0.02)


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in presets.preset_names(BANANAGRAMS) if n not in ("beginner", "pacer")])
def test_every_recorded_pace_is_what_the_benchmark_measures(name):
    test_the_recorded_pace_is_what_the_benchmark_measures(name)


def test_the_bots_search_with_their_own_plan_so_tuning_the_engine_leaves_their_pace(monkeypatch):
    """The recorded paces hold whatever `bananas solve`'s passes become: every preset names
    BOT_SEARCH, and a bot's grids and looks follow the plan it names, not the engine's."""
    assert all(settings.search is BOT_SEARCH for settings in PRESETS.values())

    def opening(bot) -> list:
        hand = Hand(Rules(), [bot], seed=4)
        play_until(hand, lambda: hand.clock >= 1.0)  # the first grid, decided at the split
        return [(c.action, c.looks, c.seconds) for c in hand.ledger] + [bot.current_grid()]

    before = opening(make_bot("club"))
    other = SearchPlan((Phase(0, 40, 3_000), *BOT_SEARCH.small_hands[1:]), BOT_SEARCH.large_hands)
    monkeypatch.setattr(solving, "FIRST_GRID_PLAN", other)
    monkeypatch.setattr(solving, "BEST_GRID_PLAN", other)
    assert opening(make_bot("club")) == before
    assert opening(SolverBot(replace(PRESETS["club"], search=other))) != before


def test_clock_words_say_seconds_then_minutes():
    assert clock_words(31) == "30 s" and clock_words(62) == "60 s"
    assert clock_words(130) == "2 min" and clock_words(200) == "3.5 min"


# -- 4. pacer ---------------------------------------------------------------------------------------


def test_pacer_slows_down_beside_a_slow_player_and_speeds_up_beside_a_fast_one():
    slow = played(["pacer", "medium:speed=0.4"], seed=11, until=240)
    fast = played(["pacer", "medium:speed=2"], seed=11, until=240)
    for hand in (slow, fast):
        check_grids(hand)
    beside_slow = statistics.median(charged_speeds(slow, 0)[1:])  # the first: its own pace, at the split
    beside_fast = statistics.median(charged_speeds(fast, 0)[1:])
    assert beside_slow < PRESETS["pacer"].speed < 1.5 < beside_fast
    # It keeps about the other's tile count, both times (a tile's hook or so either way).
    for hand in (slow, fast):
        mine, theirs = tiles_at(hand, 0, 240), tiles_at(hand, 1, 240)
        assert abs(mine - theirs) <= max(4, 0.15 * theirs), (mine, theirs)


class ScriptedPerson:
    """A remote player (as the browser's people are) whose grid grows at a set rate, tiles
    a minute of the hand's clock, a row of its own tiles (only its size counts here)."""

    name, speed = "scripted", 1.0

    def __init__(self, tiles_per_minute: float):
        self.rate = tiles_per_minute / 60
        self.tiles = TileCounts()
        self.clock = lambda: 0.0  # the hand's clock, set once the hand exists

    def start(self, tiles: TileCounts, rules: Rules, seed: int) -> None:
        self.tiles = tiles

    def receive(self, tiles: TileCounts) -> None:
        self.tiles = self.tiles + tiles

    def give_back(self, tile: str) -> None:
        self.tiles = self.tiles - TileCounts.from_letters(tile)

    def holding(self) -> TileCounts:
        return self.tiles

    def decide(self, view: TableView) -> Decision:
        return Decision("remote")

    def current_grid(self) -> Grid | None:
        shown = self.tiles.letters()[: int(self.rate * self.clock())]
        return Grid.from_cells({(0, col): letter for col, letter in enumerate(shown)}) if shown else None


def beside_scripted(tiles_per_minute: float, until: float) -> Hand:
    person = ScriptedPerson(tiles_per_minute)
    hand = Hand(Rules(), [make_bot("pacer"), person], seed=5)
    person.clock = lambda: hand.clock
    play_until(hand, lambda: hand.clock >= until)
    return hand


def test_pacer_follows_a_scripted_person_s_grid_slow_or_fast():
    """The browser's case: a person's grid, as it stands, is what the pacer paces itself by."""
    slow, fast = beside_scripted(8, until=300), beside_scripted(24, until=300)
    assert statistics.median(charged_speeds(slow, 0)[1:]) < statistics.median(charged_speeds(fast, 0)[1:])
    for hand in (slow, fast):
        check_grids(hand, seats=(0,))  # the pacer's (the scripted row is no grid to check)
        mine, theirs = tiles_at(hand, 0, hand.clock), hand.placed(1)
        assert theirs is not None and abs(mine - theirs) <= max(4, 0.2 * theirs), (mine, theirs)
    assert tiles_at(fast, 0, 300) > tiles_at(slow, 0, 300) + 20


def test_pacer_keeps_near_the_other_s_tile_count_as_the_hand_goes():
    hand = played(["pacer", "club"], seed=12, until=300)
    check_grids(hand)
    for when in (120, 180, 240, 300):
        mine, theirs = tiles_at(hand, 0, when), tiles_at(hand, 1, when)
        assert abs(mine - theirs) <= max(4, 0.15 * theirs), (when, mine, theirs)


def test_lead_puts_the_pacer_ahead_or_behind():
    ahead = played(["pacer:lead=0.2", "club"], seed=12, until=240)
    behind = played(["pacer:lead=-0.2", "club"], seed=12, until=240)
    assert tiles_at(ahead, 0, 240) > tiles_at(ahead, 1, 240)
    assert tiles_at(behind, 0, 240) < tiles_at(behind, 1, 240)
    assert tiles_at(ahead, 0, 240) > tiles_at(behind, 0, 240)


def test_pacer_alone_plays_at_its_own_speed():
    hand = played(["pacer"], seed=11, until=120)
    assert all(speed == pytest.approx(PRESETS["pacer"].speed, rel=0.06) for speed in charged_speeds(hand, 0))


@pytest.mark.parametrize("spec", ["pacer:lead=3", "pacer:lead=-1", "pacer:lead=nan"])
def test_lead_out_of_range_is_refused(spec):
    with pytest.raises(ValueError):
        make_bot(spec)


def test_lead_none_is_a_fixed_pace_bot():
    bot = make_bot("pacer:lead=none")
    bot.start(TileCounts.from_letters("CATDOG"), Rules(), 0)
    assert bot.settings.lead is None and bot.speed == PRESETS["pacer"].speed
