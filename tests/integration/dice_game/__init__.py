"""A fourth game the tests install (``protocol.games.install``) to see that the site asks the
registry, not a list of its own: each player throws dice, each pip scores 10 points."""
