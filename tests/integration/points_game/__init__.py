"""A minimal game the tests install at run time (``games.install("punkte", ...)``): each
player writes his points of the game; its sheet is the plain list (protocol/sheet/plain.py)."""
