"""What the commands write goes to tute's data folder (``$XDG_DATA_HOME/tute``), never
into the folder they run in: a clone stays clean.  ``tute serve`` says where the games
are kept and whether friends on other computers can join."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from server_harness import free_port


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


def _serve_lines(host: str, work: Path, data: Path) -> tuple[list[str], bool]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tute.cli", "serve", "--host", host, "--port", str(port)],
        cwd=work, env=_env(data), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True)
    try:
        local_only = None
        for _ in range(400):
            try:
                meta = httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1)
                local_only = meta.json()["local_only"]
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        assert local_only is not None, "the server did not start"
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
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
