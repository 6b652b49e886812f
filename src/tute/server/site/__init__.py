"""The site's people: accounts, sessions, names, chips and their ledger, XP, ratings, the analysis of kept hands."""
