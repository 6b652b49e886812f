"""``tute admin``: the server's database: migrate, export, ledger, achievements,
series, tournaments and reports."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tute.cli.common import DB_HELP, Subparsers
from tute.core.errors import TuteError


def _cmd_admin(args: argparse.Namespace) -> int:
    from sqlalchemy import create_engine

    from tute.server.db import migrate

    engine = create_engine(args.db)
    before = migrate.current(engine)
    migrate.upgrade(engine)
    print(f"tute: database at revision {migrate.current(engine)} (was {before})")
    engine.dispose()
    return 0


def _cmd_series(args: argparse.Namespace) -> int:
    """``tute admin series new|list``: open a duplicate series, or list them."""
    import time

    from tute.server.site.series import SeriesBook
    from tute.server.store import Store

    store = Store(args.db)
    try:
        book = SeriesBook(store.engine)
        if args.series_command == "new":
            try:
                s = book.create(args.variant, args.deals, args.robots, args.hours)
            except TuteError as e:
                print(f"tute: {e.localized(args.lang)}", file=sys.stderr)
                return 2
            print(f"tute: series {s.id}: {s.deals} deals of {s.variant} against {s.robot_level}"
                  f", open until {time.strftime('%Y-%m-%d %H:%M', time.gmtime(s.closes))} UTC")
            return 0
        now = time.time()
        for s in book.listed(now):
            print(f"{s.id}  {s.status(now):7s} {s.deals:3d} deals  {s.variant}  "
                  f"({s.robot_level}), closes "
                  f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime(s.closes))} UTC")
        return 0
    finally:
        store.close()


def _counted(n: int, thing: str) -> str:
    """ "1 Swiss round", "5 Swiss rounds" (the admin commands speak English)."""
    return f"{n} {thing}" + ("" if n == 1 else "s")


def _cmd_tourney(args: argparse.Namespace) -> int:
    """``tute admin tourney new|list``: announce a Swiss tournament, or list them."""
    import time

    from tute.server.site.tourneys import TourneyBook
    from tute.server.store import Store

    store = Store(args.db)
    try:
        book = TourneyBook(store.engine)
        if args.tourney_command == "new":
            try:
                t = book.create(args.name, args.variant, args.rounds, args.fee,
                                args.move_seconds, args.robots,
                                time.time() + args.starts_in * 60, args.minutes)
            except TuteError as e:
                print(f"tute: {e.localized(args.lang)}", file=sys.stderr)
                return 2
            what = f"an arena of {_counted(t.minutes, 'minute')}" if t.minutes else \
                f"{_counted(t.rounds, 'Swiss round')}"
            print(f"tute: tournament {t.id}: {t.name}, {what} of "
                  f"{t.variant}, entry {t.fee} chips, starts "
                  f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime(t.starts))} UTC")
            return 0
        if args.tourney_command == "cancel":
            try:
                t = book.get(args.id)
            except TuteError as e:
                print(f"tute: {e.localized(args.lang)}", file=sys.stderr)
                return 2
            if not book.cancel(t, time.time()):
                print(f"tute: tournament {t.id} is {t.status}: nothing to cancel",
                      file=sys.stderr)
                return 1
            print(f"tute: tournament {t.id} cancelled; every entry still in its pot given "
                  "back (the games under way are played out)")
            return 0
        for t in book.listed():
            kind = f"arena {t.minutes} min" if t.kind == "arena" else \
                f"round {t.round}/{t.rounds}"
            print(f"{t.id}  {t.status:9s} {kind}  {t.variant}  "
                  f"entry {t.fee}  starts "
                  f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime(t.starts))} UTC  {t.name}")
        return 0
    finally:
        store.close()


def _cmd_achievements(args: argparse.Namespace) -> int:
    """The achievements' feats read again from every table's events, against those kept
    (exit 1 where they differ, unless ``--write`` made them the same)."""
    from sqlalchemy import create_engine

    from tute.server.site.achievements import Achievements, earned
    from tute.server.tables.feats import every_feat

    engine = create_engine(args.db)
    try:
        found = every_feat(engine)
        missing, extra = Achievements(engine).compare(found, write=args.write)
    except Exception as e:
        print(f"tute: cannot rebuild the achievements of {args.db}: {e}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    people = {f.account for f in found}
    total = sum(sum(1 for p in earned(f for f in found if f.account == a).values() if p.done)
                for a in people)
    print(f"tute: {len(found)} feats in the tables' events ({len(people)} people, "
          f"{total} achievements earned)")
    for f in missing:
        print(f"tute: not kept: account {f.account}, table {f.table_id} match {f.match}")
    for f in extra:
        print(f"tute: kept but not in the events: account {f.account}, table "
              f"{f.table_id} match {f.match}")
    if (missing or extra) and not args.write:
        return 1
    print("tute: the kept feats are the events' own" + (" (written)" if missing or extra
                                                           else ""))
    return 0


def _cmd_reports(args: argparse.Namespace) -> int:
    """The chat messages players reported, newest first, for the operator."""
    import datetime

    from sqlalchemy import create_engine

    from tute.server.social.moderation import Moderation

    engine = create_engine(args.db)
    try:
        found = Moderation(engine).reports(args.limit)
    except Exception as e:
        print(f"tute: cannot read the reports of {args.db}: {e}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    if not found:
        print("tute: no reported message")
    for r in found:
        when = datetime.datetime.fromtimestamp(r.at, datetime.UTC).strftime("%Y-%m-%d %H:%M")
        print(f"{when}  {r.place} #{r.seq}  {r.name} ({r.author}), reported by "
              f"{r.reporter}: {r.text!r}")
    return 0


def _cmd_ledger(args: argparse.Namespace) -> int:
    """Prove the chips' ledger: each balance equals its movements, none below zero but the
    mint's, all summing to zero."""
    from sqlalchemy import create_engine, func, select

    from tute.server.db.schema import ledger as movements
    from tute.server.site import ledger

    engine = create_engine(args.db)
    try:
        problems = ledger.check(engine)
        with engine.connect() as c:
            count = c.execute(select(func.count()).select_from(movements)).scalar() or 0
    except Exception as e:
        print(f"tute: cannot read the ledger of {args.db}: {e}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    for p in problems:
        print(f"tute: ledger: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"tute: the ledger holds: {count} movements, every balance equals its "
          "movements, none below zero, the whole sums to zero")
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    """A table's last match, from the server's store, as a record."""
    import datetime

    from tute.core.records import format_record
    from tute.server.store import Store
    from tute.server.tables.log import table_record

    store = Store(args.db, migrate_schema=False)
    try:
        stored = store.load(args.table)
        if stored is None:
            print(f"tute: no table {args.table} in {args.db}", file=sys.stderr)
            return 2
        names = tuple(s.name for s in sorted(stored.seats, key=lambda s: s.seat))
        date = datetime.date.fromtimestamp(stored.created).isoformat()
        try:
            record = table_record(stored.events, stored.variant, stored.robot_level, names,
                                  date)
        except ValueError as e:
            print(f"tute: table {args.table}: {e}", file=sys.stderr)
            return 2
    finally:
        store.close()
    text = format_record(record)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _cmd_worker_key(args: argparse.Namespace) -> int:
    """``tute admin worker-key new|list|revoke``: the keys of analysis workers
    elsewhere (``tute work``)."""
    import datetime

    from sqlalchemy import create_engine

    from tute.server.db import migrate
    from tute.server.site.workerkeys import WorkerKeys

    engine = create_engine(args.db)
    try:
        migrate.upgrade(engine)
        keys = WorkerKeys(engine)
        if args.key_command == "new":
            secret = keys.new(args.label)
            print(f"tute: worker key '{args.label.strip()}' (shown this once; the site "
                  f"keeps its hash only):\n{secret}\n"
                  f"tute: on the worker's machine: TUTE_WORKER_KEY=... tute work --site URL")
        elif args.key_command == "revoke":
            keys.revoke(args.label)
            print(f"tute: worker key '{args.label.strip()}' revoked")
        else:
            found = keys.all()
            if not found:
                print("tute: no worker key")

            def day(t: int | None) -> str:
                return "-" if t is None else datetime.datetime.fromtimestamp(
                    t, datetime.UTC).strftime("%Y-%m-%d %H:%M")
            for k in found:
                state = "revoked " + day(k.revoked) if k.revoked else "in use"
                print(f"{k.label}  made {day(k.created)}  last used {day(k.last_used)}  "
                      f"{state}")
    finally:
        engine.dispose()
    return 0


def add(sub: Subparsers) -> None:
    ad = sub.add_parser("admin", help="the server's database: migrate, export, ledger, "
                                      "achievements, reports")
    ad_sub = ad.add_subparsers(dest="admin_command", required=True)
    mg = ad_sub.add_parser("migrate", help="upgrade the database to the newest schema")
    mg.add_argument("--db", help=DB_HELP)
    mg.set_defaults(func=_cmd_admin)
    wk = ad_sub.add_parser("worker-key", help="keys for analysis workers elsewhere "
                                              "(tute work): new, list, revoke")
    wk_sub = wk.add_subparsers(dest="key_command", required=True)
    for name, text in (("new", "make a key (shown once)"), ("list", "the keys"),
                       ("revoke", "revoke a key: its worker is refused from now on")):
        one = wk_sub.add_parser(name, help=text)
        if name != "list":
            one.add_argument("label", help="the key's name (the worker's machine, say)")
        one.add_argument("--db", help=DB_HELP)
        one.set_defaults(func=_cmd_worker_key)
    ex = ad_sub.add_parser("export", help="a table's last match as a record (tute replay)")
    ex.add_argument("table", help="the table's id")
    ex.add_argument("--db", help=DB_HELP)
    ex.add_argument("--out", help="write the record here (default: print it)")
    ex.set_defaults(func=_cmd_export)
    lg = ad_sub.add_parser("ledger", help="check the chips' ledger (--check)")
    lg.add_argument("--check", action="store_true", required=True,
                    help="prove every balance equals its movements and all sum to zero")
    lg.add_argument("--db", help=DB_HELP)
    lg.set_defaults(func=_cmd_ledger)
    ac = ad_sub.add_parser("achievements", help="rebuild the achievements' feats from "
                                                "every table's events and compare")
    ac.add_argument("--write", action="store_true",
                    help="make the kept feats those of the events (else only compare)")
    ac.add_argument("--db", help=DB_HELP)
    ac.set_defaults(func=_cmd_achievements)
    se = ad_sub.add_parser("series", help="duplicate series: open one (new), list them")
    se_sub = se.add_subparsers(dest="series_command", required=True)
    sn = se_sub.add_parser("new", help="open a duplicate series now")
    sn.add_argument("--variant", default="habanero", help="the game (default habanero)")
    sn.add_argument("--deals", type=int, default=12, help="deals in it (default 12)")
    sn.add_argument("--hours", type=float, default=24.0, help="open this long (default 24)")
    sn.add_argument("--robots", default="expert", help="the robots' level (default expert)")
    sn.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    sn.add_argument("--db", help=DB_HELP)
    sn.set_defaults(func=_cmd_series)
    sl = se_sub.add_parser("list", help="the series, newest first")
    sl.add_argument("--db", help=DB_HELP)
    sl.set_defaults(func=_cmd_series)
    to = ad_sub.add_parser("tourney", help="tournaments (Swiss, arena): announce one (new), "
                                           "list them")
    to_sub = to.add_subparsers(dest="tourney_command", required=True)
    tn = to_sub.add_parser("new", help="announce a Swiss tournament; people enter until it "
                                       "starts")
    tn.add_argument("--name", default="", help="its name (default: the game)")
    tn.add_argument("--variant", default="habanero", help="a two-player game (default "
                                                          "habanero)")
    tn.add_argument("--rounds", type=int, default=5, help="Swiss rounds (default 5)")
    tn.add_argument("--minutes", type=int, default=0,
                    help="an arena this long instead: play as many games as you like")
    tn.add_argument("--fee", type=int, default=0, help="entry in chips, into the prize "
                                                       "pool (default 0: free)")
    tn.add_argument("--move-seconds", type=int, default=30, help="the move clock "
                                                                 "(default 30)")
    tn.add_argument("--robots", default="expert", help="the byes' robots (default expert)")
    tn.add_argument("--starts-in", type=float, default=30.0,
                    help="minutes from now to the first round (default 30)")
    tn.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    tn.add_argument("--db", help=DB_HELP)
    tn.set_defaults(func=_cmd_tourney)
    tc = to_sub.add_parser("cancel", help="cancel a tournament: the entries given back")
    tc.add_argument("id", help="the tournament's id (tute admin tourney list)")
    tc.add_argument("--lang", default="es", choices=("es", "pt", "it", "en"))
    tc.add_argument("--db", help=DB_HELP)
    tc.set_defaults(func=_cmd_tourney)
    tl = to_sub.add_parser("list", help="the tournaments: running, open, ended")
    tl.add_argument("--db", help=DB_HELP)
    tl.set_defaults(func=_cmd_tourney)
    rp = ad_sub.add_parser("reports", help="the chat messages players reported")
    rp.add_argument("--db", help=DB_HELP)
    rp.add_argument("--limit", type=int, default=100, help="at most this many (newest)")
    rp.set_defaults(func=_cmd_reports)
