"""A table: its options, its log of typed events and the one :func:`apply` that makes
its state from them, live and on replay (docs/server-layout.md)."""
