"""What a client may name: word lists and tile distributions.

Two readers with separate code paths. `NetworkSpecs` (the WebSocket server, any remote
client) knows the shipped word lists and inline tile sets only: it calls no function that
can open, stat or list a file, so no message can make the server read or probe its disk.
`LocalSpecs` (`bananas engine` on stdin/stdout, whose client is the machine's own user)
also takes paths to word lists and distribution files.
"""

from __future__ import annotations

from solver.core.limits import MAX_GAME_TILES
from solver.core.tiles import TileCounts, TileError, load_tiles, parse_tiles
from solver.lexicon.loader import SHIPPED, get_lexicon
from solver.protocol.fields import ProtocolError


class NetworkSpecs:
    allows_paths = False

    @staticmethod
    def distribution(spec: str) -> TileCounts:
        try:
            return parse_tiles(spec, MAX_GAME_TILES, letters=False)
        except TileError as error:
            raise ProtocolError("bad_value", f"distribution: {error}") from None

    @staticmethod
    def lexicon(spec: str) -> str:
        """The name of a shipped word list (loaded now, so that a game cannot fail later)."""
        if spec not in SHIPPED:
            raise ProtocolError("bad_value", f"lexicon must be one of {', '.join(SHIPPED)}")
        get_lexicon(spec)
        return spec


class LocalSpecs:
    allows_paths = True

    @staticmethod
    def distribution(spec: str) -> TileCounts:
        try:
            return load_tiles(spec, MAX_GAME_TILES, letters=False)
        except TileError as error:
            raise ProtocolError("bad_value", f"distribution: {error}") from None

    @staticmethod
    def lexicon(spec: str) -> str:
        get_lexicon(spec)  # LexiconError (a bad_value) when missing or unreadable
        return spec
