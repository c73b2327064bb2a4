"""What long runs share: output files checked before the run and written whole after it,
and a progress bar that shows only on a terminal.

Progress bars are tqdm's: one small pure-Python dependency that shows a bar with rate and
ETA on a terminal and, with `disable=None`, prints nothing at all when stderr is not a
terminal (rich would bring a console framework and its own dependencies for the same bar;
click's bar prints its label even when piped).

Files named by options (--json, --csv, --plot, --svg) are checked up front (a bad path fails
before any game is played) and written at the end through a temporary file beside them,
then moved into place: an interrupted or failed run leaves nothing half-written.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import click

STDOUT = "-"


def progress_bar(total: int, label: str, unit: str = "game", enabled: bool = True, items=None):
    """A tqdm bar on stderr (a context manager with `update(n)`, or an iterable over
    `items`); silent off a terminal."""
    from tqdm import tqdm

    no_monitor_thread()
    return tqdm(
        items,
        total=total,
        desc=label,
        unit=unit,
        file=sys.stderr,
        disable=None if enabled else True,  # None: only when stderr is a terminal
        leave=False,
        dynamic_ncols=True,
    )


def no_monitor_thread() -> None:
    """No tqdm monitor thread (it only tunes how often a slow bar redraws). Every bar starts
    one, even a disabled bar, and a tournament's workers are forked only from a process of one
    thread (`solver.play.tournament.default_start_method`): with it they were spawned, each
    importing and loading everything again, on every `bananas tournament --workers`."""
    from tqdm import tqdm

    tqdm.monitor_interval = 0


def check_writable(path: str, option: str) -> None:
    """Refuse, before a run, a file that could not be written at its end."""
    if path == STDOUT:
        return
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise ValueError(f"{option}: {path} is a directory")
    if not folder.is_dir():
        raise ValueError(f"{option}: cannot write {path}: no folder {folder}")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise ValueError(f"{option}: cannot write {path}: permission denied")


def write_file(path: str, write: Callable[[str], object]) -> None:
    """`write(temporary_path)`, then move the file into place (nothing half-written)."""
    import tempfile  # writing files only: a solve to the terminal need not import it

    target = Path(path)
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    os.close(handle)
    try:
        write(temp)
        os.chmod(temp, 0o666 & ~current_umask())  # mkstemp makes 0600; a written file normally is not
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_text(path: str, text: str) -> None:
    """Text to a file, whole, or to stdout for '-'."""
    if path == STDOUT:
        click.echo(text, nl=False)
        return
    write_file(path, lambda temp: Path(temp).write_text(text, encoding="utf-8"))


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
