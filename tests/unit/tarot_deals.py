"""Tarot deals for the rules tests: the FFT worked example, changed where a test looks."""


def game(**changes):
    """The FFT worked example at a table of four, with ``changes``."""
    body = {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "partner": None,
            "oudlers": 2, "points": 49, "petit_au_bout": "attack",
            "poignees": [{"player": "Bernd", "size": "simple"}], "chelem": None, "null": False}
    return body | changes


def plain(**changes):
    """A deal without petit au bout or poignée, to look at one thing at a time."""
    return game(petit_au_bout=None, poignees=[]) | changes
