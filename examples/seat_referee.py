#!/usr/bin/env python3
"""A referee for N `bananas engine` processes in seat mode, written from docs/PROTOCOL.md alone.

It owns the bunch (the English 144-tile set), deals each engine a hand, honours or refuses
their calls under the rules, and ends the game at a valid BANANAS, when every player is
stuck, or at a guard. Standard library and the protocol only: it imports nothing from the
`solver` package, so it shows exactly what a front-end author has to write, and the test
suite runs it (tests/project/test_examples.py) so that the protocol and its document cannot
drift apart.

The rule that keeps it simple (docs/PROTOCOL.md, "Which state a call was made on"): count
the `draw` and `table` messages sent to each seat; a call whose `seen` differs from that
count was made on an older state: refuse it (notice refused) and the bot calls again.

    python3 examples/seat_referee.py --players 3 --bots easy,medium,greedy --seed 4
    python3 examples/seat_referee.py --clock realtime --time-scale 50 --engine "bananas engine"

Prints a JSON summary; exit code 0 when the game ended under the rules and every tile is
accounted for, 1 otherwise.
"""

from __future__ import annotations

import argparse
import collections
import json
import queue
import random
import shlex
import subprocess
import sys
import threading
import time

ENGLISH = "A13,B3,C3,D6,E18,F3,G4,H3,I12,J2,K2,L5,M3,N8,O11,P3,Q2,R9,S6,T9,U6,V3,W3,X2,Y3,Z2"
MAX_MESSAGES = 20_000  # a guard: a game that runs this long ends unawarded


def tile_set(spec: str) -> collections.Counter:
    return collections.Counter({entry[0]: int(entry[1:]) for entry in spec.split(",")})


def hand_size(players: int) -> int:
    return 21 if players <= 4 else 15 if players <= 6 else 11


class Seat:
    """One engine process: its pipes, a reader thread, and what the referee knows of it."""

    def __init__(self, number: int, command: list[str], inbox: queue.Queue):
        self.number = number
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.dealt: collections.Counter = collections.Counter()  # every tile it holds, grid and hand
        self.sent = 0  # draw and table messages sent since new_hand: what a fresh call's `seen` is
        self.active = True
        self.stuck_at: int | None = None  # the `seen` of its last stuck, if nothing came since
        threading.Thread(target=self.read, args=(inbox,), daemon=True).start()

    def read(self, inbox: queue.Queue) -> None:
        for line in self.process.stdout:
            inbox.put((self.number, json.loads(line)))
        inbox.put((self.number, None))  # the engine exited

    def send(self, message: dict) -> None:
        if message["type"] in ("draw", "table"):
            self.sent += 1
            self.stuck_at = None  # its situation changed: it will say again if it is stuck
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def close(self) -> None:
        try:
            self.send({"type": "quit"})
            self.process.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


class Referee:
    def __init__(self, seats: list[Seat], inbox: queue.Queue, rng: random.Random):
        self.seats = seats
        self.inbox = inbox
        self.rng = rng
        self.bunch = tile_set(ENGLISH)
        self.backlog: collections.deque = collections.deque()
        self.counts = collections.Counter()  # what happened, for the summary
        self.result: dict | None = None

    # -- plumbing ------------------------------------------------------------------------
    def next_message(self, timeout: float = 120.0) -> tuple[int, dict]:
        if self.backlog:
            return self.backlog.popleft()
        seat, message = self.inbox.get(timeout=timeout)
        if message is None:
            raise RuntimeError(f"engine {seat} exited")
        return seat, message

    def request(self, seat: Seat, message: dict) -> dict:
        """Send a request with an id; its reply (other messages wait in the backlog)."""
        token = f"referee-{self.rng.random()}"
        seat.send({**message, "id": token})
        held = []
        while True:
            number, reply = self.inbox.get(timeout=120)
            if reply is None:
                raise RuntimeError(f"engine {number} exited")
            if number == seat.number and reply.get("id") == token:
                self.backlog.extend(held)
                return reply
            held.append((number, reply))

    def draw(self, count: int) -> str:
        pool = list(self.bunch.elements())
        tiles = self.rng.sample(pool, count)
        self.bunch.subtract(tiles)
        self.bunch = +self.bunch
        return "".join(sorted(tiles))

    @property
    def active(self) -> list[Seat]:
        return [seat for seat in self.seats if seat.active]

    def table(self) -> dict:
        return {"bunch": sum(self.bunch.values()), "active": len(self.active)}

    # -- the game --------------------------------------------------------------------------
    def deal(self) -> None:
        size = hand_size(len(self.seats))
        hands = [self.draw(size) for _ in self.seats]
        for seat, hand in zip(self.seats, hands, strict=True):
            seat.dealt.update(hand)
            seat.send({"type": "new_hand", "tiles": hand, **self.table()})

    def play(self) -> dict:
        self.deal()
        for _ in range(MAX_MESSAGES):
            if self.result is not None:
                return self.result
            number, message = self.next_message()
            seat = self.seats[number]
            kind = message["type"]
            if kind == "error":
                raise RuntimeError(f"engine {number} refused our message: {message}")
            if kind == "call" and seat.active:
                self.judge(seat, message)
            elif kind == "stuck" and seat.active and message["seen"] == seat.sent:
                seat.stuck_at = message["seen"]
                self.counts["stuck"] += 1
                if all(other.stuck_at == other.sent for other in self.active):
                    self.end("unawarded", [], "every remaining player is stuck")
        if self.result is None:
            self.end("unawarded", [], "message limit reached")
        return self.result

    def judge(self, seat: Seat, call: dict) -> None:
        """Honour the call, or refuse it: stale (made on an older state) or against the rules."""
        action = call["call"]
        self.counts[f"{action} calls"] += 1
        if call["seen"] != seat.sent:
            self.counts["stale calls"] += 1
            return self.refuse(seat, call)
        bunch, active = self.table()["bunch"], len(self.active)
        if action == "peel" and bunch >= active:
            return self.peel(seat)
        if action == "dump" and bunch + 1 >= 3 and seat.dealt[call["tile"]] > 0:
            return self.dump(seat, call["tile"])
        if action == "bananas" and bunch < active:
            return self.bananas(seat, call["grid"])
        self.counts["refused calls"] += 1
        self.refuse(seat, call)

    def refuse(self, seat: Seat, call: dict) -> None:
        refusal = {"type": "notice", "event": "refused", "call": call["call"], "seen": call["seen"]}
        if "tile" in call:
            refusal["tile"] = call["tile"]  # a refused DUMP's tile goes back to the bot's hand
        seat.send({**refusal, **self.table()})

    def peel(self, caller: Seat) -> None:
        """Every active player draws one tile, the caller first."""
        self.counts["peels"] += 1
        order = self.active[self.active.index(caller) :] + self.active[: self.active.index(caller)]
        drawn = {seat.number: self.draw(1) for seat in order}
        for seat in order:
            seat.dealt.update(drawn[seat.number])
            seat.send({"type": "draw", "tiles": drawn[seat.number], "reason": "peel", **self.table()})

    def dump(self, seat: Seat, tile: str) -> None:
        """The tile goes back into the bunch, then three are drawn; the others see the bunch change."""
        self.counts["dumps"] += 1
        seat.dealt[tile] -= 1
        self.bunch[tile] += 1
        drawn = self.draw(3)
        seat.dealt.update(drawn)
        seat.send({"type": "draw", "tiles": drawn, "reason": "dump", **self.table()})
        for other in self.active:
            if other is not seat:
                other.send({"type": "table", **self.table()})

    def bananas(self, caller: Seat, grid: list[str] | None) -> None:
        """Inspection (the engine's own spellcheck against the tiles dealt): a win or a ROTTEN BANANA."""
        letters = "".join(sorted(caller.dealt.elements()))
        report = self.request(caller, {"type": "check", "grid": grid or ["."], "tiles": letters})
        if report.get("valid"):
            caller.send({"type": "notice", "event": "win", "player": "you"})
            return self.end("win", [caller.number], "BANANAS with a valid grid", grid)
        self.counts["rotten"] += 1
        caller.active = False
        self.bunch.update(caller.dealt)
        caller.dealt.clear()
        caller.send({"type": "notice", "event": "rotten", "player": "you"})
        if not self.active:
            return self.end("unawarded", [], "every player went rotten")
        for seat in self.active:
            seat.send({"type": "notice", "event": "rotten", "player": caller.number})
            seat.send({"type": "table", **self.table()})

    def end(self, outcome: str, winners: list[int], reason: str, grid=None) -> None:
        for seat in self.seats:
            if seat.active and seat.number not in winners:
                seat.send({"type": "notice", "event": "end"})
        self.result = {"outcome": outcome, "winners": winners, "reason": reason, "grid": grid}

    # -- after the game: every tile accounted for --------------------------------------------
    def ledger(self) -> list[str]:
        """Each engine's grid and hand hold exactly what the referee dealt it. A DUMP still in
        flight when the game ended is refused first, so its tile goes back to the hand."""
        problems = []
        for seat in self.seats:
            while True:
                shown = self.request(seat, {"type": "grid"})
                late = [message for number, message in self.backlog if number == seat.number]
                late_dumps = [m for m in late if m["type"] == "call" and m["call"] == "dump"]
                self.backlog = collections.deque(item for item in self.backlog if item[0] != seat.number)
                if not late_dumps:
                    break
                for call in late_dumps:
                    self.refuse(seat, call)
            held = collections.Counter("".join(shown["grid"] or []).replace(".", "") + shown["hand"])
            if seat.active and held != seat.dealt:
                problems.append(
                    f"seat {seat.number}: engine holds {sorted(held.elements())}, dealt {sorted(seat.dealt.elements())}"
                )
        total = sum(self.bunch.values()) + sum(sum(seat.dealt.values()) for seat in self.seats)
        if total != sum(tile_set(ENGLISH).values()):
            problems.append(f"{total} tiles in play, not 144")
        return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, help="engines at the table (2 to 8)")
    parser.add_argument("--bots", default="easy", help="bot presets by seat, comma-separated (cycled)")
    parser.add_argument("--seed", type=int, default=0, help="the deal and every draw")
    parser.add_argument("--clock", choices=("instant", "realtime"), default="instant")
    parser.add_argument("--time-scale", type=float, default=20.0, help="realtime: simulated seconds per second")
    parser.add_argument("--engine", default="bananas engine", help="the command that starts an engine")
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 8:
        parser.error("--players must be from 2 to 8")
    bots = args.bots.split(",")
    inbox: queue.Queue = queue.Queue()
    seats = [Seat(number, shlex.split(args.engine), inbox) for number in range(args.players)]
    referee = Referee(seats, inbox, random.Random(args.seed))
    started = time.monotonic()
    try:
        for seat in seats:
            options = {
                "type": "options",
                "clock": args.clock,
                "time_scale": args.time_scale,
                "bot": bots[seat.number % len(bots)],
                "seed": args.seed + seat.number,
            }
            reply = referee.request(seat, options)
            if reply["type"] != "options":
                raise RuntimeError(f"engine {seat.number}: {reply}")
        result = referee.play()
        problems = referee.ledger()
    finally:
        for seat in seats:
            seat.close()
    summary = {
        **result,
        "problems": problems,
        "counts": dict(referee.counts),
        "seconds": round(time.monotonic() - started, 1),
    }
    print(json.dumps(summary))
    return 0 if not problems and result["outcome"] in ("win", "unawarded") else 1


if __name__ == "__main__":
    sys.exit(main())
