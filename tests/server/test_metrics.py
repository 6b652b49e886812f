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
            assert re.fullmatch(r"# (HELP|TYPE) tute_\w+ .+|tute_\w+(\{\w+=\"([\w.]+|\+Inf)\""
                                r"(,\w+=\"([\w.]+|\+Inf)\")*\})? [0-9.]+", line), line
        now = _figures(r.text)
        assert now["tute_actions_total"] >= 20          # a robot plays every ~10 ms
        assert now['tute_tables{status="playing"}'] == 1
        assert 0 < now['tute_action_seconds{quantile="0.5"}'] \
            <= now['tute_action_seconds{quantile="0.99"}'] < 5
        assert now["tute_actions_per_second"] > 0
        # every action in the histogram, its buckets cumulative, +Inf the count
        counts = [v for k, v in now.items() if k.startswith("tute_action_duration_seconds_bucket")]
        assert counts == sorted(counts) and counts[-1] == now["tute_action_duration_seconds_count"]
        assert now['tute_action_duration_seconds_bucket{le="+Inf"}'] >= now["tute_actions_total"]
        assert 0 < now["tute_action_duration_seconds_sum"] < 5 * counts[-1]
        # the loop's lag sampled every 50 ms, each generation's pauses a histogram
        assert now["tute_loop_lag_seconds_count"] >= 20
        assert now['tute_loop_lag_seconds_bucket{le="+Inf"}'] == now["tute_loop_lag_seconds_count"]
        for generation in "012":
            pauses = [v for k, v in now.items()
                      if k.startswith(f'tute_gc_pause_seconds_bucket{{generation="{generation}"')]
            assert len(pauses) == 14 and pauses == sorted(pauses)
            assert pauses[-1] == now[f'tute_gc_pause_seconds_count{{generation="{generation}"}}']
        assert sum(now[f'tute_gc_pause_seconds_count{{generation="{g}"}}'] for g in "012") > 0
        later = _figures(httpx.get(f"{base}/metrics", timeout=5).text)
        assert later["tute_actions_total"] >= now["tute_actions_total"]
        outside = httpx.get(f"{base}/metrics", timeout=5,
                            headers={"x-forwarded-for": "203.0.113.9"})
        assert outside.status_code == 404 and "tute_" not in outside.text
    finally:
        stop(proc)


def test_histogram_quantiles_as_prometheus_reads_them() -> None:
    from tute.server.wire.metrics import Metrics, histogram_quantile
    m = Metrics()
    for ms in [0.3] * 50 + [1.5] * 49 + [30.0]:
        m.action(ms / 1000, True)
    m.action(9.0, False)                           # refused: not an applied action
    figures = _figures(m.text([], 0, 0, 0))
    pairs = [(float(k.split('"')[1]), v) for k, v in figures.items()
             if k.startswith("tute_action_duration_seconds_bucket")]
    assert pairs[-1] == (float("inf"), 100)
    assert figures['tute_action_duration_seconds_bucket{le="0.0005"}'] == 50
    assert figures['tute_action_duration_seconds_bucket{le="0.002"}'] == 99
    p50 = histogram_quantile(0.5, pairs)
    p99 = histogram_quantile(0.99, pairs)
    p999 = histogram_quantile(0.999, pairs)
    assert p50 is not None and p99 is not None and p999 is not None
    assert p50 == 0.0005                            # the 50th of 100 in the first bucket
    assert 0.001 < p99 <= 0.002 < p999 <= 0.05
    assert histogram_quantile(0.5, [(float("inf"), 0)]) is None
    assert histogram_quantile(0.5, [(0.001, 0), (float("inf"), 3)]) == 0.001
