"""``tute serve``: tables in the browser, with robots and friends.

Its packages import in one order (docs/server-layout.md): ``db`` and :mod:`store`
(SQLite or PostgreSQL), ``wire`` (what crosses the network), ``site`` (people and
what is theirs), ``social`` (between people), ``tables`` (one table: its events, its
robots, the lobby), ``routes`` (HTTP and sockets), ``cluster`` (several processes),
:mod:`app` (the composition root); ``static/`` is the web client.
"""
