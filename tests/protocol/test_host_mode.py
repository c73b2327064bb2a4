"""Host mode of the engine protocol: the engine referees. Bots only, and a bot against a
remote player this file plays (splits, dumps, stuck, rotten BANANAS, game over), in the instant
and the realtime clock.
"""

from __future__ import annotations

import pytest
from helpers import (
    CROSS,
    assert_still_serving,
    drain,
    error_code,
    host_session,
    of_type,
    send,
    tiles,
)

from solver.core.grid import Grid, validate
from solver.core.tiles import TileCounts
from solver.play.bots import make_bot
from solver.play.rules import Rules, TableView


def tracked_hand(replies: list[dict], player: int, start: TileCounts | None = None) -> TileCounts:
    held = start or TileCounts()
    for reply in replies:
        if reply["type"] == "tiles" and reply["player"] == player:
            held = held + tiles(reply["tiles"])
    return held


@pytest.mark.parametrize(
    "bots, seed",
    [(["easy", "greedy"], 1), (["greedy", "greedy"], 2), pytest.param(["easy", "medium"], 7, marks=pytest.mark.slow)],
)
def test_host_instant_two_bots_play_to_game_over_with_a_valid_winning_grid(en, bots, seed):
    session = host_session()
    replies = send(session, {"type": "start_game", "players": [{"bot": bot} for bot in bots], "seed": seed})
    out, _ = drain(session)
    replies += out
    assert replies[0] == {"type": "game", "players": bots, "seed": seed}
    events = of_type(replies, "event")
    assert events[0]["event"] == "split"
    assert [event["t"] for event in events] == sorted(event["t"] for event in events)
    assert not of_type(replies, "tiles")  # no remote players: nobody's private tiles are sent
    assert not of_type(replies, "error")
    game_over = of_type(replies, "game_over")
    assert len(game_over) == 1 and replies[-1]["type"] == "game_over"
    over = game_over[0]
    assert over["outcome"] in ("win", "shared", "unawarded")
    for winner in over["winners"]:
        grid = Grid.from_rows(over["grids"][winner])
        report = validate(grid, en, session.host.round.seats[winner].held)
        assert report.ok, report.problems()
    session.host.round.check_invariant()
    assert session.next_wakeup() is None
    # the finished game frees the session: options and a new game are accepted
    assert of_type(send(session, {"type": "options", "seed": 9}), "options")


def test_host_instant_one_bot_one_remote_split_dump_stuck_game_over(en):
    session = host_session()
    replies = send(session, {"type": "start_game", "players": [{"remote": "me"}, {"bot": "easy"}], "seed": 4})
    assert replies[0] == {"type": "game", "players": ["me", "easy"], "seed": 4}
    split = of_type(replies, "tiles")
    assert split[0]["player"] == 0 and split[0]["reason"] == "split" and len(split[0]["tiles"]) == 21
    hand = tracked_hand(replies, 0)
    assert hand == session.host.round.seats[0].held
    # the public split event tells hand sizes, not letters
    split_event = of_type(replies, "event")[0]
    assert split_event["event"] == "split" and split_event["hands"] == [21, 21]

    # a dump of a tile it does not hold: not_your_tile, no dump happens
    absent = next(letter for letter in "QZXJKVWYFHBCMPGUDLNRTOIASE" if hand[letter] == 0)

    def own_dumps() -> int:  # the bot may dump meanwhile
        return sum(event["event"] == "dump" and event["player"] == 0 for event in session.host.round.events)

    dumps_before = own_dumps()
    replies = send(session, {"type": "call", "player": 0, "call": "dump", "tile": absent, "id": "d0"})
    assert replies[0] == {
        "type": "error",
        "code": "not_your_tile",
        "reason": "not_your_tile",
        "message": f"there is no {absent} in the hand",
        "id": "d0",
    }
    assert own_dumps() == dumps_before
    assert not [r for r in replies if r["type"] == "event" and r["event"] == "dump" and r["player"] == 0]
    hand = tracked_hand(replies, 0, hand)
    assert hand == session.host.round.seats[0].held  # only peel draws changed it

    # two tiles at once, a lower-case letter, an empty tile: refused too
    for tile in (hand.letters()[:2], "", "?"):
        assert error_code(send(session, {"type": "call", "player": 0, "call": "dump", "tile": tile})) in (
            "not_your_tile",
            "bad_letters",
        )
    hand = session.host.round.seats[0].held

    # a valid dump: one tile back, three drawn, sent as a tiles message
    tile = hand.letters()[0]
    bunch_before = len(session.host.round.bunch)
    replies = send(session, {"type": "call", "player": 0, "call": "dump", "tile": tile.lower()})
    assert of_type(replies, "ok")
    dumped = [r for r in replies if r["type"] == "tiles" and len(r["tiles"]) == 3]
    assert len(dumped) == 1 and dumped[0]["player"] == 0
    dump_event = [r for r in replies if r["type"] == "event" and r["event"] == "dump"]
    assert dump_event and dump_event[-1]["player"] == 0 and dump_event[-1]["drawn"] == 3
    assert "returned" not in dump_event[-1]  # public: which tile went back is private
    hand = tracked_hand(replies, 0, hand - tiles(tile))
    assert hand == session.host.round.seats[0].held
    assert len(session.host.round.bunch) <= bunch_before - 2

    # stuck: public stuck event for the remote player
    replies = send(session, {"type": "call", "player": 0, "call": "stuck"})
    stuck = [r for r in replies if r["type"] == "event" and r["event"] == "stuck" and r["player"] == 0]
    assert stuck and of_type(replies, "ok")
    hand = tracked_hand(replies, 0, hand)

    # the bot plays on; the game ends (each PEEL of the bot hands the remote a tile and so
    # a new decision: it says stuck again, until the bot wins or is stuck too)
    out, _ = drain(session)
    for _ in range(100):
        if of_type(replies + out, "game_over"):
            break
        out += send(session, {"type": "call", "player": 0, "call": "stuck"})
        out += drain(session)[0]
    replies += out
    hand = tracked_hand(out, 0, hand)
    assert hand == session.host.round.seats[0].held  # every tile the remote got was announced to it
    over = of_type(replies, "game_over")
    assert len(over) == 1
    for winner in over[0]["winners"]:
        assert winner == 1
        assert validate(Grid.from_rows(over[0]["grids"][1]), en, session.host.round.seats[1].held).ok
    session.host.round.check_invariant()
    # calls for the bot's seat are refused
    assert error_code(send(session, {"type": "call", "player": 1, "call": "peel"})) == "bad_value"


def test_host_remote_bananas_with_a_wrong_grid_goes_rotten_then_the_bot_finishes(en):
    """Realtime clock with a fake `now` held at 0: the bot's first call is seconds of
    simulated time away, so the remote player dumps the bunch down first."""
    session = host_session(clock="realtime", time_scale=1000)
    replies = send(session, {"type": "start_game", "players": [{"remote": "me"}, {"bot": "easy"}], "seed": 3}, now=0.0)
    hand = tracked_hand(replies, 0)
    dumps = 0
    while len(session.host.round.bunch) >= 2:
        tile = hand.letters()[dumps % len(hand)]
        replies = send(session, {"type": "call", "player": 0, "call": "dump", "tile": tile}, now=0.0)
        assert of_type(replies, "ok"), replies
        hand = tracked_hand(replies, 0, hand - tiles(tile))
        dumps += 1
        assert dumps <= 60
    assert hand == session.host.round.seats[0].held and len(hand) == 21 + 2 * dumps
    session.host.round.check_invariant()

    replies = send(session, {"type": "call", "player": 0, "call": "bananas", "grid": ["ZZZ"]}, now=0.0)
    rotten = [r for r in replies if r["type"] == "event" and r["event"] == "rotten"]
    assert len(rotten) == 1 and rotten[0]["player"] == 0 and rotten[0]["problems"]
    assert rotten[0]["bunch"] == 144 - 21  # every tile of the rotten hand is back in the bunch
    assert error_code(send(session, {"type": "call", "player": 0, "call": "stuck"}, now=0.0)) == "out_of_order"

    out, _ = drain(session)
    over = of_type(out, "game_over")
    assert len(over) == 1 and over[0]["outcome"] == "win" and over[0]["winners"] == [1]
    assert over[0]["grids"][0] is None
    assert validate(Grid.from_rows(over[0]["grids"][1]), en, session.host.round.seats[1].held).ok
    session.host.round.check_invariant()


def test_host_instant_remote_bananas_with_an_invalid_grid_goes_rotten():
    """Instant clock, with a bot that is stuck from the start (no search budget, never
    dumps), so the remote player can dump the bunch down and call BANANAS itself."""
    session = host_session()
    replies = send(
        session,
        {
            "type": "start_game",
            "seed": 3,
            "players": [{"remote": "me"}, {"bot": "easy:dump_policy=never,node_budget=1"}],
        },
    )
    seen = list(replies)
    hand = tracked_hand(replies, 0)
    bunch = of_type(replies, "event")[0]["bunch"]
    while bunch >= 2:
        tile = hand.letters()[-1]
        replies = send(session, {"type": "call", "player": 0, "call": "dump", "tile": tile})
        seen += replies
        dump = [r for r in replies if r["type"] == "event" and r["event"] == "dump"]
        assert len(dump) == 1 and dump[0]["bunch"] == bunch - 2, replies
        bunch = dump[0]["bunch"]
        hand = tracked_hand(replies, 0, hand - tiles(tile))
    assert hand == session.host.round.seats[0].held
    # Each dump's three tiles are the remote player's turn again, and its call lands at the
    # next event's moment: the clock moved on by one of the bot's events a message.
    times = [r["t"] for r in seen if r["type"] == "event" and r["event"] == "dump"]
    assert times == sorted(times) and times[-1] > times[0]
    # BANANAS with a grid that is not its tiles (and not even words)
    replies = send(session, {"type": "call", "player": 0, "call": "bananas", "grid": ["QXZ", "J.."]})
    kinds = [(r["type"], r.get("event")) for r in replies]
    assert ("event", "bananas") in kinds and ("event", "rotten") in kinds
    rotten = [r for r in replies if r.get("event") == "rotten"][0]
    assert rotten["player"] == 0 and any("not a word" in p for p in rotten["problems"])
    # the stuck bot alone cannot finish: the hand ends unawarded
    out, _ = drain(session)
    over = of_type(replies + out, "game_over")
    assert len(over) == 1 and over[0]["outcome"] == "unawarded" and over[0]["winners"] == []
    session.host.round.check_invariant()


def test_host_remote_stuck_with_stuck_bots_ends_the_game():
    session = host_session(clock="realtime", time_scale=1000)
    send(session, {"type": "start_game", "players": [{"remote": "a"}, {"remote": "b"}], "seed": 1}, now=0.0)
    _, now = drain(session)  # the deal's first moment: the clock starts once the deal is out
    assert session.next_wakeup() is None  # only the remote players can move
    replies = send(session, {"type": "call", "player": 0, "call": "stuck"}, now=now + 0.1)
    assert not of_type(replies, "game_over")
    replies = send(session, {"type": "call", "player": 1, "call": "stuck"}, now=now + 0.2)
    over = of_type(replies, "game_over")
    assert over and over[0]["outcome"] == "unawarded"
    session.host.round.check_invariant()


def test_host_realtime_events_wait_for_the_wall_clock():
    session = host_session(clock="realtime", time_scale=100)
    replies = send(
        session, {"type": "start_game", "players": [{"bot": "greedy"}, {"bot": "greedy"}], "seed": 2}, now=0.0
    )
    assert [r["event"] for r in of_type(replies, "event")] == ["split"]
    wakeup = session.next_wakeup()
    assert wakeup is not None and wakeup > 0
    assert session.tick(now=wakeup * 0.99) == []
    # a running game refuses options, new games and seat hands
    assert error_code(send(session, {"type": "options", "seed": 1}, now=0.0)) == "out_of_order"
    assert error_code(send(session, {"type": "start_game", "players": [{"bot": "greedy"}]}, now=0.0)) == "out_of_order"
    assert error_code(send(session, {"type": "new_hand", "tiles": "CAT"}, now=0.0)) == "out_of_order"
    out, _ = drain(session)
    assert of_type(out, "game_over")


# -- regressions: contract gaps these tests once found ------------------------------------


def test_host_realtime_tick_at_next_wakeup_makes_progress():
    session = host_session(clock="realtime", time_scale=1000)
    send(session, {"type": "start_game", "players": [{"bot": "easy"}], "seed": 3}, now=0.0)
    for _ in range(400):
        wakeup = session.next_wakeup()
        if wakeup is None:
            break
        events_before = len(session.host.round.events)
        queue_before = list(session.host.round.queue)
        session.tick(wakeup)
        assert len(session.host.round.events) > events_before or session.host.round.queue != queue_before, (
            f"tick({wakeup!r}) at next_wakeup() did nothing"
        )
    assert session.host.round.over


def test_start_game_reply_echoes_the_id():
    session = host_session()
    replies = send(session, {"type": "start_game", "players": [{"bot": "greedy"}], "seed": 1, "id": "g"})
    assert of_type(replies, "game")[0].get("id") == "g"


def test_call_after_game_over_is_out_of_order():
    session = host_session(clock="realtime", time_scale=1000)
    send(session, {"type": "start_game", "players": [{"remote": "a"}, {"remote": "b"}], "seed": 1}, now=0.0)
    send(session, {"type": "call", "player": 0, "call": "stuck"})
    assert of_type(send(session, {"type": "call", "player": 1, "call": "stuck"}), "game_over")
    assert (
        error_code(
            send(
                session,
                {"type": "call", "player": 0, "call": "dump", "tile": session.host.round.seats[0].held.letters()[0]},
            )
        )
        == "out_of_order"
    )


def complete_grid_for(letters: TileCounts) -> Grid | None:
    bot = make_bot("hard")
    bot.start(letters, Rules(), 0)
    decision = bot.decide(TableView(bunch=100, active=2, rules=Rules()))
    return bot.current_grid() if decision.action == "peel" else None


def test_remote_player_with_every_tile_placed_can_peel(en):
    for seed in range(10):
        session = host_session(clock="realtime", time_scale=1000)
        replies = send(session, {"type": "start_game", "players": [{"remote": "me"}, {"bot": "easy"}], "seed": seed})
        hand = tracked_hand(replies, 0)
        grid = complete_grid_for(hand)
        if grid is not None:
            break
    assert grid is not None and validate(grid, en, hand).ok
    replies = send(session, {"type": "call", "player": 0, "call": "peel", "grid": grid.to_json()})
    peels = [r for r in replies if r["type"] == "event" and r["event"] == "peel" and r["player"] == 0]
    assert peels, replies


def test_remote_call_the_rules_refuse_gets_an_error():
    session = host_session(clock="realtime", time_scale=1000)
    send(session, {"type": "start_game", "players": [{"remote": "me"}, {"bot": "easy"}], "seed": 3})
    replies = send(session, {"type": "call", "player": 0, "call": "bananas", "grid": CROSS})
    assert error_code(replies) == "out_of_order", replies


def test_remote_early_bananas_does_not_break_later_dumps():
    session = host_session(clock="realtime", time_scale=1000)
    replies = send(session, {"type": "start_game", "players": [{"remote": "me"}, {"bot": "easy"}], "seed": 3})
    hand = tracked_hand(replies, 0)
    send(session, {"type": "call", "player": 0, "call": "bananas", "grid": ["ZZZZZZZZZ"]})
    replies = send(session, {"type": "call", "player": 0, "call": "dump", "tile": hand.letters()[0]})
    assert error_code(replies) is None, replies
    assert [r for r in replies if r["type"] == "tiles" and len(r["tiles"]) == 3]


def test_start_game_with_a_bot_that_cannot_start_is_refused_and_the_session_survives():
    session = host_session()
    replies = send(session, {"type": "start_game", "players": [{"bot": "easy:level=7"}, {"bot": "greedy"}]})
    assert error_code(replies) == "bad_value"
    assert_still_serving(session)
