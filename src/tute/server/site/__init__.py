"""The site's people and what is theirs: accounts, sessions, names, chips and their
ledger, XP, ratings, rankings, achievements, series and tournaments."""
