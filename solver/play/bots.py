"""Bot players: the solver-backed bot, its presets, and a greedy baseline.

Every bot has the small interface of `solver.play.rules.Bot`: it is dealt tiles (`start`),
receives tiles (PEEL draws, DUMP results), gives one back (a DUMP), and `decide`s: build
its grid and call PEEL, DUMP or BANANAS, or wait. A tournament, the engine protocol or a
front-end drives every bot the same way. The referee (`solver.play.hand`, its cost model
`solver.play.cost`) measures the tiles a decision lays, moves and lifts from the grids the
bot shows; a bot reports only its looks (positions examined for words: one search node each).

Settings (`BotSettings`); the ones marked * are the strategy levers that
benchmarks/bench_strength.py measures::

    level        English vocabulary: SCOWL size 35/50/60/70/80 (easy bots use common
                 words); None = the whole word list. Ignored for other languages.
    speed        multiplies the simulated clock's rate (2.0 works twice as fast)
    dump_policy* advice (Monte-Carlo estimate, its looks charged) | hardest (dump the
                 hardest letter) | never
    risk         chance, when stuck at the end, of forcing the leftover tiles onto the
                 grid and calling BANANAS anyway (exercises ROTTEN BANANA)
    strategy*    long-words (long words first, the solver's default order) | compact
                 (full re-solves look for the smallest bounding box within the budget)
    node_budget  search nodes per search call of a rebuild (a full re-solve gets four
                 times as many)
    hooks*       cheap (one new tile goes where it forms the fewest words: one look) |
                 first (where the search first finds room)
    rebuild*     the last tier tried while a DUMP is possible: hook (never move a tile),
                 lift, rebuild or resolve (see `solver.search.board`); with no DUMP possible the
                 bot goes all the way
    opening*     search nodes the first grid's search goes on past its first grid, keeping
                 the grid with the fewest words (each word is WORD_SECONDS on the clock, each
                 node a look): 0 = the first grid found
    opening_words*  the opening goes on only past a first grid of more words than this (0:
                 past any): a grid of few words seldom has a shorter one within a few
                 nodes, and the nodes are charged whether or not one is found
    side_words*  the first grid's move order: a move's score loses this much per side word it
                 makes (a tile laid beside the grid across the move: a word of its own, WORD_SECONDS
                 on the clock), so moves that make fewer words are tried first; 0 = the
                 search's own order. No search is added: the same search under the same node
                 cap, its moves in another order (every node still a look)
    side_words_everywhere*  yes: every search of the bot orders its moves so (its rebuilds'
                 too: hooks, lifts, re-solves), not only the first grid's
    room*        the letters a flexible bot keeps hook spots open for (AWKWARD: C J Q V Z)
    patience*    looks a decision may spend placing tiles before the bot gives up and
                 dumps (dump timing: small = dump early); None = the node budgets only.
                 With no DUMP possible there is no such limit.
    lead         None: the bot works at `speed`. A number: it keeps pace with the other
                 players instead (`pacing_speed`): it sets its speed for each decision so
                 that its grid holds (1 + lead) times the tiles the others' grids hold on
                 average, at their rate so far (0.1: a little ahead, -0.1: a little behind);
                 `speed` is its pace until the others have shown a tile.
    search       the search's passes (a `solver.search.plans.SearchPlan`): BOT_SEARCH
                 for every preset, not the engine's, so tuning `bananas solve` leaves the
                 bots' play and pace as measured

The presets: `beginner`, `casual`, `club` and `expert` are named for the person meeting them
(their paces, measured by benchmarks/bench_pace.py, are `solver.play.pace`); `pacer` keeps
pace with the table; `easy`, `medium`, `hard`, `long`, `compact`, `reckless` (and `greedy`)
are the strength lab's (benchmarks/bench_strength.py). A bot slower than the table's PEELs
never empties its hand (each PEEL is a tile for everyone): `easy` (0.4x) places about 6 tiles
a minute at a table where `medium` PEELs 8 times a minute, so it never calls PEEL there.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from solver.core.grid import Grid, validate
from solver.core.tiles import HARD_FIRST, TileCounts
from solver.lexicon.loader import LEVELS, get_lexicon, language_of
from solver.play.cost import measure_work, work_seconds
from solver.play.rules import Decision, Rules, TableView
from solver.search.board import TIERS, Board, dump_advice
from solver.search.plans import Phase, SearchPlan

AWKWARD = "CJQVZ"  # single tiles that fail to hook a third to a half of the time (measured)
ADVICE_SAMPLES = 4  # Monte-Carlo draws per candidate letter of a bot's dump advice
ADVICE_TRIAL_BUDGET = 12  # search nodes per tier of each trial: every one is a look on the clock
PACING_SPEEDS = (0.1, 3.0)  # the slowest and the fastest a pacing bot works (`lead`)
# The search passes the presets' paces (pace.json, bench_pace) and the strength lab's results
# were measured with, written out rather than taken from the engine: the engine's passes
# (`solver.search.solving.engine_plan`) are tuned for `bananas solve`'s speed (looking for a
# first grid, its small hands' first passes list moves within 200 and 700 DAWG steps a node;
# these, 6,000), and a bot's grids, its looks and so its pace on the clock follow the passes it
# searches with.
BOT_SEARCH = SearchPlan(
    small_hands=(Phase(0, 6_000, 3_000), Phase(8, 20_000, 20_000), Phase(0, 1 << 40, None)),
    large_hands=(Phase(16, 4_000, 400), Phase(48, 400_000, None)),
)


@dataclass(frozen=True)
class BotSettings:
    """The settings of a SolverBot (README, "Bot presets"): `level` (vocabulary: a SCOWL size of LEVELS, None
    for every word), `speed` (a multiple of a practised player's pace, > 0), `dump_policy` (advice, hardest
    or never), `risk` (0 to 1: the chance of an unchecked BANANAS when stuck), `strategy` (long-words or
    compact), `node_budget` (search nodes per rebuild, 1 to 1,000,000), `hooks` (cheap or first), `rebuild`
    (how far it goes while it could dump), `patience` (looks before dumping), `endgame` (no dumps with
    fewer PEELs left), `flexible` (keep hook spots for the letters of `room`), `opening` (nodes the first grid's
    search goes on for fewer words), `opening_words` (only past a first grid of more words), `side_words` (the
    first grid's moves that make fewer side words first), `side_words_everywhere` (every search's too), `lead` (pacer:
    its grid's lead on the table's, None for a fixed speed), `search` (the search's passes: BOT_SEARCH).
    ValueError for a value out of range.
    """

    name: str = "medium"
    level: int | None = 70
    speed: float = 1.0
    dump_policy: str = "hardest"
    risk: float = 0.0
    strategy: str = "long-words"
    node_budget: int = 400
    hooks: str = "cheap"
    rebuild: str = "resolve"
    patience: int | None = 40
    endgame: int = 0
    flexible: bool = False
    opening: int = 0
    opening_words: int = 0
    side_words: float = 0.0
    side_words_everywhere: bool = False
    room: str = AWKWARD
    lead: float | None = None
    search: SearchPlan = BOT_SEARCH

    def __post_init__(self) -> None:
        if self.dump_policy not in ("advice", "hardest", "never"):
            raise ValueError(f"unknown dump policy {self.dump_policy!r}")
        if self.strategy not in ("long-words", "compact"):
            raise ValueError(f"unknown strategy {self.strategy!r}")
        if self.hooks not in ("cheap", "first"):
            raise ValueError(f"unknown hooks setting {self.hooks!r} (cheap or first)")
        if self.rebuild not in TIERS[1:5]:
            raise ValueError(f"unknown rebuild setting {self.rebuild!r} (one of {', '.join(TIERS[1:5])})")
        if not 0.0 <= self.risk <= 1.0:
            raise ValueError(f"risk must be from 0 to 1, got {self.risk:g}")
        if not (math.isfinite(self.speed) and self.speed > 0):
            raise ValueError(f"speed must be a positive number, got {self.speed:g}")
        if self.level not in LEVELS + (None,):
            raise ValueError(f"vocabulary level must be one of {', '.join(map(str, LEVELS))} or none")
        if not 1 <= self.node_budget <= 1_000_000:
            raise ValueError("node_budget must be between 1 and 1,000,000")
        if self.patience is not None and not 1 <= self.patience <= 1_000_000:
            raise ValueError("patience must be between 1 and 1,000,000 looks, or none")
        if not self.room.isascii() or not self.room.isalpha() or not self.room.isupper():
            raise ValueError("room must be capital letters A-Z (the letters a flexible bot keeps hook spots for)")
        if not 0 <= self.opening <= 1000:
            raise ValueError("opening must be between 0 and 1,000 search nodes")
        if not 0 <= self.opening_words <= 144:
            raise ValueError("opening_words must be between 0 and 144 words")
        if not (math.isfinite(self.side_words) and 0.0 <= self.side_words <= 100.0):
            raise ValueError("side_words must be from 0 to 100 (a move-order weight per side word)")
        if not 0 <= self.endgame <= 144:
            raise ValueError("endgame must be between 0 and 144 PEELs")
        if self.lead is not None and not (math.isfinite(self.lead) and -0.9 <= self.lead <= 2.0):
            raise ValueError("lead must be between -0.9 and 2.0 (a fraction ahead of the others), or none")


PRESETS = {
    # For people: paced from a first 21-tile grid in about 3.5 min (beginner) to about 30 s
    # (expert) on the game's clock (solver.play.pace), with vocabulary and search to match.
    "beginner": BotSettings("beginner", level=50, speed=0.22, node_budget=100, hooks="first", patience=40, endgame=0),
    "casual": BotSettings("casual", level=60, speed=0.33, node_budget=200, patience=30, endgame=0),
    "club": BotSettings("club", level=70, speed=0.67, node_budget=400, patience=20, endgame=5),
    "expert": BotSettings("expert", level=None, speed=1.35, node_budget=800, patience=10, endgame=8, flexible=True),
    "pacer": BotSettings("pacer", level=70, speed=0.5, node_budget=400, patience=20, endgame=5, lead=0.0),
    # The strength lab's: graded by vocabulary, search effort and strategy (and speed: easy works at 0.4 times a
    # practised player's pace, so that a casual player can beat it in real time).
    "easy": BotSettings(
        "easy", level=50, speed=0.4, dump_policy="hardest", node_budget=100, hooks="first", patience=40
    ),
    "medium": BotSettings(
        "medium", level=70, speed=1.0, dump_policy="hardest", node_budget=400, patience=20, endgame=5
    ),
    "hard": BotSettings(
        "hard", level=None, speed=2.0, dump_policy="advice", node_budget=2000, patience=5, endgame=10, flexible=True
    ),
    # What the strategy lab found for hard at equal pace (benchmarks/results/*-strategy-first-grid.md):
    # hard's settings, every search's moves that make fewer side words first. 59.6% of 1,200 games
    # against hard on deals no study dealt from.
    "tuned": BotSettings(
        "tuned",
        level=None,
        speed=2.0,
        dump_policy="advice",
        node_budget=2000,
        patience=5,
        endgame=10,
        flexible=True,
        side_words=3.0,
        side_words_everywhere=True,
    ),
    "long": BotSettings("long", level=None, speed=1.0, strategy="long-words", node_budget=800),
    "compact": BotSettings("compact", level=None, speed=1.0, strategy="compact", node_budget=800),
    "reckless": BotSettings("reckless", level=60, speed=1.5, risk=1.0, node_budget=200, patience=3),
}


class SolverBot:
    """A bot built on the numba solver and the live-play rebuilds (`solver.search.board`)."""

    def __init__(self, settings: BotSettings = PRESETS["medium"]):
        self.settings = settings
        self.name = settings.name
        self.speed = settings.speed
        self.board: Board | None = None
        self.forced: Grid | None = None  # a risky bot's unchecked grid
        self.rng = np.random.default_rng(0)
        self.rules = Rules()
        # What the referee will charge a pacing bot's next decision for (`pacing_speed`).
        self.last_shown: Grid | None = None
        self.drawn = self.returned = 0

    def start(self, tiles: TileCounts, rules: Rules, seed: int) -> None:
        """Bot.start: a Board on the hand's word list (its `level` of vocabulary, English only), seeded by `seed`."""
        level = self.settings.level if language_of(rules.lexicon) == "en" else None
        lexicon = get_lexicon(rules.lexicon, level)
        self.rules = rules
        self.rng = np.random.default_rng(seed)
        self.forced = None
        self.speed = self.settings.speed
        self.last_shown, self.drawn, self.returned = None, 0, 0
        self.board = Board(
            lexicon,
            hand=tiles,
            min_length=rules.min_length,
            seed=None,
            time_limit=5.0,
            node_budget=self.settings.node_budget,
            plan=self.settings.search,
        )
        self.board.cheap_hooks = self.settings.hooks == "cheap"
        self.board.opening = self.settings.opening
        self.board.opening_words = self.settings.opening_words
        self.board.side_words = self.settings.side_words
        self.board.side_words_everywhere = self.settings.side_words_everywhere
        if self.settings.strategy == "compact":
            self.board.objective = "compact"
        if rules.kind.search_objective(rules) != "any":
            self.board.objective = rules.kind.search_objective(rules)  # e.g. solo scored by fewest words

    def receive(self, tiles: TileCounts) -> None:
        """Bot.receive: the tiles join the hand."""
        assert self.board is not None  # start() made the board
        self.board.hand = self.board.hand + tiles
        self.drawn += len(tiles)

    def give_back(self, tile: str) -> None:
        """Bot.give_back: the dumped tile leaves the hand."""
        assert self.board is not None  # start() made the board
        self.board.hand = self.board.hand - TileCounts.from_letters(tile)
        self.returned += 1

    def holding(self) -> TileCounts:
        """Bot.holding: the grid's tiles and the hand's (none before `start`)."""
        return self.board.tiles if self.board else TileCounts()

    def current_grid(self) -> Grid | None:
        """Bot.current_grid: the board's grid, or a risky BANANAS's unchecked grid."""
        return self.forced or (self.board.grid if self.board else None)

    def decide(self, view: TableView) -> Decision:
        """Bot.decide: build the grid (`play`) and, for a pacing bot (`lead`), set the speed this work lands at."""
        decision = self.play(view)
        if self.settings.lead is not None:
            self.speed = self.pacing_speed(view, decision)
        return decision

    def pacing_speed(self, view: TableView, decision: Decision) -> float:
        """The speed at which this decision's work lands when the others, at their tile rate
        so far, will have grids of its grid's size / (1 + lead): the referee's charge for it
        (the cost model on the work since the last decision) spread over the time until then."""
        grid, shown = self.current_grid(), self.last_shown
        work = measure_work(shown, grid, drawn=self.drawn, returned=self.returned)
        self.last_shown, self.drawn, self.returned = grid, 0, 0
        rate = view.others_tile_rate()
        slowest, fastest = PACING_SPEEDS
        if rate is None or (rate == 0 and shown is None):
            return self.settings.speed  # nobody has shown a tile yet: its own pace
        if rate == 0:
            return slowest  # its grid shows, the others' do not yet: wait for them
        assert self.settings.lead is not None  # only a pacing bot asks
        tiles = grid.tile_count if grid is not None else 0
        lands = tiles / (rate * (1 + self.settings.lead))  # clock time of that moment
        if lands <= view.clock:
            return fastest  # behind: catch up
        return min(fastest, max(slowest, work_seconds(decision, 1.0, work) / (lands - view.clock)))

    def play(self, view: TableView) -> Decision:
        """Build the grid and choose the call (the work `decide` reports)."""
        self.forced = None  # a refused risky BANANAS leaves the real grid in play
        assert self.board is not None  # start() made the board
        if len(self.board.hand) == 0 and self.board.grid is not None:
            return self.call_when_done(view, Decision("wait"))
        # While a DUMP is possible the bot rebuilds only so far, with so much patience (a
        # risky bot is as impatient before gambling on BANANAS); otherwise placing its
        # tiles is the only way on.
        can_dump = self.dumps(view)
        gambles = view.can_bananas and self.settings.risk > 0
        self.board.patience = self.settings.patience if can_dump or gambles else None
        if self.settings.flexible:  # keep room for the awkward tiles still to come
            self.board.keep_open = self.awkward_to_come()
        result = self.board.rebuild(up_to=self.settings.rebuild if can_dump else "resolve")
        work = Decision("wait", looks=result.nodes)  # a search node is one look
        if result.ok:
            return self.call_when_done(view, work)
        return self.when_stuck(view, work)

    def awkward_to_come(self) -> TileCounts:
        """The letters of its `room` setting (AWKWARD by default) whose hook spots a flexible bot keeps
        open: every one it has not seen, since any may still be drawn."""
        unseen = self.rules.distribution - self.board.tiles if self.board else self.rules.distribution
        return TileCounts.from_letters("".join(ch for ch in unseen.letters() if ch in self.settings.room))

    def dumps(self, view: TableView) -> bool:
        """Whether the bot would DUMP now: not in the endgame (fewer PEELs left than its
        `endgame` setting), where three more tiles cost more than any rebuild."""
        peels_left = view.bunch // max(view.active, 1)
        return view.can_dump and self.settings.dump_policy != "never" and peels_left >= self.settings.endgame

    def call_when_done(self, view: TableView, work: Decision) -> Decision:
        """The call once every tile is placed: BANANAS when allowed, else PEEL when allowed, else wait."""
        assert self.board is not None  # start() made the board
        if view.can_bananas:
            work.action, work.grid = "bananas", self.board.grid
        elif view.can_peel:
            work.action = "peel"
        return work

    def when_stuck(self, view: TableView, work: Decision) -> Decision:
        """The call when tiles are left over: a risky BANANAS (probability `risk`), a DUMP when the bot dumps
        now, else wait.
        """
        assert self.board is not None  # start() made the board
        if view.can_bananas and self.rng.random() < self.settings.risk:
            self.forced = force_tiles(self.board.grid, self.board.hand)
            work.action, work.grid = "bananas", self.forced
            return work
        if self.dumps(view):
            work.action, work.tile = "dump", self.choose_dump(work)
        return work

    def choose_dump(self, work: Decision) -> str:
        """The tile to dump; the looks an estimate takes are added to `work`."""
        assert self.board is not None  # start() made the board
        letters = self.board.hand.letters()
        if self.settings.dump_policy == "advice" and self.board.grid is not None and len(set(letters)) > 1:
            bunch = self.rules.distribution - self.board.tiles  # unseen tiles, as far as this bot knows
            advice = dump_advice(
                self.board,
                bunch,
                samples=ADVICE_SAMPLES,
                seed=int(self.rng.integers(1 << 31)),
                time_per_try=1.0,
                trial_budget=min(self.settings.node_budget, ADVICE_TRIAL_BUDGET),
                known_stuck=True,
            )
            work.looks += advice.nodes
            if advice.recommended:
                return advice.recommended
        return min(letters, key=HARD_FIRST.index)


def force_tiles(grid: Grid | None, hand: TileCounts) -> Grid:
    """Lay the unplaced tiles in a row under the grid, unchecked (a risky BANANAS)."""
    cells = dict(grid.cells()) if grid is not None else {}
    row = max((r for r, _ in cells), default=-1) + 2
    for col, letter in enumerate(hand.letters()):
        cells[(row, col)] = letter
    return Grid.from_cells(cells)


# -- the greedy baseline ----------------------------------------------------------------


class GreedyBot:
    """A baseline in the style of public greedy engines: lay the longest word, then attach
    the longest word that crosses one grid letter (checked by the validator), keep going;
    when nothing attaches, dump the hardest letter. No backtracking, no rebuilds.
    `max_word` caps the words it lays (short words instead of the longest)."""

    def __init__(self, name: str = "greedy", speed: float = 1.0, level: int | None = None, max_word: int | None = None):
        if not (math.isfinite(speed) and speed > 0):
            raise ValueError("speed must be a positive number")
        if level not in LEVELS + (None,):
            raise ValueError(f"vocabulary level must be one of {', '.join(map(str, LEVELS))} or none")
        if max_word is not None and not 2 <= max_word <= 144:
            raise ValueError("max_word must be between 2 and 144 letters, or none")
        self.name = name
        self.speed = speed
        self.level = level
        self.max_word = max_word
        self.cells: dict[tuple[int, int], str] = {}
        self.hand = TileCounts()

    def start(self, tiles: TileCounts, rules: Rules, seed: int) -> None:
        """Bot.start: an empty grid, the hand, the word list (at `level`, English only)."""
        self.rules = rules
        self.lexicon = get_lexicon(rules.lexicon, self.level if language_of(rules.lexicon) == "en" else None)
        self.cells = {}
        self.hand = tiles

    def receive(self, tiles: TileCounts) -> None:
        """Bot.receive: the tiles join the hand."""
        self.hand = self.hand + tiles

    def give_back(self, tile: str) -> None:
        """Bot.give_back: the dumped tile leaves the hand."""
        self.hand = self.hand - TileCounts.from_letters(tile)

    def holding(self) -> TileCounts:
        """Bot.holding: the grid's tiles and the hand's."""
        return self.hand + TileCounts.from_letters("".join(self.cells.values()))

    def current_grid(self) -> Grid | None:
        """Bot.current_grid: the grid laid so far (None before the first word)."""
        return Grid.from_cells(self.cells) if self.cells else None

    def decide(self, view: TableView) -> Decision:
        """Bot.decide: attach words until none fits, then BANANAS or PEEL with an empty hand, else DUMP the
        hardest letter when allowed, else wait.
        """
        work = Decision("wait", looks=self.build())
        if len(self.hand) == 0:
            if view.can_bananas:
                work.action, work.grid = "bananas", self.current_grid()
            elif view.can_peel:
                work.action = "peel"
        elif view.can_dump:
            work.action, work.tile = "dump", min(self.hand.letters(), key=HARD_FIRST.index)
        return work

    def build(self) -> int:
        """Attach words until none fits; returns the looks: positions examined (the first
        word's, then one per scan of the grid for a word to attach, the last one failing
        when tiles are left), the unit the solver's search nodes are counted in."""
        looks = 1
        min_length = self.rules.min_length
        if not self.cells:
            words = self.lexicon.formable_words(self.hand, min_length, limit=1, max_length=self.max_word)
            if not words:
                return looks
            self.cells = {(0, col): letter.upper() for col, letter in enumerate(words[0])}
            self.hand = self.hand - TileCounts.from_letters(words[0])
            if not len(self.hand):
                return looks
            looks += 1
        while self.attach_one(min_length) and len(self.hand):
            looks += 1
        return looks

    def attach_one(self, min_length: int) -> bool:
        """One look: the first (longest) word that crosses a grid letter and fits."""
        for (row, col), letter in sorted(self.cells.items()):
            pool = self.hand + TileCounts.from_letters(letter)
            for word in self.lexicon.formable_words(pool, min_length, limit=40, max_length=self.max_word):
                word = word.upper()
                for offset in [i for i, ch in enumerate(word) if ch == letter]:
                    for dr, dc in ((1, 0), (0, 1)):
                        cells = dict(self.cells)
                        new = []
                        for i, ch in enumerate(word):
                            cell = (row + (i - offset) * dr, col + (i - offset) * dc)
                            if cell in cells:
                                if cells[cell] != ch:
                                    break
                            else:
                                cells[cell] = ch
                                new.append(ch)
                        else:
                            if (
                                new
                                and self.hand.contains(TileCounts.from_letters("".join(new)))
                                and validate(Grid.from_cells(cells), self.lexicon, min_length=min_length).ok
                            ):
                                self.cells = cells
                                self.hand = self.hand - TileCounts.from_letters("".join(new))
                                return True
        return False


NONE_ALLOWED = ("level", "patience", "max_word", "lead")
GREEDY_SETTING_KINDS: dict[str, Callable[[str], Any]] = {"speed": float, "level": int, "max_word": int}
SETTING_KINDS: dict[str, Callable[[str], Any]] = {
    "level": int,
    "speed": float,
    "dump_policy": str,
    "risk": float,
    "strategy": str,
    "node_budget": int,
    "hooks": str,
    "rebuild": str,
    "patience": int,
    "endgame": int,
    "flexible": lambda value: {"yes": True, "no": False}[value],
    "opening": int,
    "opening_words": int,
    "side_words": float,
    "side_words_everywhere": lambda value: {"yes": True, "no": False}[value],
    "room": str.upper,
    "lead": float,
}


GREEDY = "greedy"  # the baseline's preset name (GreedyBot), beside the solver bots' PRESETS


def make_bot(spec: str) -> SolverBot | GreedyBot:
    """A bot from a preset name (`PRESETS`, or 'greedy'), optionally with settings:
    'hard:speed=3,risk=0.1', 'pacer:lead=0.1'."""
    name, _, options = spec.partition(":")
    if name not in PRESETS and name != GREEDY:
        raise ValueError(f"unknown bot {name!r} (presets: {', '.join([*PRESETS, GREEDY])})")
    kinds = GREEDY_SETTING_KINDS if name == GREEDY else SETTING_KINDS
    values: dict[str, Any] = {}  # each parsed by its setting's kind
    for option in filter(None, options.split(",")):
        key, _, value = option.partition("=")
        if key not in kinds:
            raise ValueError(
                f"unknown {'greedy ' if name == 'greedy' else ''}bot setting {key!r} (settings: {', '.join(kinds)})"
            )
        if value == "none" and key not in NONE_ALLOWED:
            raise ValueError(f"bot setting {key!r} needs a value")
        try:
            values[key] = None if value == "none" else kinds[key](value)
        except (KeyError, ValueError):
            raise ValueError(f"bad bot setting {key}={value}") from None
    if name == GREEDY:
        return GreedyBot(**values)
    try:
        return SolverBot(replace(PRESETS[name], **values))
    except TypeError as error:
        raise ValueError(f"bad bot setting: {error}") from None
