"""Tournaments: a season in tournament mode, its rounds (``rounds``), their seating draw
(``seating``), the forms of both (``forms``), and the tables' cards: their codes (``cards``),
what a card opens in a browser (``card_access``) and the secretary's pages for them
(``card_pages``)."""
