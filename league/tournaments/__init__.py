"""Tournaments: a season in tournament mode, its rounds (``rounds``) and their seating draw
(``seating``)."""
