"""Every fixed bound of the program, in one place (docs/SECURITY.md lists them and why).

Whatever it is sent or given, each front-end must answer within a bounded time and memory:
sizes (messages, replies, tiles, grid cells, names, files and lines), numbers (seeds, time
scales, bot speeds and search budgets, waits, games and workers), and, for the WebSocket
server, sessions, idle and slow-reading clients and the threads that do the heavy work.
The bounds of the browser game's rooms are `solver.web.config`'s, configurable from
`bananas serve`.
"""

from __future__ import annotations

from dataclasses import dataclass

# -- any game ---------------------------------------------------------------------------------
MAX_GAME_TILES = 288  # a double set: the most tiles a distribution, a hand, a draw or a grid may hold
MAX_SEED = 2**63 - 1
MAX_BANANAGRAMS_PLAYERS = 8  # a Bananagrams game the engine hosts
MAX_SPELLEVATE_PLAYERS = MAX_GAME_TILES  # a Spellevate table at the terminal: a tile each from a double set
MAX_PROTOCOL_SPELLEVATE_PLAYERS = 32  # a Spellevate table over the engine protocol (seat or host)
MAX_SPELLEVATE_ROUNDS = 100  # rounds of one Spellevate game the engine hosts

# -- the engine protocol ------------------------------------------------------------------------
MAX_MESSAGE_BYTES = 64 * 1024  # one incoming message, as UTF-8
MAX_REPLY_BYTES = 512 * 1024  # one outgoing message (a default WebSocket client accepts 1 MiB)
MAX_GRID_CELLS = 128 * 128  # rows x columns of a grid in a message: bounds the replies that echo it
MAX_NAME_CHARS = 64  # a remote player's name
MAX_TABLE_COUNT = 10_000  # 'bunch' and 'active' in seat mode
MAX_REMEMBERED_CALLS = 32  # seat mode: calls a refusal may name (a referee answers long before this many)
TIME_SCALES = (1e-3, 1e6)  # simulated seconds per wall second, realtime clock
BOT_SPEEDS = (0.01, 100.0)  # a bot's speed setting ('hard:speed=3')
MAX_WAIT_SECONDS = 3600.0  # the longest a bot's call or a tick is ever scheduled ahead
TICK_WORK_SECONDS = 0.25  # a tick runs a hosted game this long at most, then yields to other work
NETWORK_NODE_BUDGET = 10_000  # the largest bot search budget a network client may ask for
MAX_QUEUED_LINES = 64  # `bananas engine`: lines read ahead of the one being handled

# -- the command line ---------------------------------------------------------------------------
MAX_GRID_BYTES = 256 * 1024  # a grid file or standard input holding a grid
MAX_GRID_TILES = 10_000  # letters on a grid (a double set is 288; the solver takes 1000)
MAX_ERROR_CHARS = 400  # an error line quotes at most this much of the input
MAX_LINE_BYTES = 64 * 1024  # one line of `solve -`
MAX_HAND_LETTERS = 10_000  # characters of typed tiles read at all (of them at most MAX_GAME_TILES letters)
MAX_SECONDS = 86_400.0  # a time limit, budget or timeout option: a day
MAX_DUMP_SAMPLES = 1000  # dump: simulated draws per letter (each a rebuild of up to --time-per-try)
MAX_GAMES = 1_000_000  # a tournament's or a Spellevate series' games (its schedule is held in memory)
MAX_WORKERS = 256  # worker processes of a tournament or a series


# -- files of tiles --
MAX_COUNT_DIGITS = 4  # a count in a distribution is at most 9999: no overflow, whatever the input
MAX_TILE_FILE_BYTES = 64 * 1024  # a distribution file is read up to this size, never further

# -- word lists --
MAX_WORD_LIST_BYTES = 16 << 20  # a word list's text (3.5 times the French list): bounds build time and memory

# -- the search --
MAX_PROOF_WORDS = 200_000  # words listed for the argument; a hand that spells more gets no proof
MAX_SOLVE_TILES = 1000  # the board is (2n+5)^2 cells: bound the memory a hand can ask for

# -- the games (guards, not rules) --
MAX_CLUSTER_BATCH = 50  # games per batch: bounds what a lost worker costs and how coarse progress gets
MAX_LINEUPS = 100_000  # distinct seatings a tournament may enumerate
MAX_SPELLEVATE_TURNS = 100_000  # a guard, not a rule
MAX_HAND_EVENTS = 20_000  # a hand that runs this long ends unawarded (a guard, not a rule)
MAX_HAND_STEPS = 200_000  # decisions and calls processed, refused ones included (same guard)
MAX_REFUSED = 100  # refused calls in a row after which a player counts as stuck
MAX_MATCH_HANDS = 25  # replays could in principle go on forever
MAX_LADDER_ITERATIONS = 100

# -- game logs (`bananas play --json`, a room's hand log; read by solver.coach) --
MAX_LOG_BYTES = 8 << 20  # a log is read up to this size, never further (a 4-player match with snapshots is ~1 MB)
MAX_LOG_LINE_BYTES = 512 * 1024  # one line: a `grids` line of 8 grids of MAX_GRID_CELLS cells fits
MAX_LOG_HANDS = MAX_MATCH_HANDS  # hands one log may hold
MAX_LOG_SNAPSHOTS_PER_HAND = 400  # grid snapshots of one player in one hand (later changes are not logged)
SNAPSHOT_MIN_SECONDS = 1.0  # a room logs a person's grid at most once a second
MAX_REVIEW_NODES = 2_000  # search nodes of each best grid a review looks for (fixed: the same review everywhere)
MAX_HINT_NODES = 2_000  # search nodes of each search call a hint makes (a 21-tile hand needs a few hundred)

# -- the browser game (solver.web; the configurable room settings are solver.web.config's) --
MAX_PAGE_COORD = 200  # grid cells a page may use, in each direction from the origin
MAX_GRID_SEQ = 2**53 - 1  # a grid update's number, echoed in its check: exact in JavaScript
MAX_ROOM_NAME_CHARS = 24
MAX_ROOM_PREFIX_CHARS = 16  # `serve --room-prefix`: the server's name at the front of its room ids
MAX_SPECTATORS = 16  # people watching a room's hand (they sit down at the next, as seats allow)
MAX_ROOM_HAND_LOGS = 2  # the last hands whose event logs a room keeps (Replay, Download)
MAX_ROOM_LOG_BYTES = 2 << 20  # one room hand's log (within MAX_LOG_BYTES): a room holds 3 at most, the live one too
MAX_SPELLEVATE_PLAY_LETTERS = 64  # letters a play may have (a hand holds at most 48 of the 144 tiles)
MAX_SHOWN_PLAYS = 12  # legal plays listed as buttons, as the terminal seat lists them
MAX_HTTP_CONNECTIONS = 512  # open plain HTTP connections (WebSockets have their own budget): past this, 503
MAX_QUOTED_CHARS = 40  # characters of a page's value quoted back in an error
MAX_QUEUED_PAGE_MESSAGES = 2000  # messages waiting for a page that does not read: past this it is dropped
MAX_ROOM_CONNECTIONS = 32  # open sockets on one room (each gets its broadcasts): past this, refused
MAX_SEAT_CONNECTIONS = 3  # sockets of one seat (two devices and a reload): a newer one closes the oldest
MAX_HTTP_CONNECTIONS_PER_CLIENT = 32  # plain HTTP connections, half-open ones included, from one address
MAX_TRACKED_CLIENTS = 10_000  # addresses whose room-creation rate is remembered (idle ones are forgotten first)
SOCKETS_PER_SEAT = 2  # the WebSocket budget: max_rooms x max_seats x this, plus the engine's sessions
TABLE_THREADS_PER_CORE = 1  # threads for the tables' engine steps, plus one: each keeps its own search buffers


# -- the solve page's JSON API (solver.web.solve_api, docs/SOLVE_API.md) --
MAX_API_TILES = MAX_GAME_TILES  # tiles of a hand, of a grid with its new tiles, of a bunch
MAX_API_BODY_BYTES = 32 * 1024  # one request body: a grid of MAX_GRID_CELLS cells as text fits
MAX_API_SECONDS = 5.0  # the time limit a solve or a peel may ask for
DEFAULT_API_SECONDS = 2.0  # ... and the one it gets when it asks for none
MAX_API_NODES = 200_000  # search nodes of one solve (a 21-tile hand takes a few to a few thousand)
MAX_API_PEEL_LETTERS = 8  # a PEEL's tile or a DUMP's three, with a few tiles still in hand
MAX_API_DUMP_TRIALS = 64  # dump: simulated draws in all (samples x distinct letters in hand)
API_DUMP_SECONDS_PER_TRY = 0.25  # dump: the safety net of each draw (each is capped in nodes first)
API_REQUESTS_PER_SECOND = 2.0  # per client address, sustained ...
API_REQUEST_BURST = 12  # ... and the burst above it
MAX_API_ADDRESSES = 4096  # client addresses whose rate is tracked (the stalest is forgotten first)
MAX_API_JOBS = 64  # API requests waiting for or running in the engine's worker pool, in all: past this, 503
MAX_API_JOBS_PER_CLIENT = 8  # ... and of one client address (solver.protocol.fair: its own queue)


@dataclass(frozen=True)
class Limits:
    """The limits of one session, and of the server that holds many.

    `max_node_budget` caps the bots' search budget (None: no cap, the local engine).
    The server fields: `max_sessions` connections at once (more are closed with 1013),
    `idle_timeout` seconds of silence before a session is closed (1000), `workers` threads
    for the heavy messages (those that make a bot think; cheap ones are answered at once),
    `max_queued_replies` replies waiting for a slow reader and `write_timeout` seconds a
    send may block before the connection is closed (1008)."""

    max_message_bytes: int = MAX_MESSAGE_BYTES
    max_reply_bytes: int = MAX_REPLY_BYTES
    max_node_budget: int | None = NETWORK_NODE_BUDGET
    max_sessions: int = 64
    idle_timeout: float = 300.0
    workers: int = 2
    max_queued_replies: int = 256
    write_timeout: float = 10.0


LOCAL = Limits(max_node_budget=None)  # `bananas engine`: the client is the machine's own user
NETWORK = Limits()  # `bananas serve`
