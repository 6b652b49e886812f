"""Tournaments (issue 33): the pure rules of their pairings and standings -- Swiss
(:mod:`tute.tourney.swiss`) and arena (:mod:`tute.tourney.arena`).  The site runs them
(:mod:`tute.server.site.tourneys`)."""
