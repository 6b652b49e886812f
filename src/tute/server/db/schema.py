"""The tables of the server's store, as SQLAlchemy metadata (the schema at the newest
migration; ``migrations/versions`` says how a database gets there)."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

metadata = MetaData()

tables = Table(
    "tute_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("variant", Text, nullable=False),
    Column("robot_level", String(32), nullable=False),
    # open | playing | over | closed (left before its match) | broken (cannot be replayed)
    Column("status", String(16), nullable=False),
    Column("created", Integer, nullable=False),
    Column("host", String(64), nullable=True),           # the host's player key
    Column("note", Text, nullable=True),                 # why a table is broken
)

seats = Table(
    "tute_seats", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", Text, nullable=False),
    Column("kind", String(8), nullable=False),            # human | robot
    Column("player", String(64), nullable=True),          # the person's key; robots none
    Column("account", Integer, nullable=True),            # a logged-in person's account
    Column("bot", Boolean, nullable=False, server_default=false()),  # a bot account's seat
)

events = Table(
    "tute_events", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
)

accounts = Table(
    "tute_accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", Text, nullable=False),                # as shown
    Column("name_key", Text, nullable=False, unique=True),   # casefolded, NFKC: unique
    Column("pw_hash", Text, nullable=False),             # argon2id, with its parameters
    Column("created", Integer, nullable=False),
    Column("abandons", Integer, nullable=False, server_default="0"),
    Column("avatar", String(24), nullable=True),          # site.avatars (None: from the name)
    Column("bot", Boolean, nullable=False, server_default=false()),   # site.bots: for good
)

# a bot account's tokens (site.bots): the hash of each, never the token
bot_tokens = Table(
    "tute_bot_tokens", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, nullable=False, index=True),
    Column("hash", String(64), nullable=False, unique=True),
    Column("label", String(40), nullable=False),
    Column("created", Integer, nullable=False),
    Column("last_used", Integer, nullable=True),
    Column("revoked", Integer, nullable=True),
)

sessions = Table(
    "tute_sessions", metadata,
    Column("token", String(64), primary_key=True),       # sha256 of the cookie's secret
    Column("account_id", Integer, nullable=False, index=True),
    Column("created", Integer, nullable=False),
    Column("expires", Integer, nullable=False),
)

# chips: a double-entry ledger -- every movement from one account to another, once
# (its key), and each account's balance; only the mint (where grants come from) may be
# below zero, so the balances always sum to zero
ledger = Table(
    "tute_ledger", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(160), nullable=False, unique=True),
    Column("at", Integer, nullable=False),
    Column("source", String(64), nullable=False, index=True),
    Column("dest", String(64), nullable=False, index=True),
    Column("amount", Integer, CheckConstraint("amount > 0", name="ck_ledger_amount"),
           nullable=False),
    Column("memo", Text, nullable=False),
)

balances = Table(
    "tute_balances", metadata,
    Column("account", String(64), primary_key=True),
    Column("balance", Integer, nullable=False),
    CheckConstraint("account = 'mint' OR balance >= 0", name="ck_balance_not_negative"),
)

xp = Table(
    "tute_xp", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(160), nullable=False, unique=True),
    Column("account_id", Integer, nullable=False, index=True),
    Column("at", Integer, nullable=False, index=True),
    Column("amount", Integer, nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("preset", String(32), nullable=False, server_default=""),   # the game
    Column("won", Integer, nullable=False, server_default="0"),        # 1: a win
)

# a person's skill (openskill's Plackett-Luce) in each family of games and format
ratings = Table(
    "tute_ratings", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("family", String(32), primary_key=True),      # e.g. tute/1v1, guinote/2v2
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)

ACTIVE = ("open", "playing")          # the statuses a restart resumes

# chat: whom an account blocks (their messages hidden everywhere), reported messages
# (for the operator: ``tute admin reports``), and the lobby's chat
blocks = Table(
    "tute_blocks", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("blocked_id", Integer, primary_key=True),
    Column("at", Integer, nullable=False),
)

reports = Table(
    "tute_reports", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Integer, nullable=False),
    Column("place", String(48), nullable=False),         # a table's id, or "lobby"
    Column("seq", Integer, nullable=False),              # the message's number there
    Column("reporter", String(24), nullable=False),      # author ids (audience.author_of)
    Column("author", String(24), nullable=False),
    Column("name", Text, nullable=False),
    Column("text", Text, nullable=False),
    UniqueConstraint("place", "seq", "reporter", name="uq_report_once"),
)

lobby_chat = Table(
    "tute_lobby_chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Integer, nullable=False),
    Column("account_id", Integer, nullable=False),
    Column("name", Text, nullable=False),
    Column("text", Text, nullable=False),
)

# every finished match: which of its table's events it is (they are kept), its people
matches = Table(
    "tute_matches", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),         # the table's n-th match
    Column("first_seq", Integer, nullable=False),        # its start event
    Column("last_seq", Integer, nullable=False),         # its end event
    Column("finished", Integer, nullable=False, index=True),
    Column("variant", Text, nullable=False),
    Column("robot_level", String(32), nullable=False),
    Column("status", String(16), nullable=False),        # over | annulled
    Column("names", Text, nullable=False),               # JSON, by table seat
    Column("result", Text, nullable=False),              # JSON: winner, score
)

match_people = Table(
    "tute_match_people", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, nullable=False, index=True),
    Column("outcome", String(16), nullable=False),       # won | lost | annulled | abandoned
)

# friends: a request (pending) from requester to target, then accepted
friends = Table(
    "tute_friends", metadata,
    Column("requester", Integer, primary_key=True),
    Column("target", Integer, primary_key=True),
    Column("state", String(16), nullable=False),          # pending | accepted
    Column("since", Integer, nullable=False),
)

# the server's own secrets (the key that signs invitation links), made at first start
secrets = Table(
    "tute_secrets", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)

# the analysis of one seat's decisions in one hand of a kept match (the review page's
# cache: judged once, in a worker, then read by everyone)
analyses = Table(
    "tute_analyses", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("version", Integer, primary_key=True),         # of the judgement (review.py)
    Column("max_samples", Integer, nullable=False),       # deals a decision may take
    Column("created", Integer, nullable=False),
    Column("data", Text, nullable=False),                 # JSON: the decisions
)

# the analysis's job queue (tables.jobs): a hand waiting to be judged, a decision at a
# time, by whichever worker takes it (a lease: ``lease`` until ``lease_until``)
analysis_jobs = Table(
    "tute_analysis_jobs", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("version", Integer, nullable=False),           # of the judgement (review.py)
    Column("record", Text, nullable=False),               # the match's record
    Column("points", Text, nullable=False),               # JSON: the decisions to judge
    Column("results", Text, nullable=False),              # JSON: those judged so far
    Column("requester", String(128), nullable=False, index=True),
    Column("address", String(64), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("served", Float, nullable=False, index=True),  # last taken: hands take turns
    Column("lease", String(32), nullable=True),           # the worker's, while it holds it
    Column("lease_until", Float, nullable=False),
    Column("turn", Integer, nullable=False),               # takes so far (one taker each)
    Column("tries", Integer, nullable=False),              # leases run out on this decision
    Column("failed_at", Float, nullable=False),            # 0: not failed
)

# the keys analysis workers on other machines show (tables.workerkeys): hashes only
worker_keys = Table(
    "tute_worker_keys", metadata,
    Column("hash", String(64), primary_key=True),
    Column("label", String(40), nullable=False, unique=True),
    Column("created", Integer, nullable=False),
    Column("last_used", Integer, nullable=True),
    Column("revoked", Integer, nullable=True),
)

# achievements: what each person did in each settled match (site.achievements folds them)
feats = Table(
    "tute_feats", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("match", Integer, primary_key=True),
    Column("at", Integer, nullable=False, index=True),
    Column("preset", String(32), nullable=False),
    Column("won", Integer, nullable=False),
    Column("counted", Integer, nullable=False),            # it earned the person XP
    Column("things", Text, nullable=False),
)

# duplicate series (site.series): the same deals for everyone, against the same robots
series = Table(
    "tute_series", metadata,
    Column("id", String(16), primary_key=True),
    Column("variant", String(200), nullable=False),
    Column("deals", Integer, nullable=False),
    Column("robot_level", String(32), nullable=False),
    Column("master", String(64), nullable=False),         # secret until the series closes
    Column("opens", Integer, nullable=False),
    Column("closes", Integer, nullable=False, index=True),
    Column("created", Integer, nullable=False),
)
series_plays = Table(
    "tute_series_plays", metadata,
    Column("series_id", String(16), primary_key=True),
    Column("account_id", Integer, primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("table_id", String(32), nullable=True),         # the table it is played at
    Column("margin", Integer, nullable=True),              # None: not finished
    Column("finished", Integer, nullable=True),
)


# tournaments among people (site.tourneys): a Swiss tournament, its entrants, its boards
tourneys = Table(
    "tute_tourneys", metadata,
    Column("id", String(16), primary_key=True),
    Column("kind", String(8), nullable=False),             # swiss, arena
    Column("name", String(80), nullable=False),
    Column("variant", String(200), nullable=False),
    Column("rounds", Integer, nullable=False),              # swiss
    Column("minutes", Integer, nullable=False),             # arena: how long it runs
    Column("fee", Integer, nullable=False),                 # chips to enter (0: free)
    Column("move_seconds", Integer, nullable=False),
    Column("robot_level", String(32), nullable=False),      # the byes' robots
    Column("starts", Integer, nullable=False),
    Column("status", String(12), nullable=False, index=True),   # open, running, over
    Column("round", Integer, nullable=False),               # the round being played
    Column("created", Integer, nullable=False),
    Column("finished", Integer, nullable=True),
)
tourney_entries = Table(
    "tute_tourney_entries", metadata,
    Column("tourney_id", String(16), primary_key=True),
    Column("account_id", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("joined", Integer, nullable=False),
    Column("ticket", String(16), nullable=False),           # this entry's chips' key
    Column("withdrawn", Integer, nullable=True),            # the round it left after
    Column("partner_id", Integer, nullable=True),           # parejas: the partner asked for
    Column("team", String(40), nullable=True),              # its entrant (parejas: drawn)
    Column("seen", Integer, nullable=True),                 # an arena: last on its page
)
tourney_boards = Table(
    "tute_tourney_boards", metadata,
    Column("tourney_id", String(16), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("table_id", String(32), nullable=False, unique=True),
    Column("a", String(40), nullable=False),                # the entrant at seat 0 (and 2)
    Column("b", String(40), nullable=True),                 # at seat 1 (3); None: the bye
    Column("seats", String(200), nullable=False),           # JSON: each seat's account or null
    Column("score", Float, nullable=True),                  # a's: 1, 0.5, 0; None: playing
    Column("margin", Integer, nullable=True),
    Column("finished", Integer, nullable=True),
)
