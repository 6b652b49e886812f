"""``GET /metrics``: the operator's figures in Prometheus's text format, read from a real
``tute serve`` while robots play, and refused to anyone not on this machine (a request
forwarded by the site's proxy from outside)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx

from server_harness import serve, stop


def _figures(text: str) -> dict[str, float]:
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def test_metrics_while_robots_play_and_only_for_this_machine(tmp_path: Path) -> None:
    proc, base = serve(["--db", f"sqlite:///{tmp_path / 'm.db'}", "--robot-delay", "0.01",
                        "--trust-proxy", "127.0.0.1"])
    try:
        first = _figures(httpx.get(f"{base}/metrics", timeout=5).text)
        assert first["tute_actions_total"] == 0 and first["tute_sockets"] == 0
        r = httpx.post(f"{base}/api/tables", timeout=10, json={
            "robots_only": True, "robot_level": "random", "variant": "parejas(match_target=50)"})
        assert r.status_code == 200, r.text
        time.sleep(3)
        r = httpx.get(f"{base}/metrics", timeout=5)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        for line in r.text.splitlines():      # the exposition format, line by line
            assert re.fullmatch(r"# (HELP|TYPE) tute_\w+ .+|tute_\w+(\{\w+=\"[\w.]+\"\})? "
                                r"[0-9.]+", line), line
        now = _figures(r.text)
        assert now["tute_actions_total"] >= 20          # a robot plays every ~10 ms
        assert now['tute_tables{status="playing"}'] == 1
        assert 0 < now['tute_action_seconds{quantile="0.5"}'] \
            <= now['tute_action_seconds{quantile="0.99"}'] < 5
        assert now["tute_actions_per_second"] > 0
        later = _figures(httpx.get(f"{base}/metrics", timeout=5).text)
        assert later["tute_actions_total"] >= now["tute_actions_total"]
        outside = httpx.get(f"{base}/metrics", timeout=5,
                            headers={"x-forwarded-for": "203.0.113.9"})
        assert outside.status_code == 404 and "tute_" not in outside.text
    finally:
        stop(proc)
