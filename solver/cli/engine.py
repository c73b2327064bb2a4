"""`bananas engine` (the protocol on stdin/stdout) and `bananas serve` (over WebSocket).

Registered into the `bananas` group by solver/cli.py; see docs/PROTOCOL.md.
"""

from __future__ import annotations

import asyncio

import click


@click.command()
def engine() -> None:
    """Speak the engine protocol (JSON lines) on stdin/stdout: seat our bots in another
    game, or let the engine referee one. See docs/PROTOCOL.md."""
    from solver.protocol.stdio import run_stdio

    run_stdio()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on (loopback by default).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535))
@click.option("--max-sessions", default=64, show_default=True, type=click.IntRange(1, 10_000))
@click.option(
    "--idle-timeout",
    default=300.0,
    show_default=True,
    type=click.FloatRange(min=1.0),
    help="Seconds a silent session is kept.",
)
@click.option(
    "--max-message",
    default=64 * 1024,
    show_default=True,
    type=click.IntRange(256, 16 * 1024 * 1024),
    help="Largest message in bytes.",
)
def serve(host: str, port: int, max_sessions: int, idle_timeout: float, max_message: int) -> None:
    """Serve the engine protocol over WebSocket: one isolated session per connection."""
    from solver.protocol.server import Limits
    from solver.protocol.server import serve as run_server

    limits = Limits(max_sessions=max_sessions, idle_timeout=idle_timeout, max_message_bytes=max_message)
    click.echo(f"bananas engine on ws://{host}:{port} (Ctrl-C to stop)", err=True)
    try:
        asyncio.run(run_server(host, port, limits))
    except KeyboardInterrupt:
        pass
    except OSError as error:
        click.echo(f"error: cannot listen on {host}:{port}: {error.strerror or error}", err=True)
        raise SystemExit(2) from None
