"""``rummykit serve``: run the game server (docs/server.md, docs/protocol.md)."""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import os
import signal
import socket
import sqlite3
import sys
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from rummykit.cli.main import one_line
from rummykit.errors import RummyError
from rummykit.server.config import ServerConfig


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``serve`` sub-command to an ``argparse`` sub-parsers object."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="run the online game server", description="Run the online game server."
    )
    add_arguments(parser)
    parser.set_defaults(run=run, func=run)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    d = ServerConfig()
    parser.add_argument("--host", default=d.host, help="address to listen on (%(default)s)")
    parser.add_argument("--port", type=int, default=d.port, help="port (%(default)s)")
    parser.add_argument("--db", default=d.db, help="SQLite database file (%(default)s)")
    parser.add_argument(
        "--durable", action="store_true", help="fsync every commit (survives power loss, slower)"
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another Origin allowed to open WebSockets (repeatable)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers to, besides IP addresses, localhost, this "
        "machine's own name (and NAME.local) and --host (repeatable; *.example.org for its "
        "subdomains, * for any)",
    )
    parser.add_argument(
        "--next-deal-pause",
        type=float,
        default=d.next_deal_pause,
        help="seconds between a deal's end and the next deal (%(default)s)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=d.bot_delay,
        help="seconds before a bot acts (%(default)s)",
    )
    parser.add_argument(
        "--away-delay",
        type=float,
        default=d.away_delay,
        help="seconds before an away seat's turn is played (%(default)s)",
    )
    parser.add_argument(
        "--away-after",
        type=int,
        metavar="N",
        default=d.away_after,
        help="clock run-outs in a row before a person's seat is played at once; 0: never "
        "(%(default)s)",
    )
    parser.add_argument(
        "--clock-scale",
        type=float,
        default=d.clock_scale,
        help="multiply every turn clock (testing; %(default)s)",
    )
    parser.add_argument(
        "--bot-workers", type=int, default=d.bot_workers, help="bot worker processes (%(default)s)"
    )
    parser.add_argument(
        "--bot-pool",
        choices=("process", "thread"),
        default=d.bot_pool,
        help="where bots think (%(default)s)",
    )
    parser.add_argument(
        "--bot-timeout",
        type=_seconds,
        default=d.bot_timeout,
        metavar="SECONDS",
        help="seconds one bot decision may take before its worker is replaced and the medium "
        "move is played (%(default)s)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=d.rate,
        help="messages per second one connection may send (%(default)s)",
    )
    parser.add_argument(
        "--burst",
        type=float,
        default=d.burst,
        help="burst of messages one connection may send (%(default)s)",
    )
    parser.add_argument(
        "--max-connections-per-address",
        type=int,
        default=d.max_connections_per_address,
        metavar="N",
        help="simultaneous WebSocket connections from one client address (%(default)s; 0: no "
        "limit; loopback is never limited)",
    )
    parser.add_argument(
        "--max-rooms-per-address",
        type=int,
        default=d.max_rooms_per_address,
        metavar="N",
        help="rooms one client address may create in an hour (%(default)s; 0: no limit)",
    )
    parser.add_argument(
        "--max-missed-codes-per-address",
        type=int,
        default=d.max_missed_codes_per_address,
        metavar="N",
        help="room codes naming nothing one client address may ask for in 10 minutes, past "
        "which its lookups by code are refused (%(default)s; 0: no limit)",
    )
    parser.add_argument(
        "--view-threads",
        type=int,
        default=0,
        metavar="N",
        help="compute costly views in N threads instead of on the event loop (0: on the loop)",
    )
    parser.add_argument(
        "--admin-token",
        default=os.environ.get("RUMMYKIT_ADMIN_TOKEN") or None,
        metavar="TOKEN",
        help="token that POST /api/metrics must carry (default: $RUMMYKIT_ADMIN_TOKEN; "
        "without one only loopback may reset the measurements)",
    )
    parser.add_argument(
        "--verify-views", action="store_true", help=argparse.SUPPRESS
    )  # testing: check every cached view against the engine
    parser.add_argument(
        "--log-level",
        default=d.log_level,
        choices=("debug", "info", "warning", "error"),
        help="what the server logs (%(default)s)",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds: {text!r}")
    if value == math.inf:
        # A bot that hangs would then hold its worker for ever: the deadline is the point.
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds: {text!r}")
    return value


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    return ServerConfig(
        host=args.host,
        port=args.port,
        db=args.db,
        durable=args.durable,
        allow_origins=[origin(o) for o in args.allow_origin],
        allow_hosts=[host_name(h) for h in args.allow_host],
        next_deal_pause=args.next_deal_pause,
        bot_delay=args.bot_delay,
        away_delay=args.away_delay,
        away_after=args.away_after,
        clock_scale=args.clock_scale,
        bot_workers=args.bot_workers,
        bot_pool=args.bot_pool,
        bot_timeout=args.bot_timeout,
        log_level=args.log_level,
        rate=args.rate,
        burst=args.burst,
        verify_views=args.verify_views,
        offload_views=args.view_threads > 0,
        view_threads=max(1, args.view_threads),
        admin_token=args.admin_token,
        max_connections_per_address=args.max_connections_per_address,
        max_rooms_per_address=args.max_rooms_per_address,
        max_missed_codes_per_address=args.max_missed_codes_per_address,
    )


#: Settings in seconds or per second: finite, and not below the least that makes sense.
_AT_LEAST: dict[str, tuple[str, float, bool]] = {
    "next_deal_pause": ("--next-deal-pause", 0.0, False),
    "bot_delay": ("--bot-delay", 0.0, False),
    "away_delay": ("--away-delay", 0.0, False),
    "clock_scale": ("--clock-scale", 0.0, True),
    "rate": ("--rate", 0.0, True),
    "burst": ("--burst", 1.0, False),
}


#: The most bot worker processes and view threads a server starts: each is started at once
#: (the pool at the first bot decision), and a mistyped --bot-workers 100000 would try to
#: start that many processes. 64 is far above what a machine's cores can keep busy.
MOST_WORKERS = 64


_DEFAULT_PORTS = {"http": 80, "https": 443}

#: Seconds the shutdown waits for the connections to close (WebSockets are closed with 1012,
#: "service restart", at once; the page reconnects and resumes by itself).
SHUTDOWN_GRACE = 5


def origin(text: str) -> str:
    """``--allow-origin``'s value as a browser writes an ``Origin`` header (lower case, no
    default port, no trailing slash), which the server compares as it is: anything else
    would never match, and the option would be silently without effect."""
    if text in ("*", "null"):  # null: the Origin of a file or sandboxed page
        return text
    how = "an origin is SCHEME://HOST[:PORT], as a browser sends it, e.g. https://example.org"
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        raise RummyError(f"--allow-origin {text!r}: {how}") from None
    if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
        raise RummyError(f"--allow-origin {text!r}: {how}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise RummyError(f"--allow-origin {text!r}: {how} (no path: an origin is no page)")
    scheme = parts.scheme.lower()
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    shown = port is not None and port != _DEFAULT_PORTS[scheme]
    return f"{scheme}://{host}" + (f":{port}" if shown else "")


def host_name(text: str) -> str:
    """``--allow-host``'s value, a name the ``Host`` header is compared with without its port:
    a URL or a name with a port would never match."""
    name = text.strip()
    label = name[2:] if name.startswith("*.") else name
    if name != "*" and (not label or any(c in label for c in ":/@*[] ")):
        raise RummyError(f"--allow-host {text!r}: a host name without scheme or port, e.g. "
                         f"games.example.org (*.example.org for its subdomains, * for any)")
    return name


def check_config(config: ServerConfig) -> None:
    """Refuse, before anything starts, a setting the server could not run with: a port out of
    range (uvicorn would listen on another one) or taken, a number that is not finite (the
    turn clocks would fail in the middle of a game), a host that does not resolve."""
    if config.db in ("", ":memory:"):
        # SQLite reads these as a database of its own that is gone when the server stops:
        # every room would be lost at the next restart, without a word.
        raise RummyError(f"--db {config.db!r} is no file: name the database file the rooms "
                         f"are kept in (default rummykit.db)")
    token = config.admin_token
    if token is not None and (not token.strip() or not token.isprintable()):
        # An empty token is no token: the server would take it for none (loopback only) while
        # its owner believes the measurements guarded by one; a line break cannot be sent.
        raise RummyError(f"--admin-token {token!r}: a token is printable text, not empty")
    # SQLite says "unable to open database file" for both, which names neither.
    folder = os.path.dirname(os.path.abspath(config.db))
    if os.path.isdir(config.db):
        raise RummyError(f"--db {config.db}: a directory, not a file: name the database "
                         f"file, e.g. {os.path.join(config.db, 'rummykit.db')}")
    if not os.path.isdir(folder):
        raise RummyError(f"--db {config.db}: no directory {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        # SQLite keeps its -wal and -shm files beside the database, so even an existing,
        # writable file fails there ("attempt to write a readonly database").
        raise RummyError(f"--db {config.db}: the directory {folder} is not writable (SQLite "
                         f"writes its -wal and -shm files beside the database)")
    if not 0 <= config.port <= 65535:
        raise RummyError(f"--port {config.port}: a port is 0 to 65535")
    for name, (flag, least, strict) in _AT_LEAST.items():
        value = getattr(config, name)
        if not math.isfinite(value) or value < least or (strict and value == least):
            bound = f"above {least:g}" if strict else f"at least {least:g}"
            raise RummyError(f"{flag} {value}: it must be a finite number {bound}")
    for flag, value, least in (
        ("--bot-workers", config.bot_workers, 1),
        ("--max-connections-per-address", config.max_connections_per_address, 0),
        ("--max-rooms-per-address", config.max_rooms_per_address, 0),
        ("--max-missed-codes-per-address", config.max_missed_codes_per_address, 0),
        ("--away-after", config.away_after, 0),
    ):
        if value < least:
            raise RummyError(f"{flag} {value}: it must be at least {least}")
    if config.bot_workers > MOST_WORKERS:
        raise RummyError(f"--bot-workers {config.bot_workers}: it must be at most {MOST_WORKERS}")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            config.host, config.port, type=socket.SOCK_STREAM
        )[0]
    except UnicodeError:
        raise RummyError(f"--host {config.host!r} is not a host name") from None
    except OSError as exc:
        raise RummyError(f"--host {config.host}: {exc.strerror or exc}") from None
    # A port already taken (or not ours to take) is said now: uvicorn would say it after
    # the database is opened, in a log line, with exit status 3.
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise RummyError(
                f"cannot listen on {config.host} port {config.port}: {exc.strerror or exc}"
            ) from None


def settings_line(config: ServerConfig) -> str:
    """The settings a server runs with, for its log at ``info``: the admin token only as set
    or not (a log travels further than the service's environment)."""
    shown = {
        "db": os.path.abspath(config.db),
        "durable": config.durable,
        "allow_origins": config.allow_origins,
        "allow_hosts": config.allow_hosts,
        "bot_pool": f"{config.bot_pool} x{config.bot_workers}",
        "bot_timeout": config.bot_timeout,
        "clock_scale": config.clock_scale,
        "next_deal_pause": config.next_deal_pause,
        "bot_delay": config.bot_delay,
        "away_delay": config.away_delay,
        "away_after": config.away_after,
        "rate": f"{config.rate:g}/s burst {config.burst:g}",
        "per_address": f"{config.max_connections_per_address} connections, "
        f"{config.max_rooms_per_address} rooms/h, "
        f"{config.max_missed_codes_per_address} missed codes/10 min",
        "view_threads": config.view_threads if config.offload_views else 0,
        "admin_token": "set" if config.admin_token else "none",
    }
    return ", ".join(f"{k}={v}" for k, v in shown.items())


def _refuse(message: str) -> int:
    # Said here, in the command's words: the settings are checked inside run, not by main.
    print(one_line(f"rummykit serve: {message}"), file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Run the server until interrupted; return the exit status."""
    try:
        import uvicorn

        from rummykit.server.app import create_app
        from rummykit.server.loop_monitor import tune_gc
        from rummykit.server.storage import DatabaseInUse
    except ImportError as exc:
        return _refuse(
            f"this command needs the server extra: pip install 'rummykit[server]' ({exc})"
        )
    try:
        if args.view_threads < 0:
            raise RummyError(f"--view-threads {args.view_threads}: it must be at least 0")
        if args.view_threads > MOST_WORKERS:
            raise RummyError(
                f"--view-threads {args.view_threads}: it must be at most {MOST_WORKERS}"
            )
        config = config_from_args(args)
        check_config(config)
    except RummyError as exc:
        return _refuse(str(exc))
    if config.offload_views:
        # View threads compute views while the event loop serves everyone else; a short
        # switch interval lets the loop get the interpreter back quickly.
        sys.setswitchinterval(0.001)
    # Short collector pauses: small young collections, full ones on a timer (tune_gc).
    tune_gc()
    logging.basicConfig(
        level=config.log_level.upper(), format="%(asctime)s %(levelname)s %(message)s"
    )
    logging.getLogger("rummykit.server").info("settings: %s", settings_line(config))
    try:
        app = create_app(config)
    except (sqlite3.Error, DatabaseInUse, RummyError) as exc:
        return _refuse(f"--db {config.db}: {exc}")
    server = _announced(uvicorn.Server, os.path.abspath(config.db))(
        uvicorn.Config(
            app,
            host=config.host,
            port=config.port,
            # uvicorn's debug logs every WebSocket frame: seat tokens, room codes and hands.
            log_level="info" if config.log_level == "debug" else config.log_level,
            ws_max_size=64 * 1024,
            ws_per_message_deflate=False,
            lifespan="on",
            access_log=False,
            # no "server: uvicorn" on every answer: it names the software (and so its known
            # flaws) to whoever asks
            server_header=False,
            # A connection that does not close when asked holds the shutdown this long at
            # most; the application's own shutdown (bot workers, last checkpoint) runs after.
            timeout_graceful_shutdown=SHUTDOWN_GRACE,
        )
    )
    server.run()
    return 0


def _name() -> str:
    """This machine's name, as the other machines of a household reach it."""
    return socket.gethostname().strip().lower() or "THIS-MACHINE"


def _announced(server_class: Any, db: str) -> Any:
    """``server_class`` (uvicorn's ``Server``) saying where it listens once it does: the port
    it was given may be 0 (any free port), and an IPv6 address goes in brackets in a URL."""

    class Announced(server_class):  # type: ignore[misc]
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if not self.started:
                return
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            where = f"database {db}"
            if host in ("0.0.0.0", "::"):
                # Not an address to open: Chrome refuses 0.0.0.0, Windows cannot reach it.
                # This machine by loopback, the others by its name (which the host check lets
                # through).
                where = f"every address; from other machines http://{_name()}:{port}/; {where}"
                host = "127.0.0.1" if host == "0.0.0.0" else "::1"
            shown = f"[{host}]" if ":" in host else host
            print(f"rummykit server on http://{shown}:{port}/ ({where})", flush=True)

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn stops cleanly on SIGINT and SIGTERM only; the terminal closing (SIGHUP)
            # killed the server with no shutdown: pages saw the connection drop instead of
            # "restarting", the database's log was left unmerged. SIGHUP now stops it as
            # SIGTERM does. Its own handler goes before uvicorn re-raises the signals it
            # caught, so the process still ends by SIGHUP, as a shell expects.
            # Under `nohup` SIGHUP is ignored, and stays so: the server is meant to outlive
            # its terminal.
            main = threading.current_thread() is threading.main_thread()
            keep = main and signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN
            hup = signal.signal(signal.SIGHUP, self.handle_exit) if keep else None
            with super().capture_signals():
                try:
                    yield
                finally:
                    if hup is not None:
                        signal.signal(signal.SIGHUP, hup)

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.should_exit:
                # A second Ctrl-C while stopping: uvicorn would then skip the application's
                # shutdown (bot workers, the last checkpoint) and log a traceback. The shutdown
                # is bounded (SHUTDOWN_GRACE) and every action is stored already.
                print("rummykit serve: already stopping", file=sys.stderr, flush=True)
                return
            super().handle_exit(sig, frame)

    return Announced
