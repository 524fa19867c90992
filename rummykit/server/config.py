"""Server settings."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ServerConfig:
    """Everything ``rummykit serve`` can be told; the defaults are for real play.

    ``clock_scale`` multiplies every turn clock (tests use a small value to see timeouts
    quickly); ``next_deal_pause`` is the pause between a deal's end and the next deal;
    ``bot_delay`` the pause before a bot acts (so people can follow); ``away_delay`` the pause
    before the server plays an away seat's turn.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    db: str = "rummykit.db"
    durable: bool = False
    allow_origins: list[str] = field(default_factory=list)
    #: host names the server answers to besides IP addresses, ``localhost`` and ``host``
    #: (``--allow-host``; the ``Host`` header is checked against DNS rebinding)
    allow_hosts: list[str] = field(default_factory=list)
    next_deal_pause: float = 3.0
    bot_delay: float = 0.6
    away_delay: float = 0.3
    #: turns in a row a person's clock may run out before the seat is marked away and its
    #: turns are played at once (``--away-after``; 0: never marked away)
    away_after: int = 2
    clock_scale: float = 1.0
    bot_workers: int = 2
    bot_pool: str = "process"
    #: seconds one bot decision may take (``--bot-timeout``; hard thinks 1 s, medium
    #: milliseconds): past it the worker process is killed and replaced, and the seat plays
    #: the medium move instead (docs/server.md, Bots)
    bot_timeout: float = 10.0
    max_queue: int = 512
    #: simultaneous WebSocket connections from one client address (0: no limit); generous
    #: enough for a classroom behind one NAT, two or three tabs a pupil
    max_connections_per_address: int = 100
    #: rooms created from one client address over the last ``rooms_window`` seconds (0: no
    #: limit): each is kept 24 hours, and a new connection started a fresh per-connection count
    max_rooms_per_address: int = 100
    #: rooms one WebSocket connection may create, from any address (this machine's too: a
    #: client looping over ``create`` on one connection is stopped even behind a proxy)
    max_rooms_per_connection: int = 20
    rooms_window: float = 3600.0
    #: room codes naming no room asked from one client address over the last ``codes_window``
    #: seconds (0: no limit); past it every lookup by code from there is refused until the
    #: window slides: a code is the only key to a private room, and guessing them is the way in
    max_missed_codes_per_address: int = 60
    codes_window: float = 600.0
    rate: float = 20.0
    burst: float = 40.0
    log_level: str = "warning"
    verify_views: bool = False
    #: compute the views that cost (the seat to move, a waiting seat whose hand changed) in
    #: ``view_threads`` threads instead of on the event loop (``--view-threads``; off by
    #: default: on a busy machine the hops between threads cost more than the views)
    offload_views: bool = False
    view_threads: int = 4
    #: seconds between two notes in the database that the server still runs (a restart holds
    #: a running clock with the time it had left at the last one: docs/server.md, Restart)
    alive_interval: float = 5.0
    #: seconds between two full collections of the cyclic garbage collector (0: none here)
    full_gc_interval: float = 600.0
    #: the token ``POST /api/metrics`` must carry (``Authorization: Bearer …``); without one
    #: only a request from the loopback address may reset the measurements
    admin_token: str | None = None
