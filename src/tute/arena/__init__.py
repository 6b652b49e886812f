"""``tute arena``: computer players against each other on duplicate deals
(:mod:`tute.arena.duplicate`)."""
