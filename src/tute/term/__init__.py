"""The terminal client: replaying records and playing against the computer."""
