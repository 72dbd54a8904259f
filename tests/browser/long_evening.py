"""The Protokollant's evening on a phone: eight players with long names (five at Doppelkopf and
Tarot, their most) and a long reason (tests/browser/test_phone_walk.py)."""

LONGEST = "Maximiliane Scharnhorst-Wittgenstein"
EIGHT = [LONGEST, "Bernd", "Anna-Katharina Oberhuber-Schwarzenegger", "Hannelore Müller-Lüdenscheidt",
         "Konstantin Schwarzenegger", "Friedrich-Wilhelm Papadopoulos", "Carla", "Dieter"]
FIVE = EIGHT[:5]
REASON = "Karte verdeckt getauscht, obwohl alle es gesehen und gerügt hatten"
