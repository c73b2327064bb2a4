"""Spellevate over the engine protocol: a seat for our bot, or a game the engine hosts.

Every Spellevate message has a type starting `spellevate_` (docs/PROTOCOL.md, section
"Spellevate"); `solver.protocol.session` hands them to `handle` with its options and
its Spellevate table. The game is turn-based, so nothing here runs on a clock: a bot
moves as soon as it is its turn, and its move goes out right after the reply to the
message that made it its turn.

  seat  the front-end referees: it deals our bot its tiles (`spellevate_seat`) and tells
        it every other player's move (`spellevate_move`); the engine answers each time
        it is the bot's turn with the bot's own `spellevate_move` (a play or a pass).
  host  the engine referees (`spellevate_start`): it draws the leader, deals, seats
        bots and remote players, sends each remote player its tiles and everyone the
        public events, asks a remote player to move (`spellevate_turn`) and takes its
        `spellevate_move`.

Both modes run the rules of `solver.play.spellevate` (`RoundState`; the host drives a
`solver.play.spellevate_match.SpellevateMatch`), so an illegal move
is refused with the referee's reason and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.limits import MAX_PROTOCOL_SPELLEVATE_PLAYERS, MAX_SEED, MAX_SPELLEVATE_ROUNDS
from solver.core.tiles import TileCounts
from solver.lexicon.loader import Lexicon, get_lexicon
from solver.play.remote import RemoteSeat, is_remote
from solver.play.spellevate import (
    Play,
    RoundState,
    SeatView,
    SpellevateBot,
    SpellevateError,
    check_table,
    parse_play,
    set_of,
)
from solver.play.spellevate_bots import PRESETS, make_spellevate_bot, parse_spec
from solver.play.spellevate_events import SpellevateEvent
from solver.play.spellevate_match import SpellevateMatch
from solver.protocol.fields import ProtocolError
from solver.protocol.fields import need as _need
from solver.protocol.fields import tiles as _tiles
from solver.protocol.options import Options

DEFAULT_BOT = "planner"


def handle(table, options: Options, message: dict) -> tuple[list[dict], list[dict], SeatTable | HostedTable | None]:
    """One `spellevate_*` message for the session's Spellevate `table` (None before the first
    seat or game): the replies, the messages to send after them (a bot's move, the public
    events) and the table from now on. The session catches ProtocolError."""
    handler = HANDLERS.get(message["type"])
    if handler is None:
        raise ProtocolError("unknown_type", f"unknown message type {message['type']!r}")
    return handler(options, table, message)


# -- shared helpers ---------------------------------------------------------------------


def _int(message: dict, name: str, low: int, high: int, default: int | None = None) -> int:
    if default is not None and name not in message:
        return default
    value = _need(message, name, int)
    if not low <= value <= high:
        raise ProtocolError("bad_value", f"'{name}' must be {low} to {high}")
    return value


def _bot(spec) -> str:
    if not isinstance(spec, str):
        raise ProtocolError("bad_value", "a bot is a preset name ('simple', 'planner', 'planner:beam=8')")
    try:
        parse_spec(spec)
    except ValueError as error:
        raise ProtocolError("bad_value", str(error)) from None
    return spec


def _rules(options: Options) -> tuple[Lexicon, int, TileCounts]:
    return get_lexicon(options.lexicon), options.min_length, options.rules().distribution


def _move(message: dict) -> Play | None:
    """The move a `spellevate_move` carries: {"play": "CAT"} or {"pass": true}."""
    if message.get("pass") is True:
        if "play" in message:
            raise ProtocolError("bad_value", "a move is a play or a pass, not both")
        return None
    letters = _need(message, "play")
    try:
        return parse_play(letters)
    except SpellevateError as error:
        raise ProtocolError("bad_letters", str(error)) from None


def player_name(player: int) -> str:
    return f"player {player}"


def _refuse(state: RoundState, player: int, play: Play | None, lexicon, min_length, hand=None) -> None:
    """Refuse an illegal move with the referee's reason, coded by what is wrong."""
    if state.over or player != state.turn:
        reason = state.move_error(player, play, lexicon, min_length, label=player_name)
        assert reason is not None  # a move after the end or out of turn always has a reason
        raise ProtocolError("out_of_order", reason, reason=reason.code)
    error = state.move_error(player, play, lexicon, min_length, hand, label=player_name)
    if error is None:
        return
    if error.code in ("not_in_hand", "too_many_tiles"):
        raise ProtocolError("not_your_tile", error, reason=error.code)
    raise ProtocolError("illegal_play", error, reason=error.code)


def _move_message(player: int, play: Play | None) -> dict:
    if play is None:
        return {"type": "spellevate_move", "player": player, "pass": True}
    return {"type": "spellevate_move", "player": player, "play": play.letters}


def _event(event: SpellevateEvent, round_number: int) -> dict:
    return {"type": "spellevate_event", "round": round_number, **event}


def full_deal_sizes(players: int, tiles: int, leader: int) -> list[int]:
    """Hand sizes when every tile is dealt one at a time starting with the leader."""
    base, extra = divmod(tiles, players)
    return [base + (1 if (seat - leader) % players < extra else 0) for seat in range(players)]


# -- seat mode: the front-end referees --------------------------------------------------


@dataclass
class SeatTable:
    """Our bot at a table refereed by the front-end."""

    bot: SpellevateBot
    seat: int
    hand: TileCounts
    state: RoundState
    tiles: TileCounts
    lexicon: Lexicon
    min_length: int

    def view(self) -> SeatView:
        return SeatView(self.seat, self.hand, self.state, self.tiles, self.lexicon, self.min_length)

    def bot_moves(self) -> list[dict]:
        """The bot's moves while it is its turn (after a clear it may lead again)."""
        out = []
        while not self.state.over and self.state.turn == self.seat:
            play = self.bot.choose(self.view())
            error = self.state.move_error(self.seat, play, self.lexicon, self.min_length, self.hand)
            if error is not None:  # a bug of ours: say so rather than send an illegal move
                raise ProtocolError("internal", f"the bot chose an illegal move: {error}")
            if play is not None:
                self.hand = self.hand - play.tiles()
            self.state.apply(self.seat, play)
            out.append({**_move_message(self.seat, play), "left": len(self.hand)})
        return out


def on_seat(options: Options, table, message: dict):
    """`spellevate_seat`: a new round with our bot at `seat`, dealt `tiles`."""
    if isinstance(table, HostedTable) and not table.finished:
        raise ProtocolError("out_of_order", "a hosted Spellevate game is running")
    hand = _tiles(_need(message, "tiles"))
    players = _int(message, "players", 3, MAX_PROTOCOL_SPELLEVATE_PLAYERS)
    seat = _int(message, "seat", 0, players - 1)
    leader = _int(message, "leader", 0, players - 1)
    sets = _int(message, "sets", 1, 2, default=1)
    spec = _bot(message.get("bot", DEFAULT_BOT))
    lexicon, min_length, distribution = _rules(options)
    tiles = set_of(sets, distribution)
    if not tiles.contains(hand):
        raise ProtocolError("bad_value", f"the tiles hold more of some letter than {sets} set(s): {hand.letters()}")
    if "hands" in message:
        sizes = _need(message, "hands", list)
        if len(sizes) != players or not all(isinstance(size, int) and 0 < size <= len(tiles) for size in sizes):
            raise ProtocolError("bad_value", "'hands' lists every player's hand size (positive integers)")
        if sum(sizes) > len(tiles):
            raise ProtocolError("bad_value", f"the hands hold {sum(sizes)} tiles, the set {len(tiles)}")
    else:
        sizes = full_deal_sizes(players, len(tiles), leader)
    if sizes[seat] != len(hand):
        raise ProtocolError(
            "bad_value",
            f"seat {seat} holds {sizes[seat]} tiles in this deal, not {len(hand)} (send 'hands' for another deal)",
        )
    try:
        check_table(players, tiles)
    except SpellevateError as error:
        raise ProtocolError("bad_value", str(error)) from None
    # The set is what the bot counts against: tiles left out of the deal stay unseen.
    seated = SeatTable(
        make_spellevate_bot(spec, lexicon, min_length),
        seat,
        hand,
        RoundState(list(sizes), leader),
        tiles,
        lexicon,
        min_length,
    )
    seated.bot.begin(seated.view())
    ready = {"type": "spellevate_ready", "seat": seat, "tiles": hand.letters(), "bot": spec, "hands": list(sizes)}
    return [ready], seated.bot_moves(), seated


def on_seat_move(options: Options, table: SeatTable, message: dict):
    """`spellevate_move` in seat mode: another player's move, as the referee saw it."""
    player = _int(message, "player", 0, table.state.players - 1)
    if player == table.seat:
        raise ProtocolError("out_of_order", f"player {player} is the engine's seat: its moves come from the engine")
    play = _move(message)
    _refuse(table.state, player, play, table.lexicon, table.min_length)
    if play is not None and not table.view().unseen.contains(play.tiles()):
        raise ProtocolError("not_your_tile", f"{play.letters}: those tiles are not in the other hands (counted)")
    events = table.state.apply(player, play)
    reply: dict[str, object] = {"type": "ok"}
    if table.state.over:
        reply["round_over"] = events[-1]
    return [reply], table.bot_moves(), table


# -- host mode: the engine referees -----------------------------------------------------


class HostedTable:
    """A whole Spellevate game refereed by the engine: its `SpellevateMatch`, and the
    messages the match's events, deals and turns make (`start`, `remote_move`). A remote
    player's seat is a `RemoteSeat`, told its tiles at each deal."""

    def __init__(self, seats: list, names: list[str], seed: int, rounds: int, tiles: TileCounts, options: Options):
        self.names = names
        self.outbox: list[dict] = []
        for index, seat in enumerate(seats):
            if is_remote(seat):
                seat.on_tiles = self._tiles_to(index)
        lexicon = get_lexicon(options.lexicon)
        self.match = SpellevateMatch(
            seats, seed, lexicon, rounds=rounds, tiles=tiles, min_length=options.min_length, observer=self._public
        )

    @property
    def finished(self) -> bool:
        return self.match.over

    def _tiles_to(self, player: int):
        def tell(tiles: TileCounts, reason: str) -> None:
            self.outbox.append({"type": "spellevate_tiles", "player": player, "tiles": tiles.letters()})

        return tell

    def _public(self, event: SpellevateEvent) -> None:
        self.outbox.append(_event(event, self.match.number or 1))  # the lead draw comes before round 1's deal

    def start(self) -> list[dict]:
        self.match.start()
        return self.run()

    def run(self) -> list[dict]:
        """Play the bots' moves until a remote player must move or the game ends: the
        messages made since the last call, and what the game now waits for."""
        match = self.match
        match.play_bots()
        out, self.outbox = self.outbox, []
        if match.over:
            return [*out, {"type": "spellevate_over", "winners": match.winners, "scores": match.totals}]
        state = match.state
        table = state.table.letters if state.table is not None else None
        return [*out, {"type": "spellevate_turn", "player": state.turn, "table": table, "hands": state.sizes}]

    def remote_move(self, player: int, play: Play | None) -> list[dict]:
        match = self.match
        if match.is_bot(player):
            raise ProtocolError("bad_value", f"player {player} is a bot")
        if self.finished:
            raise ProtocolError("out_of_order", "the game is over")
        _refuse(match.state, player, play, match.lexicon, match.min_length, match.hand(player))
        match.move(player, play)
        return self.run()


def on_start(options: Options, table, message: dict):
    """`spellevate_start`: host a game of bots and remote players."""
    if isinstance(table, HostedTable) and not table.finished:
        raise ProtocolError("out_of_order", "a hosted Spellevate game is already running")
    players = _need(message, "players", list)
    if not 3 <= len(players) <= MAX_PROTOCOL_SPELLEVATE_PLAYERS:
        raise ProtocolError("bad_value", f"Spellevate takes 3 to {MAX_PROTOCOL_SPELLEVATE_PLAYERS} players")
    rounds = _int(message, "rounds", 1, MAX_SPELLEVATE_ROUNDS, default=1)
    sets = _int(message, "sets", 1, 2, default=1)
    seed = _int(message, "seed", 0, MAX_SEED, default=options.seed)
    lexicon, min_length, distribution = _rules(options)
    seats: list[SpellevateBot | RemoteSeat] = []
    names: list[str] = []
    for spec in players:
        if isinstance(spec, dict) and "bot" in spec:
            name = _bot(spec["bot"])
            seats.append(make_spellevate_bot(name, lexicon, min_length))
        elif isinstance(spec, dict) and isinstance(spec.get("remote"), str):
            name = spec["remote"]
            seats.append(RemoteSeat(name))
        else:
            raise ProtocolError("bad_value", 'each player is {"bot": PRESET} or {"remote": NAME}')
        names.append(name)
    tiles = set_of(sets, distribution)
    try:
        check_table(len(seats), tiles)
    except SpellevateError as error:
        raise ProtocolError("bad_value", str(error)) from None
    hosted = HostedTable(seats, names, seed, rounds, tiles, options)
    game = {"type": "spellevate_game", "players": names, "seed": seed, "rounds": rounds, "sets": sets}
    return [game], hosted.start(), hosted


def on_move(options: Options, table, message: dict):
    """`spellevate_move`: a move by another player (seat mode) or a remote player (host mode)."""
    if isinstance(table, SeatTable):
        return on_seat_move(options, table, message)
    if table is None:
        raise ProtocolError("out_of_order", "no Spellevate game: send spellevate_seat or spellevate_start first")
    player = _int(message, "player", 0, table.match.players - 1)
    play = _move(message)
    return [{"type": "ok"}], table.remote_move(player, play), table


def on_hand(options: Options, table, message: dict):
    """`spellevate_hand`: the engine seat's hand (seat mode) or a remote player's (host mode)."""
    if isinstance(table, SeatTable):
        return [{"type": "spellevate_hand", "player": table.seat, "tiles": table.hand.letters()}], [], table
    if table is None:
        raise ProtocolError("out_of_order", "no Spellevate game: send spellevate_seat or spellevate_start first")
    player = _int(message, "player", 0, table.match.players - 1)
    if table.match.is_bot(player):
        raise ProtocolError("bad_value", f"player {player} is a bot: its hand is private")
    return [{"type": "spellevate_hand", "player": player, "tiles": table.match.hand(player).letters()}], [], table


def on_info(options: Options, table, message: dict):
    """`spellevate_info`: what this engine offers for Spellevate."""
    info = {
        "type": "spellevate_info",
        "bots": list(PRESETS),
        "players": [3, MAX_PROTOCOL_SPELLEVATE_PLAYERS],
        "sets": [1, 2],
        "modes": ["seat", "host"],
        "messages": sorted(HANDLERS),
    }
    return [info], [], table


HANDLERS = {
    "spellevate_info": on_info,
    "spellevate_seat": on_seat,
    "spellevate_start": on_start,
    "spellevate_move": on_move,
    "spellevate_hand": on_hand,
}
