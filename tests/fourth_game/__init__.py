"""A fourth game kept by the tests, in one folder, to show that a game needs nothing else.

The Zählspiel: each Spiel the table writes down the points every player made (0 to 100);
the highest total when the table ends the Partie wins. Its rules (``rules.py``) and entry
mapping (``entry_form.py``) are pure, its site plug-in is ``plugin.py``. A test adds it with
``protocol.games.install("zaehlspiel", "tests.fourth_game")``, the one line a game of the site
has in ``protocol/games/__init__.py``.
"""
