"""How much of a game strategy can decide: the luck share and the portfolio ceiling.

Both read seat-rotated 2-player series (`solver.play.tournament.run_tournament`): every deal
(rotation group) is played twice, the seats swapped. Series dealt from the same tournament
seed deal the same tiles in the same groups, and seat entry 0 at seat `rotation` of its group,
so a game is named by (group, rotation) across series: the same deal, the candidate in the
same seat.

    luck share   per deal, whether the same seat won both games (the deal decides) or the
                 same bot won both (the pairing decides), `luck_share`
    portfolio    per game, the better of several candidates against one reference: the win
                 rate a chooser that always picked right would reach (`portfolio`), and what
                 a chooser that sees only its own dealt hand's features reaches on deals it
                 did not learn from (`chooser`: two folds by group, a bucket of features ->
                 the candidate that scored best in that bucket on the other fold); `stumps`
                 tries every one-feature threshold as the bucket

The features of a dealt hand (`hand_features`): its vowel share, its awkward letters (J, Q, X,
Z, V) and its size; `dealt_hands` deals them with the referee's own split. What the first grid
costs a bot on the clock (`first_grid_seconds`) is the feature that tells the seats apart.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.core.tiles import TileCounts
from solver.play.rules import Bot, Decision, Rules, TableView
from solver.play.schedule import GameRecord

VOWELS = "AEIOU"
AWKWARD_LETTERS = "JQXZV"  # the awkward letters


def score(game: GameRecord, entry: int) -> float:
    """The entry's points in `game`: 1 for a sole win, 1/2 for a shared one, else 0."""
    seats = [seat for seat, seated in enumerate(game.entries) if seated == entry]
    if game.outcome == "win" and game.winners[0] in seats:
        return 1.0
    if game.outcome == "shared" and any(seat in game.winners for seat in seats):
        return 0.5
    return 0.0


@dataclass
class LuckShare:
    """Deals played twice with the seats swapped: how many had a sole winner in both games
    (`decided`), how many of those the same seat won (`same_seat`), and the same entry
    (`same_entry`, by entry in `by_entry`)."""

    deals: int
    decided: int
    same_seat: int
    same_entry: int
    by_entry: dict[int, int]


def luck_share(games: Sequence[GameRecord]) -> LuckShare:
    """The LuckShare of a 2-player seat-rotated series."""
    groups: dict[int, list[GameRecord]] = defaultdict(list)
    for game in games:
        groups[game.group].append(game)
    decided = same_seat = same_entry = 0
    by_entry: dict[int, int] = defaultdict(int)
    for pair in groups.values():
        if len(pair) != 2 or not all(g.outcome == "win" and len(g.winners) == 1 for g in pair):
            continue
        decided += 1
        seats = [g.winners[0] for g in pair]
        entries = [g.entries[seat] for g, seat in zip(pair, seats)]
        same_seat += seats[0] == seats[1]
        if entries[0] == entries[1]:
            same_entry += 1
            by_entry[entries[0]] += 1
    return LuckShare(len(groups), decided, same_seat, same_entry, dict(by_entry))


def candidate_scores(games: Sequence[GameRecord]) -> dict[tuple[int, int], float]:
    """Entry 0's points in each game of a series, by (group, rotation)."""
    return {(game.group, game.rotation): score(game, 0) for game in games}


@dataclass
class Portfolio:
    """The candidates' scores on the games all of them played: each one's mean, and the
    per-game and per-deal ceilings (the best candidate for each game; for each deal, one
    candidate for both seats)."""

    games: int
    means: dict[str, float]
    per_game: float
    per_deal: float


def portfolio(scores: dict[str, dict[tuple[int, int], float]]) -> Portfolio:
    """The Portfolio of candidates' `scores` (name -> `candidate_scores`)."""
    keys = sorted(set.intersection(*(set(s) for s in scores.values())))
    means = {name: sum(s[key] for key in keys) / len(keys) for name, s in scores.items()}
    per_game = sum(max(s[key] for s in scores.values()) for key in keys) / len(keys)
    deals: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for key in keys:
        deals[key[0]].append(key)
    per_deal = sum(max(sum(s[key] for key in members) for s in scores.values()) for members in deals.values()) / len(
        keys
    )
    return Portfolio(len(keys), means, per_game, per_deal)


def dealt_hands(rules: Rules, players: int, seed: int) -> list[TileCounts]:
    """The hands the referee's SPLIT deals each seat of a hand dealt from `seed`."""
    from solver.play.hand import Hand

    bots = [_Dealt() for _ in range(players)]
    Hand(rules, bots, seed).split()
    return [bot.tiles for bot in bots]


class _Dealt:
    """A seat that only keeps the tiles it is dealt (for `dealt_hands`)."""

    name, speed = "dealt", 1.0

    def __init__(self) -> None:
        self.tiles = TileCounts()

    def start(self, tiles: TileCounts, rules: Rules, seed: int) -> None:
        self.tiles = tiles

    def holding(self) -> TileCounts:
        return self.tiles

    def receive(self, tiles: TileCounts) -> None:
        self.tiles = self.tiles + tiles

    def give_back(self, tile: str) -> None:
        self.tiles = self.tiles - TileCounts.from_letters(tile)

    def current_grid(self) -> None:
        return None

    def decide(self, view: TableView) -> Decision:
        return Decision("wait")


def first_grid_seconds(
    spec: str, tiles: TileCounts, rules: Rules, players: int = 2, make: Callable[[str], Bot] | None = None
) -> float:
    """What the referee charges the bot of `spec` (made by `make`: `solver.play.bots.make_bot` unless
    given) for its first decision on the dealt `tiles` at the split of a `players`-player hand
    (`solver.play.cost.work_seconds`, before the jitter): in a race at equal pace, the seat whose
    first grid is cheaper is the one ahead."""
    from solver.play.bots import make_bot
    from solver.play.cost import measure_work, work_seconds

    bot = (make or make_bot)(spec)
    bot.start(tiles, rules, 0)
    bunch = len(rules.distribution) - players * rules.hand_size(players)
    decision = bot.decide(TableView(bunch, players, rules))
    grid = decision.grid if decision.grid is not None else bot.current_grid()
    return work_seconds(decision, bot.speed, measure_work(None, grid))


@dataclass
class FirstGrid:
    """A seat's way to its first complete grid (`first_grid_race`): the referee's charge of every
    decision on the way, before the jitter (`seconds`; None when it never gets there), the
    decisions, the looks and DUMPs among them, and the words the last one charged (the grid's)."""

    seconds: float | None
    decisions: int
    looks: int
    dumps: int
    words: int


def first_grid_race(
    spec: str, rules: Rules, seed: int, seat: int, players: int = 2, make: Callable[[str], Bot] | None = None
) -> FirstGrid:
    """The bot of `spec` (made by `make`: `solver.play.bots.make_bot` unless given) at `seat` of the
    hand dealt from `seed`, the other seats idle: the referee's hand runs until the bot's first call
    of PEEL or BANANAS (every tile on its grid), and the charges of its decisions until then are
    summed before the jitter (`solver.play.cost.work_seconds`), DUMPs and their draws included."""
    from solver.play.bots import make_bot
    from solver.play.cost import work_seconds
    from solver.play.hand import Hand

    bots: list[Bot] = [_Dealt() for _ in range(players)]
    bot = bots[seat] = (make or make_bot)(spec)
    hand = Hand(rules, bots, seed)
    hand.start()
    seconds, decisions, looks, dumps, seen = 0.0, 0, 0, 0, 0
    while not hand.over and hand.queue:
        hand.next_event()
        for charge in hand.ledger[seen:]:
            if charge.player != seat:
                continue
            seconds += work_seconds(Decision(charge.action, charge.looks), bot.speed, charge.work)
            decisions, looks, dumps = decisions + 1, looks + charge.looks, dumps + (charge.action == "dump")
            if charge.action in ("peel", "bananas"):
                return FirstGrid(seconds, decisions, looks, dumps, charge.work.words)
        seen = len(hand.ledger)
    return FirstGrid(None, decisions, looks, dumps, 0)


def hand_features(tiles: TileCounts) -> dict[str, float]:
    """A dealt hand's vowel share, its count of awkward letters (J Q X Z V) and its size."""
    size = len(tiles)
    return {
        "vowel_share": sum(tiles[v] for v in VOWELS) / size if size else 0.0,
        "awkward": float(sum(tiles[ch] for ch in AWKWARD_LETTERS)),
        "size": float(size),
    }


def chooser(
    scores: dict[str, dict[tuple[int, int], float]],
    bucket: Callable[[tuple[int, int]], object],
    default: str,
) -> float:
    """The mean score of a chooser that picks, for each game, the candidate that scored best
    in the game's `bucket` on the deals of the other fold (groups split by parity; ties and
    empty buckets go to `default`): a held-out estimate of what the features buy."""
    keys = sorted(set.intersection(*(set(s) for s in scores.values())))
    total = 0.0
    for fold in (0, 1):
        train = [key for key in keys if key[0] % 2 != fold]
        sums: dict[object, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for key in train:
            for name, s in scores.items():
                sums[bucket(key)][name] += s[key]
        for key in (key for key in keys if key[0] % 2 == fold):
            seen = sums.get(bucket(key))
            pick = default
            if seen:
                best = max(seen.values())
                if seen[default] < best:
                    pick = min(name for name, value in seen.items() if value == best)
            total += scores[pick][key]
    return total / len(keys)


def bucket_table(
    scores: dict[str, dict[tuple[int, int], float]], bucket: Callable[[tuple[int, int]], object]
) -> dict[object, tuple[int, dict[str, float]]]:
    """Per bucket: its number of games and each candidate's mean score there."""
    keys = sorted(set.intersection(*(set(s) for s in scores.values())))
    members: dict[object, list[tuple[int, int]]] = defaultdict(list)
    for key in keys:
        members[bucket(key)].append(key)
    return {
        name: (len(ks), {cand: sum(s[k] for k in ks) / len(ks) for cand, s in scores.items()})
        for name, ks in sorted(members.items(), key=lambda item: str(item[0]))
    }


@dataclass
class Stump:
    """A one-feature chooser: below `threshold` of `feature` one candidate, at or above it
    another (each the best on the other fold), and its held-out mean score (`chooser`)."""

    feature: str
    threshold: float
    held_out: float


def stumps(
    scores: dict[str, dict[tuple[int, int], float]],
    features: dict[tuple[int, int], dict[str, float]],
    default: str,
) -> list[Stump]:
    """Every decision stump on the games' `features` (name -> value, by game), best held-out
    score first (ties: feature and threshold order): which feature, cut where, best tells the
    candidates apart on deals it did not learn from."""
    found = []
    for name in sorted(next(iter(features.values()))):
        for threshold in sorted({values[name] for values in features.values()}):

            def side(key: tuple[int, int], name: str = name, threshold: float = threshold) -> bool:
                return features[key][name] >= threshold

            found.append(Stump(name, threshold, chooser(scores, side, default)))
    found.sort(key=lambda stump: (-stump.held_out, stump.feature, stump.threshold))
    return found
