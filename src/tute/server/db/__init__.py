"""The server's database: its schema (:mod:`schema`) and the Alembic migrations that
make any older database match it (:mod:`migrate`; SQLite and PostgreSQL alike)."""
