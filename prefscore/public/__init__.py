"""A club's public results page (docs/design.md, "Sharing a result"): above every app, as
it gathers the club's finished public tournaments, its public seasons and its public
leaderboard."""
