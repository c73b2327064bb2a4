"""`bananas engine` (the protocol on stdin/stdout) and `bananas serve` (the browser game, and
the protocol over WebSocket).

Registered into the `bananas` group by solver/cli/__init__.py; see docs/PROTOCOL.md.
"""

from __future__ import annotations

import math
import os
import signal

import click

from solver.core.limits import MAX_SECONDS


@click.command()
def engine() -> None:
    """Speak the engine protocol (JSON lines) on stdin/stdout: seat our bots in another
    game, or let the engine referee one. See docs/PROTOCOL.md."""
    from solver.protocol.stdio import run_stdio

    run_stdio()


class FiniteRange(click.FloatRange):
    """click's FloatRange, refusing NaN as well (it passes every range comparison)."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number", param, ctx)
        return number


def number_option(name: str, default: float, low: float, high: float, help: str):
    """A finite number option in [low, high] (inf and NaN are refused by click, exit 2)."""
    return click.option(name, default=default, show_default=True, type=FiniteRange(low, high), help=help)


def _bot_presets(_ctx, _param, values: tuple[str, ...]) -> dict[str, str] | None:
    """--bot NAME=SPEC (repeatable): bot presets the page offers besides the built-in ones."""
    if not values:
        return None
    presets = {}
    for value in values:
        name, sep, spec = value.partition("=")
        if not sep or not name.strip() or not spec.strip():
            raise click.BadParameter(f"{value!r}: use NAME=SPEC, e.g. easy=easy:speed=0.5")
        presets[name.strip()] = spec.strip()
    return presets


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Interface to listen on (loopback by default; 0.0.0.0 or :: every one: phones on your network).",
)
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535))
@click.option("--public-url", help="Base of room links and QR codes (e.g. http://192.168.1.20:8765).")
@click.option("--max-rooms", default=100, show_default=True, type=click.IntRange(1, 100_000))
@click.option("--seats", default=4, show_default=True, type=click.IntRange(1, 8), help="Seats per room.")
@number_option("--rate", 20.0, 0.1, 1000.0, "Messages a page may send per second.")
@number_option("--room-idle", 1800.0, 1.0, MAX_SECONDS, "Seconds without a person's action after which a room closes.")
@number_option("--absent", 60.0, 1.0, MAX_SECONDS, "Seconds a disconnected person keeps their seat.")
@click.option("--distribution", help="Tile set of every room, e.g. A13,B3,... (default: the room's language).")
@click.option("--seed", type=click.IntRange(min=0), help="Seed the rooms' deals (reproducible games).")
@click.option(
    "--bot", "bots", multiple=True, callback=_bot_presets, help="NAME=SPEC: a bot preset the page offers too."
)
@click.option("--only-bots", is_flag=True, help="Offer only the --bot presets, not the built-in ones.")
@number_option(
    "--spellevate-delay",
    1.0,
    0.0,
    60.0,
    "Seconds before each bot move in Spellevate rooms (so people can follow the table).",
)
@click.option("--max-sessions", default=64, show_default=True, type=click.IntRange(1, 10_000))
@number_option("--idle-timeout", 300.0, 1.0, MAX_SECONDS, "Seconds a silent engine session is kept.")
@number_option(
    "--engine-rate",
    50.0,
    0.1,
    100_000.0,
    "Engine messages one address may send per second, all its sessions together (bursts of four times "
    "that; faster ones are read later, none dropped).",
)
@click.option(
    "--max-message",
    default=64 * 1024,
    show_default=True,
    type=click.IntRange(256, 16 * 1024 * 1024),
    help="Largest engine protocol message in bytes.",
)
@click.option("--allow-host", "allowed_hosts", multiple=True, help="A host name the server answers to ('*': any).")
@click.option(
    "--allow-origin",
    "allowed_origins",
    multiple=True,
    help="An origin (https://site) allowed besides the server's own.",
)
@click.option("--proxy-header", help="Header naming the client address behind a proxy (e.g. X-Forwarded-For).")
@click.option(
    "--trusted-proxy",
    "trusted_proxies",
    multiple=True,
    help="Address of the proxy whose --proxy-header is believed (default: 127.0.0.1 and ::1).",
)
@click.option(
    "--metrics-allow",
    "metrics_allow",
    multiple=True,
    metavar="NETWORK",
    help="An address or network (10.0.0.0/8) served /metrics besides loopback (repeatable).",
)
@click.option("--rooms-per-client", default=10, show_default=True, type=click.IntRange(1, 100_000))
@click.option(
    "--room-creations", default=20, show_default=True, type=click.IntRange(1, 100_000), help="Per client, a minute."
)
@click.option("--sessions-per-client", default=16, show_default=True, type=click.IntRange(1, 10_000))
@click.option("--sockets-per-client", default=64, show_default=True, type=click.IntRange(1, 100_000))
@click.option(
    "--room-prefix",
    help="Start room ids with NAME- (several servers behind one proxy, which sends /r/NAME-... here).",
)
@click.option(
    "--db",
    help="SQLite file the rooms and hands are saved to as they happen, so a restart resumes them "
    "('none': memory only). [default: $BANANAS_DATA/rooms.sqlite3, else ~/.local/share/bananas/rooms.sqlite3]",
)
@click.option(
    "--processes",
    default=1,
    show_default=True,
    type=click.IntRange(0, 64),
    help="Worker processes, each holding its share of the rooms (0: one per core, so every core serves).",
)
def serve(
    host: str,
    port: int,
    public_url: str | None,
    max_rooms: int,
    seats: int,
    rate: float,
    room_idle: float,
    absent: float,
    distribution: str | None,
    seed: int | None,
    bots: dict[str, str] | None,
    only_bots: bool,
    spellevate_delay: float,
    max_sessions: int,
    idle_timeout: float,
    engine_rate: float,
    max_message: int,
    allowed_hosts: tuple[str, ...],
    allowed_origins: tuple[str, ...],
    proxy_header: str | None,
    trusted_proxies: tuple[str, ...],
    metrics_allow: tuple[str, ...],
    rooms_per_client: int,
    room_creations: int,
    sessions_per_client: int,
    sockets_per_client: int,
    room_prefix: str | None,
    db: str | None,
    processes: int,
) -> None:
    """Serve the browser game at http://HOST:PORT/ (rooms of people and bots), and the engine
    protocol over WebSocket at ws://HOST:PORT/engine for other programs (docs/PROTOCOL.md)."""
    from dataclasses import replace

    from solver.cli.common import fail
    from solver.core.limits import NETWORK
    from solver.web.config import WebConfig, offered_bots
    from solver.web.persistence import default_path
    from solver.web.uvicorn_runner import bind, serve_forever

    try:
        config = WebConfig(
            max_rooms=max_rooms,
            max_seats=seats,
            messages_per_second=rate,
            message_burst=max(10, int(rate * 3)),
            room_idle_seconds=room_idle,
            absent_seconds=absent,
            public_url=public_url,
            distribution=distribution,
            seed=seed,
            bots=offered_bots(bots, only_bots),
            spellevate_delay=spellevate_delay,
            engine=replace(
                NETWORK, max_sessions=max_sessions, idle_timeout=idle_timeout, max_message_bytes=max_message
            ),
            allowed_hosts=(*allowed_hosts, host),  # the name it listens on (an IP literal is answered anyway)
            allowed_origins=allowed_origins,
            proxy_header=proxy_header,
            trusted_proxies=trusted_proxies or ("127.0.0.1", "::1"),
            metrics_allow=metrics_networks(metrics_allow),
            rooms_per_client=rooms_per_client,
            room_creations_per_minute=room_creations,
            engine_sessions_per_client=min(sessions_per_client, max_sessions),
            engine_messages_per_second=engine_rate,
            engine_message_burst=max(10, int(engine_rate * 4)),
            sockets_per_client=sockets_per_client,
            room_prefix=room_prefix,
            db=None if db == "none" else str(db or default_path()),
            owns_process=True,
        )
        from solver.web.lobby import Rooms
        from solver.web.persistence import DatabaseLock, RoomStore

        Rooms(replace(config, db=None))  # checks the distribution and the bot presets now, not at the first game
        if config.db is not None:
            # One server per file, its workers under its lock: held until the process ends.
            lock = DatabaseLock(config.db)  # noqa: F841 - held, never read
            RoomStore(config.db).close()  # a file that cannot be a database is refused now
        processes = processes or os.cpu_count() or 1
        if processes > 1:
            from solver.web.processes import worker_prefixes

            worker_prefixes(room_prefix, processes)
    except ValueError as error:
        fail(str(error))
    try:
        sock = bind(host, port)
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    started = started_message(sock, processes, public_url)
    # Stopped with Ctrl-C, the command exits 130 as every command does (the group turns the
    # KeyboardInterrupt into it): the server and the front of --processes say which signal
    # stopped them. SIGTERM (a service manager's stop) ends it as it always did.
    if processes == 1:
        click.echo(started)
        stopped_by = serve_forever(sock, config)
    else:
        stopped_by = _serve_on_workers(sock, config, processes, lambda: click.echo(started))
    if stopped_by == signal.SIGINT:
        raise KeyboardInterrupt


def started_message(sock, processes: int, public_url: str | None) -> str:
    """What `serve` says once it listens: the addresses to play at (for --host 0.0.0.0 or ::,
    the machine's own, as no browser opens 0.0.0.0), the engine protocol's, and how to stop."""
    from solver.web.uvicorn_runner import urls_to_play_at

    urls = urls_to_play_at(sock)
    port = sock.getsockname()[1]
    workers = f"{processes} worker processes; " if processes > 1 else ""
    engine = f"ws{urls[0][4:]}engine" if len(urls) == 1 else f"ws://ADDRESS:{port}/engine"
    lines = [f"bananas: play at {' or '.join(urls)}  ({workers}engine protocol: {engine}; Ctrl-C to stop)"]
    if len(urls) > 1 and public_url is None:
        # Room links and QR codes name the address a page was opened at: opened at the loopback,
        # they would send a phone to itself.
        lines.append(
            "bananas: room links and QR codes use the address the page was opened at: for other devices "
            f"to join, open it at a network address above, or give --public-url http://NAME:{port}"
        )
    return "\n".join(lines)


def _serve_on_workers(sock, config, processes: int, on_ready) -> int:
    """The front and its workers, until a signal stops them: that signal."""
    from solver.web.processes import WorkerError, serve_processes

    try:
        return serve_processes(sock, config, processes, on_ready)
    except WorkerError as error:
        click.echo(f"error: {error}", err=True)
        raise SystemExit(1) from None


def metrics_networks(given: tuple[str, ...]) -> tuple[str, ...]:
    """--metrics-allow, checked: ValueError names a value that is not an address or network."""
    import ipaddress

    for value in given:
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ValueError(f"--metrics-allow {value!r} is not an address or network (10.0.0.0/8, ::1)") from None
    return given
