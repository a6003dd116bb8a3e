"""The game server (``pip install ".[server]"``): ``citybuild serve``, a JSON API over
HTTP for matches of every game, with bots, persistence in SQLite or PostgreSQL (several
workers) and a browser client.

Modules, one idea each: ``app`` (the endpoints), ``hall`` (matches in memory: create, play, the
match's lock), ``room`` (a match in memory, the bots seated), ``botpool`` (the threads that play
the bots), ``storage`` (what a store offers), ``store`` (SQLite), ``pgstore`` and ``pgcounters``
(PostgreSQL), ``database`` (which store a ``--database`` names), ``prefork`` (several workers),
``payloads`` (what each seat, or anyone, is shown), ``tokens`` (seat secrets),
``events`` (server-sent events), ``limits`` (the request body cap), ``quotas`` (the limits per
client), ``throttle`` (the limits applied), ``counters`` (their counts in the database),
``sweep`` (matches out of memory), ``faults`` (database faults answered 503), ``accepting`` (out
of file descriptors), ``problems`` (refusals), ``run`` (the command), ``client/`` (the browser
client's page and script).

Examples:
    >>> from citybuild.server import create_app  # doctest: +SKIP
    >>> app = create_app("games.sqlite")  # any ASGI server runs it; `citybuild serve` uses uvicorn
"""

from citybuild.server.app import create_app

__all__ = ["create_app"]
