"""``tute serve``: tables in the browser, with robots and friends.

Layers: :mod:`store` (events in SQLite or PostgreSQL), :mod:`table` (one table: the
authority, robots, numbered events), :mod:`wire` (what a seat is sent), :mod:`app`
(HTTP lobby and WebSocket protocol), ``static/`` (the web client).
"""
