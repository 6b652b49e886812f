"""Many people sitting at once never exhaust the store's connections (a review of issue
46's fixes): a sit holds the account's row (PostgreSQL) across its awaits so that
becoming a bot cannot interleave -- with a pooled connection each, fifteen at once took
every connection and then each waited for a second one until it failed as a 500.  Now a
few rows are held at once and the others wait their turn; SQLite holds none."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from server_harness import Server


def test_twenty_people_opening_tables_at_once_all_sit(db: str) -> None:
    s = Server(db, robot_delay=0.0)
    try:
        people = [s.account(f"Jugador{k}", f"127.0.1.{k + 1}") for k in range(20)]

        def open_and_sit(k: int) -> int:
            c = people[k]
            r = c.post("/api/tables", {"variant": "habanero", "name": f"Jugador{k}"})
            return r.status_code

        with ThreadPoolExecutor(20) as pool:
            codes = list(pool.map(open_and_sit, range(20)))
        assert codes == [200] * 20, codes
    finally:
        s.stop()
