"""A Partie's pages as the tests ask for them: their addresses and the POST data of their forms."""


def url(match, name="", **extra):
    from django.urls import reverse
    return reverse(f"protocol:{name or 'match'}", kwargs={"slug": match.club.slug, "pk": match.pk, **extra})


def game_post(match, body, version=None, **extra):
    """The POST data of the Spiel form for a game body (seat-indexed fields)."""
    seats = [s.name for s in match.seats.all()]
    data = {"trump_mode": "direct", "version": match.version if version is None else version}
    trump = body.get("trump")
    if trump:
        data["trump"] = f"{trump['level']}:{trump['value']}"
    for player, line in body["results"].items():
        i = seats.index(player)
        for key, value in line.items():
            data[f"p{i}_{key}"] = value
    data.update(extra)
    return data


def new_match_post(club, names, scorekeeper, **extra):
    members = {m.name: m.pk for m in club.members.all()}
    data = {"date": "2026-11-20", "place": "Nürtingen", "limit": 1000, "cards_per_deal": 5,
            "no_trump_points": -100, "no_trick_points": -200, "scorekeeper": scorekeeper}
    for i, name in enumerate(names):
        data[f"seat{i}"] = members[name]
    data.update(extra)
    return data


def table_rows(html: str) -> list[dict[str, str]]:
    """The rows of the first data table of a page as its reader sees them: each cell's text
    under its column's heading (the pages are kept as rendered bytes: what they show is the
    HTML, not a template's context)."""
    import re

    def text(cell: str) -> str:
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", cell)).strip()

    table = re.search(r"<table[^>]*>(.*?)</table>", html, flags=re.S).group(1)
    head = re.search(r"<thead[^>]*>(.*?)</thead>", table, flags=re.S).group(1)
    names = [text(cell) for cell in re.findall(r"<th[^>]*>(.*?)</th>", head, flags=re.S)]
    body = re.search(r"<tbody[^>]*>(.*?)</tbody>", table, flags=re.S).group(1)
    return [dict(zip(names, (text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)),
                     strict=False))
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)]
