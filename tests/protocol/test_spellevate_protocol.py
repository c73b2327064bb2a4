"""Spellevate over the engine protocol: the documented sessions replayed, seat mode, host mode."""

import io
import json
import re
from pathlib import Path

import pytest
from helpers import send

from solver.core.tiles import TileCounts
from solver.play.spellevate import Play
from solver.play.spellevate_bots import beating_plays, word_index
from solver.protocol import session as session_module
from solver.protocol import spellevate as spellevate_module
from solver.protocol.session import Session
from solver.protocol.stdio import run_stdio

PROTOCOL_MD = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"
SMALL_SET = "A2,C1,E3,I2,N2,O2,R2,S3,T3,Z1"  # 21 tiles: short games


def documented_sessions() -> list[list[str]]:
    text = PROTOCOL_MD.read_text()
    section = text[text.index("\n## Spellevate") :]
    return [block.strip().splitlines() for block in re.findall(r"```\n(.*?)```", section, re.S) if "> {" in block]


def test_the_documented_sessions_replay_exactly():
    sessions = documented_sessions()
    assert len(sessions) == 2
    for lines in sessions:
        session = Session()
        expected = [line[2:] for line in lines if line.startswith("< ")]
        produced = []
        for line in lines:
            if line.startswith("> "):
                produced += [json.dumps(reply, separators=(",", ":")) for reply in session.receive(line[2:], 0.0)]
        assert produced == expected


def test_every_spellevate_message_type_reaches_its_handler():
    assert set(session_module.SPELLEVATE_TYPES) == set(spellevate_module.HANDLERS)


def test_over_stdio():
    stdin = io.StringIO('{"type":"spellevate_info","id":7}\n{"type":"spellevate_nothing"}\n{"type":"quit"}\n')
    stdout = io.StringIO()
    run_stdio(stdin, stdout)
    replies = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert replies[0]["type"] == "spellevate_info" and replies[0]["id"] == 7 and "planner" in replies[0]["bots"]
    assert replies[1]["code"] == "unknown_type"
    assert replies[2] == {"type": "bye"}


# -- seat mode ---------------------------------------------------------------------------


def test_seat_the_bot_leads_when_it_is_the_leader_and_the_full_deal_is_checked():
    session = Session()
    error = send(session, {"type": "spellevate_seat", "tiles": "CAT", "players": 4, "seat": 0, "leader": 0})
    assert error[0]["code"] == "bad_value" and "seat 0 holds 36 tiles in this deal, not 3" in error[0]["message"]
    # A full 5-player deal from leader 3: players 3, 4, 0, 1 get 29 tiles, player 2 gets 28.
    tiles = "AAAAABCDEEEEFGHIIIILMNNOORRSTTU"[:28]
    replies = send(
        session, {"type": "spellevate_seat", "tiles": tiles, "players": 5, "seat": 2, "leader": 3, "bot": "simple"}
    )
    assert replies[0]["type"] == "spellevate_ready" and replies[0]["hands"] == [29, 29, 28, 29, 29]
    assert len(replies) == 1  # not its turn yet
    replies = send(session, {"type": "spellevate_seat", "tiles": "CATZ", "players": 3, "seat": 1, "leader": 1,
                                 "hands": [4, 4, 4]})  # fmt: skip
    assert [reply["type"] for reply in replies] == ["spellevate_ready", "spellevate_move"]
    move = replies[1]
    assert move["player"] == 1 and move["left"] == 4 - len(move["play"])


@pytest.mark.parametrize(
    "message, code, text",
    [
        ({"tiles": "CAT", "players": 2, "seat": 0, "leader": 0}, "bad_value", "'players' must be 3"),
        ({"tiles": "CAT", "players": 3, "seat": 3, "leader": 0}, "bad_value", "'seat' must be 0 to 2"),
        ({"tiles": "CAT", "players": 3, "seat": 0, "leader": 0, "hands": [3, 3]}, "bad_value", "every player's"),
        ({"tiles": "ZZZ", "players": 3, "seat": 0, "leader": 0, "hands": [3, 3, 3]}, "bad_value", "more of some"),
        ({"tiles": "CAT", "players": 3, "seat": 0, "leader": 0, "hands": [3, 3, 3], "bot": "x"}, "bad_value", "x"),
        ({"tiles": "CAT", "players": 3, "seat": 0, "leader": 0, "sets": 3}, "bad_value", "'sets' must be 1 to 2"),
        ({"tiles": "C4T", "players": 3, "seat": 0, "leader": 0}, "bad_letters", ""),
        ({"players": 3, "seat": 0, "leader": 0}, "missing_field", "tiles"),
    ],
)
def test_seat_settings_are_checked(message, code, text):
    session = Session()
    reply = send(session, {"type": "spellevate_seat", **message})
    assert reply[0]["type"] == "error" and reply[0]["code"] == code and text in reply[0]["message"]
    assert session.spellevate is None  # a refused seat leaves nothing behind


def test_seat_refuses_bad_moves_and_reports_the_round_over():
    session = Session()
    send(session, {"type": "options", "min_length": 3})
    seat = {"type": "spellevate_seat", "tiles": "QQXJVK", "players": 3, "seat": 2, "leader": 0, "hands": [3, 6, 6]}
    assert send(session, {**seat, "bot": "planner"})[0]["type"] == "spellevate_ready"

    def move(player, **fields):
        return send(session, {"type": "spellevate_move", "player": player, **fields})

    assert move(0, play="AT")[0]["message"] == "AT is too short: words have at least 3 letters"
    assert move(0, play="CATS")[0]["code"] == "not_your_tile"  # longer than player 0's 3 tiles
    assert move(0, play="C@T")[0]["code"] == "bad_letters"
    assert move(0, play="CAT", **{"pass": True})[0]["code"] == "bad_value"
    assert move(0, **{"pass": True})[0]["message"] == "the leader must play: a leader cannot pass"
    assert move(2, play="Q")[0]["code"] == "out_of_order"  # the engine's own seat
    assert move(0, play="QAT")[0]["code"] == "not_your_tile"  # the set holds two Q: the bot has both
    assert move(0, play="B") == [{"type": "ok"}]
    replies = move(1, play="C")
    assert replies[0] == {"type": "ok"} and replies[1]["type"] == "spellevate_move" and replies[1]["player"] == 2
    bot_move = replies[1]
    assert bot_move.get("pass") or bot_move["play"] > "C" and len(bot_move["play"]) == 1
    replies = move(1, play="D")
    assert replies[0]["code"] == "out_of_order" and replies[0]["message"] == "it is player 0's turn, not player 1's"
    hand = send(session, {"type": "spellevate_hand"})[0]
    assert hand["player"] == 2 and len(hand["tiles"]) == bot_move["left"] == 6 - len(bot_move.get("play", ""))


def test_seat_round_over_when_another_player_goes_out():
    session = Session()
    seat = {"type": "spellevate_seat", "tiles": "AB", "players": 3, "seat": 2, "leader": 0, "hands": [1, 2, 2]}
    send(session, {**seat, "bot": "simple"})
    replies = send(session, {"type": "spellevate_move", "player": 0, "play": "Z"})
    assert replies[0]["round_over"] == {"event": "win", "player": 0, "scores": [4, -2, -2]}
    assert len(replies) == 1
    assert send(session, {"type": "spellevate_move", "player": 1, "pass": True})[0]["code"] == "out_of_order"


# -- host mode ------------------------------------------------------------------------------


def play_hosted(session: Session, start: dict, en) -> tuple[list[dict], dict]:
    """Play every remote seat with the simplest legal strategy until the game is over."""
    index = word_index(en)
    hands: dict[int, TileCounts] = {}
    messages = send(session, start)
    log = list(messages)
    for _ in range(2000):
        for message in messages:
            if message["type"] == "spellevate_tiles":
                hands[message["player"]] = TileCounts.from_letters(message["tiles"])
        turns = [m for m in messages if m["type"] == "spellevate_turn"]
        if any(m["type"] == "spellevate_over" for m in messages) or not turns:
            return log, hands
        player, table = turns[-1]["player"], turns[-1]["table"]
        hand = hands[player]
        if table is None:
            words = index.formable(hand, 2).all_words()
            play = words[0] if words else hand.letters()[0]
        else:
            plays = beating_plays(index, hand, Play(table))
            play = plays[0] if plays else None
        move = {"type": "spellevate_move", "player": player, **({"play": play} if play else {"pass": True})}
        messages = send(session, move)
        assert messages[0] == {"type": "ok"}, messages[0]
        if play:
            hands[player] = hand - TileCounts.from_letters(play)
        log += messages
    raise AssertionError("the game did not end")


def test_host_a_whole_game_with_remote_players(en):
    session = Session()
    send(session, {"type": "options", "distribution": SMALL_SET})
    players = [{"remote": "ann"}, {"bot": "simple"}, {"remote": "bob"}, {"bot": "planner"}]
    log, hands = play_hosted(session, {"type": "spellevate_start", "players": players, "seed": 3, "rounds": 3}, en)
    assert log[0] == {"type": "spellevate_game", "players": ["ann", "simple", "bob", "planner"], "seed": 3,
                      "rounds": 3, "sets": 1}  # fmt: skip
    tiles = [m for m in log if m["type"] == "spellevate_tiles"]
    assert {m["player"] for m in tiles} == {0, 2} and len(tiles) == 6  # remote hands only, every round
    events = [m for m in log if m["type"] == "spellevate_event"]
    deals = [e for e in events if e["event"] == "deal"]
    wins = [e for e in events if e["event"] == "win"]
    assert len(deals) == 3 and len(wins) == 3
    assert [d["leader"] for d in deals[1:]] == [w["player"] for w in wins[:2]]  # the winner leads next
    assert all(sum(d["hands"]) == 21 for d in deals)
    over = log[-1]
    assert over["type"] == "spellevate_over" and over["winners"] == [w["player"] for w in wins]
    assert over["scores"] == [sum(w["scores"][seat] for w in wins) for seat in range(4)] and sum(over["scores"]) == 0
    late = send(session, {"type": "spellevate_move", "player": 0, "pass": True})
    assert late[0]["code"] == "out_of_order" and late[0]["message"] == "the game is over"
    again = send(session, {"type": "spellevate_start", "players": players, "seed": 3, "rounds": 3})
    assert again[0]["type"] == "spellevate_game"  # a finished game can be followed by a new one


def test_host_refuses_bad_moves_and_changes_nothing(en):
    session = Session()
    send(session, {"type": "options", "distribution": SMALL_SET})
    start = {"type": "spellevate_start", "players": [{"remote": "ann"}, {"remote": "bob"}, {"remote": "cy"}],
             "seed": 1}  # fmt: skip
    messages = send(session, start)
    turn = next(m for m in messages if m["type"] == "spellevate_turn")
    player = turn["player"]
    hand = next(m["tiles"] for m in messages if m["type"] == "spellevate_tiles" and m["player"] == player)
    missing = next(letter for letter in "ZQXJ" if letter not in hand)

    def move(who, **fields):
        return send(session, {"type": "spellevate_move", "player": who, **fields})[0]

    assert move((player + 1) % 3, play=hand[0])["code"] == "out_of_order"
    assert move(player, play=missing)["code"] == "not_your_tile"
    assert move(player, **{"pass": True})["code"] == "illegal_play"
    assert move(player, play=hand[:2] + "QQ")["code"] in ("not_your_tile", "illegal_play")
    assert move(player, play="")["code"] == "bad_letters"
    assert move(7, play="A")["code"] == "bad_value"
    assert send(session, {"type": "spellevate_hand", "player": player})[0]["tiles"] == hand  # unchanged
    assert send(session, start)[0]["code"] == "out_of_order"  # a game is running
    assert move(player, play=hand[-1])["type"] == "ok"


@pytest.mark.parametrize(
    "players, text",
    [
        ([{"bot": "simple"}, {"bot": "simple"}], "3 to 32 players"),
        ([{"bot": "simple"}, {"bot": "simple"}, {"human": "x"}], '{"bot": PRESET} or {"remote": NAME}'),
        ([{"bot": "simple"}, {"bot": "simple"}, {"bot": "hard"}], "unknown Spellevate bot 'hard'"),
    ],
)
def test_host_settings_are_checked(players, text):
    session = Session()
    reply = send(session, {"type": "spellevate_start", "players": players})
    assert reply[0]["code"] == "bad_value" and text in reply[0]["message"]
    assert send(session, {"type": "spellevate_move", "player": 0, "pass": True})[0]["code"] == "out_of_order"
