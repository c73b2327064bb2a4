"""The `bananas play`, `tournament`, `ladder` and `spellevate` commands (registered into `solver.cli.main`).

    bananas play [--players 4] [--bots hard,medium] [--seed 0] [--variant classic] [--json] [--svg-dir DIR]
    bananas tournament --bots hard,medium --games 100 [--players 2] [--workers 2 | --scheduler tcp://HOST:PORT]
                       [--json FILE|-] [--csv out.csv] [--plot rates.svg]
    bananas ladder --bots easy,medium,hard --games 120 [--bootstrap 1000] [--json FILE|-] [--plot ratings.png]

Same conventions as `solver.cli.grids`: bad usage or input prints one `error: ...` line on
stderr and exits 2, never a traceback. The numba-backed modules (`solver.play.bots`,
`solver.play.schedule`'s game runner) are imported inside the command bodies.

`play --json` writes JSON lines: a header with every setting needed to replay the game,
then one object per engine event (with the hand number; `snapshot` events carry each bot's
grid as the table sees it when its work lands), a `grids` line after each hand and a final
`match` line (`solver.coach` reads it: `bananas review`, `bananas replay`). A game is a
pure function of its settings, so running the same command again writes the same bytes.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from solver.cli.common import check_seed, reports_input_errors
from solver.cli.outputs import STDOUT, check_writable, progress_bar, write_file, write_text
from solver.coach.logs import log_line
from solver.core.grid import Grid, validate
from solver.core.limits import MAX_GAMES, MAX_SPELLEVATE_PLAYERS, MAX_WORKERS
from solver.core.svg import grid_svg
from solver.lexicon.loader import get_lexicon
from solver.play.cluster import normalise_address, require_distributed
from solver.play.match import MATCH_FORMATS, play_match
from solver.play.plots import ladder_figure, plot_format, require_matplotlib, save_figure, tournament_figure
from solver.play.rules import Rules
from solver.play.variants import BANANAGRAMS, VARIANTS, offered

VARIANT_CHOICES = offered(BANANAGRAMS)
LANGUAGES = ("en", "fr")
SIDE_BY_SIDE_WIDTH = 100  # grids are drawn side by side when they fit this many columns
GAP = "   "


def make_rules(variant: str, lang: str) -> Rules:
    """--variant and --lang (the catalogue, `solver.play.variants`)."""
    return Rules.for_variant(VARIANTS[variant], lang)


def default_players(players: int | None, variant: str, otherwise: int) -> int:
    """--players, or the variant's own count when it has one (solo)."""
    if players is not None:
        return players
    kind = VARIANTS[variant]
    return kind.min_players if kind.min_players == kind.max_players else otherwise


def split_specs(bots: str) -> list[str]:
    """'hard:speed=3,risk=0.1,medium' -> ['hard:speed=3,risk=0.1', 'medium']: a comma starts
    a new bot unless what follows is one more setting (KEY=VALUE) of a bot that has some."""
    specs: list[str] = []
    for piece in (piece.strip() for piece in bots.split(",")):
        if "=" in piece and ":" not in piece and specs and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    if not bots.strip() or not all(specs):
        raise ValueError(f"--bots: expected comma-separated bot presets, got {bots!r}")
    return specs


def check_specs(specs: list[str]) -> None:
    from solver.play.bots import make_bot

    for spec in specs:
        try:
            make_bot(spec)
        except ValueError as error:
            raise ValueError(f"--bots: {spec!r}: {error}") from None


variant_option = click.option(
    "--variant",
    type=click.Choice(VARIANT_CHOICES),
    default="classic",
    show_default=True,
    help="Rule variant (three-letter: classic with 3+ letter words).",
)
lang_option = click.option(
    "--lang", type=click.Choice(LANGUAGES), default="en", show_default=True, help="Lexicon and tile distribution."
)
seed_option = click.option(
    "--seed", type=int, default=0, show_default=True, help="The deal and every draw (same seed, same game)."
)


# -- play -----------------------------------------------------------------------------


@click.command()
@click.option("--players", type=int, metavar="N", help="Number of players [default: 4; 1 for solo].")
@click.option(
    "--bots",
    metavar="SPEC,...",
    help="Bot presets by seat (beginner, casual, club, expert, pacer, easy, medium, hard, long, "
    "compact, reckless, greedy, or 'hard:speed=3,risk=0.1'); a shorter list cycles. "
    "[default: hard, then medium]",
)
@seed_option
@variant_option
@lang_option
@click.option(
    "--match",
    "match_format",
    type=click.Choice(MATCH_FORMATS),
    default="single",
    show_default=True,
    help="One hand, or a match of several.",
)
@click.option("--json", "as_json", is_flag=True, help="Write the event log as JSON lines (header first).")
@click.option("--realtime", is_flag=True, help="Pace the events on the wall clock.")
@click.option(
    "--svg-dir",
    metavar="DIR",
    help="Write each hand's final grids as SVG pictures into DIR (invalid words outlined in red).",
)
@reports_input_errors
def play(
    players: int | None,
    bots: str | None,
    seed: int,
    variant: str,
    lang: str,
    match_format: str,
    as_json: bool,
    realtime: bool,
    svg_dir: str | None,
) -> None:
    """Watch bots play a hand (or a match) of Bananagrams.

    Events are printed as they happen on the simulated clock; then the grids and who
    won. With --json the event log is written instead, one JSON object per line.

    \b
    Examples:
      bananas play
      bananas play --players 2 --bots hard,easy --seed 7 --match best-of-3
      bananas play --variant solo --bots hard --json > game.jsonl
      bananas play --players 2 --svg-dir grids/
    """
    check_seed(seed)
    if svg_dir is not None:
        check_picture_folder(svg_dir)
    players = default_players(players, variant, 4)
    rules = make_rules(variant, lang)
    rules.check_players(players)  # RuleError (a ValueError): error line, exit 2
    if bots is None:
        specs = ["hard"] + ["medium"] * (players - 1)
    else:
        given = split_specs(bots)
        if len(given) > players:
            raise ValueError(f"--bots names {len(given)} bots for {players} player{'s' if players != 1 else ''}")
        specs = [given[i % len(given)] for i in range(players)]
    check_specs(specs)

    from solver.play.bots import make_bot

    emit: JsonLog | TextLog
    if as_json:
        emit = JsonLog(players, specs, seed, variant, lang, match_format)
    else:
        emit = TextLog(specs, match_format != "single", f"{variant} ({lang}), seed {seed}, {match_format}")
    emit.header()
    match = play_match(
        rules,
        [make_bot(spec) for spec in specs],
        seed,
        match_format,
        realtime=realtime,
        observer=emit.event,
        snapshots=as_json,
    )
    emit.finish(match)
    if svg_dir is not None:
        written = write_grid_pictures(svg_dir, match, specs, rules)
        click.echo(f"wrote {written} grid picture{'s' if written != 1 else ''} to {svg_dir}", err=True)


def check_picture_folder(folder: str) -> None:
    """--svg-dir: an existing folder, or one that can be made (it is made after the game)."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise ValueError(f"--svg-dir: {folder} is not a folder")
    check_writable(str(path / "hand1-P1.svg") if path.is_dir() else folder, "--svg-dir")


def write_grid_pictures(folder: str, match, specs: list[str], rules: Rules) -> int:
    """hand<N>-P<seat>.svg for every grid on the table at the end of each hand."""
    Path(folder).mkdir(exist_ok=True)
    lexicon = get_lexicon(rules.lexicon)
    written = 0
    for number, hand in enumerate(match.hands, start=1):
        for seat, rows in enumerate(hand.grids):
            if not rows:
                continue
            grid = Grid.from_rows(rows)
            report = validate(grid, lexicon, min_length=rules.min_length)
            title = f"hand {number}, {label(specs, seat)}: {len(grid.cells())} tiles"
            write_text(str(Path(folder) / f"hand{number}-P{seat + 1}.svg"), grid_svg(grid, report, title=title))
            written += 1
    return written


def label(specs: list[str], player: int) -> str:
    return f"P{player + 1} {specs[player]}"


class JsonLog:
    """The replayable event log: JSON lines on stdout."""

    def __init__(self, players: int, specs: list[str], seed: int, variant: str, lang: str, match_format: str):
        self.settings: dict[str, Any] = {
            "seed": seed,
            "players": players,
            "bots": specs,
            "variant": variant,
            "lang": lang,
            "match": match_format,
        }
        self.hand = 0

    @staticmethod
    def write(data: dict) -> None:
        click.echo(json.dumps(data, separators=(",", ":")))

    def header(self) -> None:
        s = self.settings
        replay = (
            f"bananas play --players {s['players']} --bots {','.join(s['bots'])} --seed {s['seed']} "
            f"--variant {s['variant']} --lang {s['lang']} --match {s['match']} --json"
        )
        self.write({"event": "header", "format": "bananas-play-log/1", **s, "replay": replay})

    def event(self, entry: dict) -> None:
        if entry["event"] == "split":
            self.hand += 1
        self.write(log_line(self.hand, entry))

    def finish(self, match) -> None:
        for number, hand in enumerate(match.hands, start=1):
            self.write({"hand": number, "event": "grids", "grids": hand.grids})
        self.write(
            {
                "event": "match",
                "format": match.format,
                "hands": len(match.hands),
                "wins": match.wins,
                "winner": match.winner,
            }
        )


class TextLog:
    """Live progress, one line per event, then grids and the result."""

    def __init__(self, specs: list[str], match_hands: bool, title: str):
        self.specs = specs
        self.title = title
        self.width = max(len(label(specs, i)) for i in range(len(specs)))
        self.hand = 0
        self.match_hands = match_hands

    def who(self, player: int) -> str:
        return label(self.specs, player).ljust(self.width)

    def header(self) -> None:
        seats = ", ".join(label(self.specs, i) for i in range(len(self.specs)))
        click.echo(f"{self.title}: {seats}")

    def line(self, t: float, text: str) -> None:
        click.echo(f"{t:7.1f}s  {text}")

    def event(self, e: dict) -> None:
        kind, t = e["event"], e["t"]
        if kind == "split":
            self.hand += 1
            if self.hand > 1 or self.match_hands:
                click.echo(f"-- hand {self.hand} --")
            size = len(e["hands"][0]) if e["hands"] else 0
            unused = f", {len(e['unused'])} unused" if e.get("unused") else ""
            self.line(t, f"SPLIT  {len(e['hands'])} x {size} tiles  (bunch {e['bunch']}{unused})")
        elif kind == "peel":
            self.line(t, f"{self.who(e['player'])}  PEEL  (bunch {e['bunch']})")
        elif kind == "dump":
            self.line(t, f"{self.who(e['player'])}  DUMP {e['returned']} -> {e['drawn']}  (bunch {e['bunch']})")
        elif kind == "stuck":
            self.line(t, f"{self.who(e['player'])}  stuck with {e['hand'] or 'no tiles'}")
        elif kind == "bananas":
            self.line(t, f"{self.who(e['player'])}  BANANAS!")
        elif kind == "inspection":
            self.line(t, f"{self.who(e['player'])}  grid inspected: valid")
        elif kind == "rotten":
            problems = e["problems"]
            more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
            self.line(
                t,
                f"{self.who(e['player'])}  ROTTEN BANANA: {problems[0] if problems else '?'}{more}  "
                f"(bunch {e['bunch']})",
            )
        elif kind == "end":
            self.line(t, f"END  {self.outcome(e['outcome'], e['winners'], e['reason'])}")
        elif kind == "snapshot":
            return  # a grid as it builds: the log's, not a line of progress
        else:  # an event this front-end does not know yet
            self.line(t, kind.upper())

    def outcome(self, outcome: str, winners: list[int], reason: str) -> str:
        names = " and ".join(label(self.specs, w) for w in winners)
        if outcome == "win":
            return f"{names} wins: {reason}"
        if outcome == "shared":
            return f"{names} share the win: {reason}"
        if outcome == "replay":
            return f"no winner ({names} tied): {reason}"
        return f"unawarded: {reason}"

    def finish(self, match) -> None:
        for number, hand in enumerate(match.hands, start=1):
            if number == len(match.hands):  # the last hand's grids (earlier ones scrolled by)
                click.echo()
                click.echo(draw_grids([label(self.specs, i) for i in range(len(self.specs))], hand.grids))
        click.echo()
        last = match.hands[-1]
        if match.format == "single":
            if last.outcome == "win":
                extra = ""
                if last.scores:
                    extra = f" ({last.scores['time']:.1f} s, {last.scores['words']} words)"
                click.echo(f"Winner: {label(self.specs, last.winners[0])}: {last.reason}{extra}")
            elif last.outcome == "shared":
                names = " and ".join(label(self.specs, w) for w in last.winners)
                click.echo(f"Shared win: {names}: {last.reason}")
            else:
                click.echo(f"No winner: {last.reason}")
            return
        tally = ", ".join(f"{label(self.specs, i)} {w}" for i, w in enumerate(match.wins))
        if match.winner is not None:
            click.echo(
                f"Winner: {label(self.specs, match.winner)} takes the {match.format} match "
                f"after {len(match.hands)} hands (hand wins: {tally})"
            )
        else:
            click.echo(
                f"No winner: the {match.format} match is drawn after {len(match.hands)} hands (hand wins: {tally})"
            )


def draw_grids(names: list[str], grids: list[list[str] | None]) -> str:
    """Each player's grid under their name: side by side when they fit, else one after another."""
    blocks = []
    for name, rows in zip(names, grids, strict=True):
        body = rows if rows else ["(no grid)"]
        width = max(len(name), *(len(row) for row in body))
        blocks.append([name.ljust(width), "-" * width] + [row.ljust(width) for row in body])
    total = sum(len(block[0]) for block in blocks) + len(GAP) * (len(blocks) - 1)
    if total > SIDE_BY_SIDE_WIDTH:
        return "\n\n".join("\n".join(line.rstrip() for line in block) for block in blocks)
    height = max(len(block) for block in blocks)
    lines = []
    for index in range(height):
        cells = [block[index] if index < len(block) else " " * len(block[0]) for block in blocks]
        lines.append(GAP.join(cells).rstrip())
    return "\n".join(lines)


# -- tournament and ladder ------------------------------------------------------------


def series_options(command):
    """The options `tournament` and `ladder` share (bots, games, seats, backend, outputs)."""
    options = [
        click.option(
            "--bots",
            required=True,
            metavar="SPEC,...",
            help="The bots entered (presets or 'preset:key=value,...'); repeats are separate entries.",
        ),
        click.option(
            "--games",
            type=int,
            required=True,
            metavar="N",
            help="Games to play (rounded up to whole rotation groups of --players games).",
        ),
        click.option("--players", type=int, metavar="K", help="Players per game [default: 2; 1 for solo]."),
        seed_option,
        click.option("--workers", type=int, default=1, show_default=True, metavar="W", help="Local worker processes."),
        click.option(
            "--scheduler",
            metavar="tcp://HOST:PORT",
            help="Play on this Dask cluster instead of local processes (needs the 'cluster' extra).",
        ),
        variant_option,
        lang_option,
        click.option("--json", "json_file", metavar="FILE|-", help="Write the results as JSON ('-': stdout)."),
        click.option(
            "--plot",
            metavar="FILE.svg|FILE.png",
            help="Plot the results with their intervals (needs the 'plots' extra).",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@dataclass
class Series:
    """A checked tournament or ladder request, ready to run."""

    specs: list[str]
    games: int
    players: int
    seed: int
    workers: int
    scheduler: str | None
    rules: Rules
    total: int  # games after rounding up to whole rotation groups
    quiet: bool  # JSON on stdout: no bar, no table

    def run(self, play):
        """`play(progress)` under a progress bar (a terminal only)."""
        with progress_bar(self.total, f"playing {self.total} games", enabled=not self.quiet) as bar:

            def progress(done: int, _total: int) -> None:
                bar.update(done - bar.n)

            return play(progress)


def check_series(
    bots: str,
    games: int,
    players: int | None,
    seed: int,
    workers: int,
    scheduler: str | None,
    variant: str,
    lang: str,
    files: dict[str, str | None],
    plot: str | None,
) -> Series:
    """Every check a run needs, before its first game: bad input fails at once and writes nothing."""
    from solver.play.schedule import schedule

    check_seed(seed)
    players = default_players(players, variant, 2)
    rules = make_rules(variant, lang)
    rules.check_players(players)
    specs = split_specs(bots)
    check_specs(specs)
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"--games must be at least 1 and at most {MAX_GAMES}, got {games}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"--workers must be at least 1 and at most {MAX_WORKERS}, got {workers}")
    if scheduler is not None:
        if workers != 1:
            raise ValueError("--workers and --scheduler: choose one (the cluster's workers play the games)")
        require_distributed()
        scheduler = normalise_address(scheduler)
        quiet_dask_logs()
    if plot is not None:
        plot_format(plot)
        require_matplotlib()
    for option, path in {**files, "--plot": plot}.items():
        if path is not None:
            if path == STDOUT and option != "--json":
                raise ValueError(f"{option}: give a file name ('-' is for --json only)")
            check_writable(path, option)
    total = len(schedule(len(specs), players, games, seed))
    if total != games:
        click.echo(f"note: {games} games rounded up to {total} (whole rotation groups of {players})", err=True)
    quiet = files.get("--json") == STDOUT
    return Series(specs, games, players, seed, workers, scheduler, rules, total, quiet)


def quiet_dask_logs() -> None:
    """Dask logs what it retries, with tracebacks (its config sets a level per logger); the
    command reports a failure in one `error:` line instead."""
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name.split(".")[0] == "distributed":
            logging.getLogger(name).setLevel(logging.CRITICAL)


def write_results(files: dict[str, tuple[str | None, str]], plot: str | None, figure) -> None:
    """The output files, each written whole; then one 'wrote' line per file on stderr."""
    for path, text in files.values():
        if path is not None:
            write_text(path, text)
    if plot is not None:
        write_file(plot, lambda temp: save_figure(figure(), temp, plot_format(plot)))
    for path in [path for path, _ in files.values()] + [plot]:
        if path is not None and path != STDOUT:
            click.echo(f"wrote {path}", err=True)


@click.command()
@series_options
@click.option("--csv", "csv_file", metavar="FILE", help="Write one row per bot as CSV.")
@reports_input_errors
def tournament(
    bots: str,
    games: int,
    players: int | None,
    seed: int,
    workers: int,
    scheduler: str | None,
    variant: str,
    lang: str,
    json_file: str | None,
    plot: str | None,
    csv_file: str | None,
) -> None:
    """Play many seeded games between bots and compare their win rates.

    Each deal is played K times (K players) with the seats rotated, so seat and deal
    luck cancel. The table gives win rates with 95% Wilson intervals, the mean simulated
    game time, dumps, rotten bananas and unawarded hands. With --scheduler the games run
    on a Dask cluster, with the same results as a local run.

    \b
    Examples:
      bananas tournament --bots hard,medium --games 100 --workers 2
      bananas tournament --bots hard,medium,easy,greedy --players 4 --games 40 --csv out.csv
      bananas tournament --bots hard,medium --games 10000 --scheduler tcp://10.0.0.5:8786 --plot rates.svg
    """
    from solver.play.tournament import run_tournament

    series = check_series(
        bots, games, players, seed, workers, scheduler, variant, lang, {"--json": json_file, "--csv": csv_file}, plot
    )
    result = series.run(
        lambda progress: run_tournament(
            series.specs,
            series.games,
            series.players,
            series.seed,
            series.workers,
            series.rules,
            progress=progress,
            scheduler=series.scheduler,
        )
    )
    if not series.quiet:
        click.echo(result.table())
    files = {"json": (json_file, json.dumps(result.to_json(), indent=1) + "\n"), "csv": (csv_file, result.to_csv())}
    write_results(files, plot, lambda: tournament_figure(result))


@click.command()
@series_options
@click.option(
    "--bootstrap",
    type=int,
    default=1000,
    show_default=True,
    metavar="B",
    help="Bootstrap resamples of the deals for the 95% intervals (0: none).",
)
@reports_input_errors
def ladder(
    bots: str,
    games: int,
    players: int | None,
    seed: int,
    workers: int,
    scheduler: str | None,
    variant: str,
    lang: str,
    json_file: str | None,
    plot: str | None,
    bootstrap: int,
) -> None:
    """Rate bots: a seat-rotated round robin, then Bradley-Terry ratings.

    With more bots than seats, the K-bot tables cycle through every combination (mixed
    tables for K > 2). Ratings are on the Elo scale (field mean 1500; 400 points = 10:1
    odds in a two-player game), with 95% bootstrap intervals over deals, best first.
    Any bot spec is an entry.

    \b
    Examples:
      bananas ladder --bots easy,medium,hard,greedy --games 120
      bananas ladder --bots hard:dump_policy=advice,hard:dump_policy=hardest --games 400 --json ladder.json
      bananas ladder --bots easy,medium,hard,long,compact --players 4 --games 200 --plot ladder.png
    """
    from solver.play.ladder import run_ladder

    if bootstrap < 0:
        raise ValueError(f"--bootstrap must be 0 or more, got {bootstrap}")
    if len(split_specs(bots)) < 2:
        raise ValueError("--bots: a ladder needs at least two bots")
    if default_players(players, variant, 2) < 2:
        raise ValueError("a ladder compares bots at one table: --players must be 2 or more")
    series = check_series(bots, games, players, seed, workers, scheduler, variant, lang, {"--json": json_file}, plot)
    result = series.run(
        lambda progress: run_ladder(
            series.specs,
            series.games,
            series.players,
            series.seed,
            series.workers,
            series.rules,
            scheduler=series.scheduler,
            progress=progress,
            bootstrap=bootstrap,
        )
    )
    if not series.quiet:
        click.echo(result.table())
    write_results(
        {"json": (json_file, json.dumps(result.to_json(), indent=1) + "\n")}, plot, lambda: ladder_figure(result)
    )


# -- spellevate ---------------------------------------------------------------------


@click.command()
@click.option("--players", type=int, metavar="N", help="Players, 3 or more [default: one per bot (and you), else 4].")
@click.option(
    "--bots",
    metavar="SPEC,...",
    help="Bot presets by seat: simple, planner (or 'planner:beam=8,...'); a shorter list cycles. [default: simple]",
)
@click.option("--rounds", type=click.IntRange(1, 100), default=1, show_default=True, help="Rounds of one game.")
@click.option("--games", type=int, metavar="N", help="Play a seat-rotated series of N rounds and compare the bots.")
@click.option("--workers", type=int, default=1, show_default=True, metavar="W", help="Worker processes (--games).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--double-set", is_flag=True, help="Deal two sets (288 tiles), for large groups.")
@click.option("--human", is_flag=True, help="Take seat P1 yourself and play the bots in the terminal.")
@click.option(
    "--json",
    "json_file",
    is_flag=False,
    flag_value="-",
    metavar="[FILE]",
    help="One game: every event as JSON lines; --games: the results as JSON. To FILE, or stdout.",
)
@reports_input_errors
def spellevate(
    players: int | None,
    bots: str | None,
    rounds: int,
    games: int | None,
    workers: int,
    seed: int,
    double_set: bool,
    human: bool,
    json_file: str | None,
) -> None:
    """Spellevate, the turn-based climbing game (RULES.md): watch bots, compare them, or play.

    Without --games, one game of --rounds rounds is shown round by round. With --games,
    a series: every deal is played once per seat with the bots rotated, and the table
    gives each bot's win rate (95% Wilson interval) and mean score. With --human you hold
    seat P1: type a word or a letter from your hand, or pass.

    \b
    Examples:
      bananas spellevate --players 5 --rounds 3
      bananas spellevate --bots planner,simple,simple,simple --games 200 --workers 2
      bananas spellevate --human --bots planner
    """
    from solver.play.spellevate import set_of

    check_seed(seed)
    if players is not None and not 1 <= players <= MAX_SPELLEVATE_PLAYERS:
        raise ValueError(f"--players must be from 3 to {MAX_SPELLEVATE_PLAYERS} (a tile each), got {players}")
    given = split_specs(bots) if bots is not None else None
    sets = 2 if double_set else 1
    if games is not None:
        if human:
            raise ValueError("--human plays one game: leave out --games")
        if rounds != 1:
            raise ValueError("--rounds is for one game; a series plays --games rounds")
        if given is None:
            raise ValueError("--games compares bots: name them with --bots (e.g. planner,simple,simple,simple)")
        spellevate_series(given, games, players or len(given), seed, workers, sets, json_file)
        return
    if workers != 1:
        raise ValueError("--workers is for a series: add --games")
    seated = 1 if human else 0
    if players is None:
        players = len(given) + seated if given else 4
    if given is not None and len(given) > players - seated:
        raise ValueError(f"--bots names {len(given)} bots for {players - seated} bot seats")
    choices = given or ["simple"]
    specs = [choices[i % len(choices)] for i in range(max(0, players - seated))]
    spellevate_game(specs, human, rounds, seed, set_of(sets), json_file)


def spellevate_game(specs: list[str], human: bool, rounds: int, seed: int, tiles, json_file: str | None) -> None:
    """One game: the rounds shown one line each (or every event as JSON lines); with a
    person at P1, every event as it happens."""
    from solver.cli.spellevate_terminal import HumanSeat, LeftTable, TableLog
    from solver.play.spellevate import SpellevateBot, check_table, play_spellevate_rounds
    from solver.play.spellevate_bots import check_spellevate_spec, make_spellevate_bot

    for spec in specs:
        check_spellevate_spec(spec)
    check_table(len(specs) + human, tiles)
    if human and json_file is not None:
        raise ValueError("--human shows the game as it goes: leave out --json")
    if json_file is not None:
        check_writable(json_file, "--json")  # before the game: a bad path fails at once
    lexicon = get_lexicon("en")
    seats: list[SpellevateBot] = [HumanSeat(lexicon)] if human else []
    seats += [make_spellevate_bot(spec, lexicon) for spec in specs]
    if human:
        names = ["you"] + specs
        click.echo(f"Spellevate, seed {seed}: {', '.join(f'P{i + 1} {name}' for i, name in enumerate(names))}")
        try:
            results = play_spellevate_rounds(seats, rounds, seed, lexicon, tiles, observer=TableLog(names).event)
        except LeftTable as left:
            if not left.by_choice:
                raise ValueError(str(left)) from None
            click.echo(str(left))
            return
    else:
        results = play_spellevate_rounds(seats, rounds, seed, lexicon, tiles)
    lines = []
    for number, result in enumerate(results, start=1):
        if json_file is not None:
            lines += [json.dumps({"round": number, **event}) + "\n" for event in result.events]
            continue
        if human:
            continue
        plays = sum(1 for event in result.events if event["event"] == "play")
        click.echo(
            f"round {number}: P{result.leader + 1} leads; {plays} plays; P{result.winner + 1} wins; "
            f"scores {' '.join(f'P{i + 1} {s:+d}' for i, s in enumerate(result.scores))}"
        )
    if human and len(results) > 1:
        totals = [sum(result.scores[seat] for result in results) for seat in range(len(seats))]
        click.echo(f"totals: {' '.join(f'P{i + 1} {t:+d}' for i, t in enumerate(totals))}")
    if json_file is not None:
        write_text(json_file, "".join(lines))  # written whole, at the end
    if json_file not in (None, "-"):
        click.echo(f"wrote {json_file}", err=True)


def spellevate_series(
    specs: list[str], games: int, players: int, seed: int, workers: int, sets: int, json_file: str | None
) -> None:
    """A seat-rotated series (`solver.play.spellevate_tournament`), shown as a table."""
    from solver.play.spellevate_bots import check_spellevate_spec
    from solver.play.spellevate_tournament import run_series

    for spec in specs:
        check_spellevate_spec(spec)
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"--games must be at least 1 and at most {MAX_GAMES}, got {games}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"--workers must be at least 1 and at most {MAX_WORKERS}, got {workers}")
    if json_file is not None:
        check_writable(json_file, "--json")  # before the run: a bad path fails at once
    total = -(-games // players) * players
    if total != games:
        click.echo(f"note: {games} rounds rounded up to {total} (whole rotation groups of {players})", err=True)
    with progress_bar(total, f"playing {total} rounds", unit="round", enabled=json_file != STDOUT) as bar:
        result = run_series(
            specs, games, players, seed, workers, sets, progress=lambda done, _total: bar.update(done - bar.n)
        )
    if json_file != STDOUT:
        click.echo(result.table())
    if json_file is not None:
        write_text(json_file, json.dumps(result.to_json(), indent=1) + "\n")
    if json_file not in (None, "-"):
        click.echo(f"wrote {json_file}", err=True)
