"""Faces: an account chooses one of the site's avatars (or none: drawn from the name);
the seat it takes carries it, robots are robots; bad choices are refused in words and
change nothing (attacks kept as tests)."""

from __future__ import annotations

from server_harness import Server, until


def test_a_chosen_face_goes_with_the_seat_and_bad_ones_are_refused(db: str) -> None:
    s = Server(db)
    try:
        ana = s.account("Ana")
        assert ana.get("/api/me").json()["avatar"] is None           # from the name
        r = ana.post("/api/me/avatar", {"avatar": "face07"})
        assert r.status_code == 200 and r.json()["avatar"] == "face07"
        for bad in ("face99", "<img src=x>", "robot", ""):
            r = ana.post("/api/me/avatar", {"avatar": bad})
            assert r.status_code == 400 and r.json()["key"] == "bad_avatar", r.text
            assert "cara" in r.json()["error"]
        for bad_body in ({"avatar": 5}, {"avatar": "x" * 30}, {"avatar": "face01", "x": 1}):
            r = ana.post("/api/me/avatar", bad_body)
            assert r.status_code == 400 and r.json()["key"] == "request_malformed", r.text
        assert s.client("127.0.0.9").post("/api/me/avatar", {"avatar": "face01"}
                                          ).status_code == 401
        assert ana.get("/api/me").json()["avatar"] == "face07"      # nothing changed
        table = ana.new_table("parejas", name="Ana")
        with ana.ws(table) as w:
            state = until(w, lambda m: m.get("event", {}).get("kind") == "state")
        by_name = {x["name"]: x for x in state["table"]["seats"]}
        assert by_name["Ana"]["avatar"] == "face07" and not by_name["Ana"]["robot"]
        assert all(x["robot"] and x["avatar"] is None for n, x in by_name.items() if n != "Ana")
        r = ana.post("/api/me/avatar", {"avatar": None})               # back to the name
        assert r.status_code == 200 and r.json()["avatar"] is None
        t = s.table(table)
        assert t.state.avatars == {0: "face07"}          # the seat keeps the face it had
    finally:
        s.stop()
