"""What the commands write goes to tute's data folder (``$XDG_DATA_HOME/tute``), never
into the folder they run in: a clone stays clean.  ``tute serve`` says where the games
are kept and whether friends on other computers can join."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from server_harness import serve, stop


def _env(data: Path) -> dict[str, str]:
    return {**os.environ, "XDG_DATA_HOME": str(data)}


def _tute(args: list[str], cwd: Path, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tute.cli", *args], cwd=cwd, env=_env(data),
                          capture_output=True, text=True, timeout=300)


def test_arena_and_admin_write_into_the_data_folder(tmp_path: Path) -> None:
    work, data = tmp_path / "work", tmp_path / "data"
    work.mkdir()
    done = _tute(["arena", "--bots", "random,heuristic", "--deals", "2", "--jobs", "1",
                  "--json"], work, data)
    assert done.returncode == 0, done.stderr
    assert list((data / "tute" / "arena").glob("*.jsonl")), "no results in the data folder"
    done = _tute(["admin", "migrate"], work, data)
    assert done.returncode == 0, done.stderr
    assert (data / "tute" / "tute.db").is_file()
    assert list(work.iterdir()) == [], "a command wrote into the folder it ran in"


def test_the_load_benchmark_never_uses_the_players_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tute bench --load`` without ``--db`` gets a fresh SQLite of its own (its help
    says so): runs of 10,000 seats once filled the data folder's database."""
    from tute.cli import build_parser, with_data_folder

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))      # serve's default made here
    for argv, fresh in ((["bench", "--load", "10"], True),
                        (["bench", "--load", "10", "--human"], True),
                        (["serve"], False), (["admin", "migrate"], False)):
        args = build_parser().parse_args(argv)
        with_data_folder(args)
        assert (args.db is None) is fresh, argv


def _serve_lines(host: str, work: Path, data: Path) -> tuple[list[str], bool]:
    proc, base = serve(["--host", host], cwd=work, env=_env(data), output=True)
    try:
        local_only = httpx.get(f"{base}/api/meta", timeout=5).json()["local_only"]
    finally:
        out = stop(proc)
    return out.splitlines(), bool(local_only)


def test_serve_keeps_its_games_in_the_data_folder_and_says_who_can_join(
        tmp_path: Path) -> None:
    work, data = tmp_path / "work", tmp_path / "data"
    work.mkdir()
    lines, local_only = _serve_lines("127.0.0.1", work, data)
    db = data / "tute" / "tute.db"
    assert db.is_file() and list(work.iterdir()) == []
    assert any(str(db) in line for line in lines), lines
    assert local_only
    assert any("--host 0.0.0.0" in line for line in lines), lines
    lines, local_only = _serve_lines("0.0.0.0", work, data)
    assert not local_only
    assert not any("only this computer" in line for line in lines), lines


def _tables_made(trust: list[str], tmp: Path) -> list[object]:
    """Three tables asked for through a 'proxy' at 127.0.0.1 on behalf of two people
    (X-Forwarded-For), one table a minute allowed per address: the answers' statuses."""
    proc, base = serve(["--db", f"sqlite:///{tmp / 'p.db'}", "--tables-per-minute", "1",
                        *trust])
    try:
        codes: list[object] = []
        cookies: list[str] = []
        for person in ("203.0.113.5", "203.0.113.6", "203.0.113.5"):
            r = httpx.post(f"{base}/api/tables", timeout=10,
                           headers={"x-forwarded-for": person,
                                    "x-forwarded-proto": "https"},
                           json={"name": "Ana", "variant": "habanero"})
            codes.append(r.status_code)
            cookies = cookies or r.headers.get_list("set-cookie")   # the first answer's
        codes.append(bool(cookies) and all("Secure" in c for c in cookies))
        return codes
    finally:
        stop(proc)


def test_proxy_headers_are_believed_only_from_the_trusted_proxy(tmp_path: Path) -> None:
    # behind a trusted proxy each person is known by their own address ...
    # (and told it spoke https: its cookies are Secure)
    assert _tables_made(["--trust-proxy", "127.0.0.1"], tmp_path) == [200, 200, 429, True]
    # ... and without it nobody can claim another address: all three are one address
    assert _tables_made([], tmp_path) == [200, 429, 429, False]
