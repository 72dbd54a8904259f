"""The printed sheets of the rulesets kept as a tally (``protocol/rules/tally.py``).

- :mod:`.doppelkopf`: the Doppelkopf list, one row per game (dealer, game type, Re party,
  points, announcements, winner, value, every player's score and running total);
- :mod:`.tarot`: the FFT Kontrollblatt of a table (table number, the players North, East,
  South, West with their numbers, one row per deal, the signatures of all four);
- :mod:`.tally`: what both share (the rows of sanctions and the end, the results);
- :mod:`.common`: what every sheet shares, Chaotentrumpf's too (HTML to PDF, numbers).

Each ruleset module offers ``render(match, ...)`` and ``render_blank(players, ...)``;
``protocol.sheet.render_sheet`` and ``render_blank_sheet`` pick the module by the ruleset.
As the Chaotentrumpf sheet, they only lay out what the rules engine computed.
"""
