"""The layering of docs/ARCHITECTURE.md, checked on the sources: every import of a solver module,
at any depth (inside functions too, `if TYPE_CHECKING:` blocks aside), points down the layers
core -> lexicon -> search -> play -> coach -> protocol / web -> cli, and no two modules import each other
round a cycle. A lazy import inside a function still runs, so it counts like any other."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

SOLVER = Path(__file__).resolve().parents[2] / "solver"

# A module may import its own layer and the layers with a smaller number. web sits above
# protocol: the browser server offers the engine protocol on `/engine` and shares its limits.
LAYERS = {"core": 1, "lexicon": 2, "search": 3, "play": 4, "coach": 5, "protocol": 6, "web": 7, "cli": 8}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOLVER.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    modules = {module_name(path): path for path in sorted(SOLVER.rglob("*.py"))}
    assert "solver.play.hand" in modules, f"no solver package at {SOLVER}"  # a moved test must not pass on nothing
    return modules


def is_type_checking_block(node: ast.AST) -> bool:
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def import_nodes(tree: ast.AST):
    """Every import statement in the tree, at any depth, outside `if TYPE_CHECKING:` bodies
    (their `else:` branches run, so they count)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        if is_type_checking_block(node):
            assert isinstance(node, ast.If)
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imported_modules(name: str, path: Path, known: set[str]) -> set[str]:
    """The solver modules that module `name` imports. Importing `solver.a.b` also runs
    `solver/a/__init__.py`; that implied edge is left out (a package that re-exports its
    submodules would close a cycle with each of them), but what an `__init__.py` imports
    is the package's own edges, and `from solver.a import name` is an edge to the package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join(anchor + ([base] if base else []))
        targets.add(base)
        targets.update(f"{base}.{alias.name}" for alias in node.names)
    return {target for target in targets if target in known and target != name}


@functools.cache
def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {name: imported_modules(name, path, set(modules)) for name, path in modules.items()}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm),
    each as a cycle through them found by a walk, for the failure message."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def cycle_through(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One import path from the component's first module back to itself, inside the component."""
    start, members = component[0], set(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        node = frontier.pop(0)
        for target in sorted(graph[node] & members):
            if target == start:
                return paths[node] + [start]
            if target not in paths:
                paths[target] = paths[node] + [target]
                frontier.append(target)
    raise AssertionError(f"{component} is not a cycle")


def layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS[parts[1]] if len(parts) > 1 else None


def test_the_graph_sees_imports_inside_functions_and_skips_type_checking_blocks(tmp_path):
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import tiles\n"
        "if TYPE_CHECKING:\n"
        "    from solver.play.hand import Hand\n"
        "def later():\n"
        "    from solver.lexicon.loader import get_lexicon\n"
        "    import solver.search.kernels\n"
    )
    path = tmp_path / "grid.py"
    path.write_text(source, encoding="utf-8")
    known = {"solver.core.tiles", "solver.lexicon.loader", "solver.play.hand", "solver.search.kernels"}
    assert imported_modules("solver.core.grid", path, known) == {
        "solver.core.tiles",
        "solver.lexicon.loader",
        "solver.search.kernels",
    }


def test_the_cycle_finder_reports_a_cycle_and_nothing_else():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(graph) == [["a", "b", "c"]]
    assert cycle_through(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    graph = import_graph()
    cycles = find_cycles(graph)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(cycle_through(graph, c)) for c in cycles)


@pytest.mark.parametrize("module", sorted(all_modules()))
def test_imports_point_down_the_layers(module):
    graph = import_graph()
    own = layer(module)
    upward = sorted(target for target in graph[module] if own is not None and (layer(target) or 0) > own)
    assert not upward, f"{module} (layer {own}) imports higher layers: {upward}"


# -- docs/ARCHITECTURE.md says what the code is -----------------------------------------------

ROOT = SOLVER.parent
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
MAX_MODULE_LINES = 800  # issue 32: a module holds one concept; past this it holds several


def layer_table() -> dict[str, tuple[int, str]]:
    """docs/ARCHITECTURE.md's layer table: package -> (its layer number, the row's text)."""
    rows = {}
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].isdigit() and cells[1].startswith("`solver."):
            rows[cells[1].strip("`").split(".")[1]] = (int(cells[0]), cells[2])
    return rows


def test_the_documented_layers_are_the_checked_ones():
    assert {package: number for package, (number, _) in layer_table().items()} == LAYERS


@pytest.mark.parametrize("module", sorted(all_modules()))
def test_every_module_is_named_in_its_layer_s_row(module):
    parts = module.split(".")
    if len(parts) < 3:
        return  # the package itself
    row = layer_table()[parts[1]][1]
    # named as `module`, a sub-package as `package/`, a family as `prefix*`
    named = set(re.findall(r"`([a-z_]+[/*]?)`", row))
    name = parts[2]
    prefixes = [entry[:-1] for entry in named if entry.endswith("*")]
    assert name in named or f"{name}/" in named or any(name.startswith(p) for p in prefixes), (
        f"{module} is not in the {parts[1]} row of docs/ARCHITECTURE.md"
    )


# The modules still over the bound, each with why: a ratchet (a new long module fails the
# test, and so does one of these once it is split but still listed).
OVER_LENGTH: set[str] = set()


def test_no_module_is_over_800_lines():
    sources = [*SOLVER.rglob("*.py"), *SOLVER.rglob("*.js")]
    long = {
        str(path.relative_to(ROOT)): n
        for path in sources
        if (n := len(path.read_text("utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert set(long) == OVER_LENGTH, f"over {MAX_MODULE_LINES} lines: {long} (known: {sorted(OVER_LENGTH)})"


OUTSIDE = "../" + "shared"  # (spelt in two pieces, so that this file does not cite it)


def test_no_file_cites_a_path_outside_the_repository():
    suffixes = {".py", ".md", ".rst", ".js", ".toml", ".txt", ".cfg", ".sh", ".html", ".css"}
    citing = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if (
            path.suffix in suffixes
            and path.is_file()
            and not any(p.startswith(".") or p in ("build", "dist") for p in parts)
        ):
            if OUTSIDE in path.read_text(encoding="utf-8", errors="replace"):
                citing.append(str(path.relative_to(ROOT)))
    assert not citing, f"files that cite {OUTSIDE} (outside the repository): {citing}"


# -- the engine's boundary: drivers read a hand's public state only -------------------------------------

# A Hand's or a SpellevateMatch's own state: its seats, queue, result, bunch, draws and ledger
# (`Hand.public_view` and the match's `state`, `hand(seat)`, `view(seat)` are what drivers read),
# and any name of theirs that starts with an underscore.
ENGINE_STATE = {"seats", "queue", "result", "bunch", "unused", "rng", "ledger", "current"}
HAND_NAMES = {"hand", "round", "game", "match"}  # what drivers call the Hand or SpellevateMatch they drive


def owner_name(node: ast.Attribute) -> str:
    owner = node.value
    return owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def engine_state_reads(source: str) -> list[str]:
    """Reads of a hand's or a match's own state in `source`: `SeatState`, or an `ENGINE_STATE`
    or underscore attribute of a name the drivers give a Hand or a SpellevateMatch, or the
    match's round (`match.round`: every seat's tiles)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and node.id == "SeatState":
            found.append(f"{node.lineno}: SeatState")
        elif isinstance(node, ast.alias) and node.name.split(".")[-1] == "SeatState":
            found.append(f"{node.lineno}: import SeatState")
        elif isinstance(node, ast.Attribute) and owner_name(node) in HAND_NAMES:
            name = owner_name(node)
            if node.attr in ENGINE_STATE or is_private(node.attr) or (name == "match" and node.attr == "round"):
                found.append(f"{node.lineno}: {name}.{node.attr}")
    return sorted(found, key=lambda read: (int(read.split(":")[0]), read))


def test_the_engine_state_check_finds_each_kind_of_read():
    source = (
        "from solver.play.hand import SeatState\n"
        "a = self.round.seats[0].active\nb = hand.queue\nc = game.seats\n"
        "d = self.seats[0]\ne = room.seats\nf = self.match.seats\n"
        "g = self.round.result\nh = hand._result\ni = self.match.round.hands\nj = self.match._round\n"
        "k = len(hand.bunch)\nl = self.round.public_view().ending\nm = self.match.state.turn\n"
        "n = self.round.__class__\n"
    )
    assert engine_state_reads(source) == [
        "1: import SeatState",
        "2: round.seats",
        "3: hand.queue",
        "4: game.seats",
        "7: match.seats",
        "8: round.result",
        "9: hand._result",
        "10: match.round",
        "11: match._round",
        "12: hand.bunch",
    ]


def test_nothing_outside_solver_play_reads_a_hands_own_state():
    """As lila's `private[round]`: drivers, the coach and the pages' messages read a hand's
    public view (`Hand.public_view`, `active`, `table_grid`, ...) and a match's public state,
    never their seats, queue, result or other state of their own."""
    found = {}
    for name, path in all_modules().items():
        if not name.startswith("solver.play"):
            reads = engine_state_reads(path.read_text(encoding="utf-8"))
            if reads:
                found[name] = reads
    assert not found, f"reads of a hand's own state outside solver/play: {found}"


# -- typed events -----------------------------------------------------------------------------------

EVENT_PARAMETERS = {"event", "e", "line"}  # what readers call an event or a log line they take


def event_fields() -> frozenset[str]:
    """Every field an event or a log line names (its kind's TypedDict), the kind itself aside."""
    from solver.play import events

    kinds = [*events.KINDS.values(), events.StuckLine, events.HintLine]
    return frozenset(key for kind in kinds for key in kind.__annotations__) - {"event"}


def untyped_event_reads(source: str, fields: frozenset[str]) -> list[str]:
    """Reads of an event's field (`event["player"]`, `e.get("grid")`) off a parameter that
    takes the event untyped (no annotation, or a plain dict or Mapping): mypy cannot follow
    those reads when a field is renamed."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        untyped = {
            arg.arg
            for arg in function.args.args + function.args.kwonlyargs
            if arg.arg in EVENT_PARAMETERS
            and (arg.annotation is None or re.match(r"(dict|Mapping|Any)\b", ast.unparse(arg.annotation)))
        }
        for node in ast.walk(function):
            key = owner = None
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
                owner, key = node.value, node.slice.value
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                owner, key = node.func.value, node.args[0].value
            if isinstance(owner, ast.Name) and owner.id in untyped and key in fields:
                found.append(f"{node.lineno}: {owner.id}[{key!r}]")
    return found


def test_the_typed_events_check_finds_untyped_reads():
    source = (
        "def a(event: dict):\n    return event['player'], event.get('grid'), event['event']\n"
        "def b(e: events.HandEvent):\n    return e['player']\n"
        "def c(line):\n    return line['t']\n"
        "def d(message: dict):\n    return message['player']\n"
        "def f(line: Mapping[str, Any]):\n    return line.get('drawn')\n"
    )
    assert untyped_event_reads(source, event_fields()) == [
        "2: event['player']",
        "2: event['grid']",
        "6: line['t']",
        "10: line['drawn']",
    ]


def test_readers_outside_solver_play_take_events_typed():
    """A reader of the hand's events outside `solver/play` takes each typed by its kind's
    TypedDict (`events.HandEvent`, a log's `events.LogLine`, narrowed by `event["event"]`),
    so mypy follows a field renamed in `solver/play/events.py` to every reader."""
    fields = event_fields()
    found = {}
    for name, path in all_modules().items():
        if not name.startswith("solver.play"):
            reads = untyped_event_reads(path.read_text(encoding="utf-8"), fields)
            if reads:
                found[name] = reads
    assert not found, f"events read untyped outside solver/play: {found}"
