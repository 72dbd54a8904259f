"""Doppelkopf game bodies for the rules tests."""


def deal(points=121, re=("Anna", "Bernd"), type="normal", dealer="Anna", re_says=0, kontra_says=0, **extra):
    """A game body; ``re_says``/``kontra_says`` give how many announcements (1 = Re/Kontra,
    2 = ... keine 90, up to 5 = schwarz)."""
    order = ["keine 90", "keine 60", "keine 30", "schwarz"]
    body = {"type": type, "dealer": dealer, "re": list(re), "re_points": points}
    announcements = {}
    if re_says:
        announcements["re"] = ["re", *order[: re_says - 1]]
    if kontra_says:
        announcements["kontra"] = ["kontra", *order[: kontra_says - 1]]
    if announcements:
        body["announcements"] = announcements
    body.update(extra)
    return body
