"""Duplicate Tute: everyone plays the same deals against robots that play the same for
everyone, and each result is scored against the field on the same deal
(:mod:`tute.duplicate.scoring`)."""
