"""Tournaments: a season in tournament mode, its rounds (``rounds``), their seating draw
(``seating``) and the forms of both (``forms``)."""
