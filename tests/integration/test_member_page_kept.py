"""A member's page between club evenings: its table, places over time and charts are kept
for the data's stamp, yet a Partie finished a minute ago shows at once; its
Partien table and sanction list are written in one pass, as django-tables2 and the template
wrote them. His own Partien, the rendered table of them and his sanction list are kept per
his own stamp: a write to one of his Partien, running ones too, shows at once, a write to
anybody else's leaves his page kept."""

from __future__ import annotations

import datetime
import re

from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from league.models import Club, Member
from league.standings import table_cache
from league.standings.history import member_partien
from league.standings.tables import MemberPartienTable
from protocol import recording
from protocol.sheet import chart
from tests.standings_season import NAMES, play
from tests.unit.builders import quiet, sweep


def member_url(club, member, season):
    return reverse("member_page", kwargs={"slug": club.slug, "member_pk": member.pk}) + f"?saison={season.pk}"


def rows(html: str) -> str:
    """The table's body, whitespace between tags left out."""
    body = re.search(r"<tbody[^>]*>(.*)</tbody>", html, flags=re.S).group(1)
    return re.sub(r">\s+<", "><", body).strip()


def test_a_partie_finished_after_the_page_was_kept_shows_at_once(member_client, club, known_season, table):
    bernd = club.members.get(name="Bernd")
    before = member_client.get(member_url(club, bernd, known_season))
    assert (before.context["row"].rank, before.context["row"].won) == (2, 1)
    assert len(before.context["placement_chart"]) > 0
    history_before = before.context["placement_chart"]
    # Bernd wins two more Partien on a later evening: he overtakes Anna (3 wins against 2).
    play(club, known_season, table, [sweep("Bernd", ("Anna", "Carla", "Dieter"))], 10)
    play(club, known_season, table, [sweep("Bernd", ("Anna", "Carla", "Dieter"))], 10)
    after = member_client.get(member_url(club, bernd, known_season))
    assert (after.context["row"].rank, after.context["row"].won) == (1, 3)
    assert after.context["placement_chart"] != history_before  # a new evening, a new place
    assert after.context["partien_count"] == before.context["partien_count"] + 2


def test_a_running_partie_shows_on_the_members_page_with_every_spiel(member_client, club, known_season, table):
    anna = club.members.get(name="Anna")
    running = play(club, known_season, table, [quiet()], 12)
    first = member_client.get(member_url(club, anna, known_season))
    assert first.context["partien_count"] == 5
    before = next(p for p in first.context["partien_table"].data if p.match.pk == running.pk)
    recording.add_event(running, "game", quiet()["game"])
    second = member_client.get(member_url(club, anna, known_season))
    row = next(p for p in second.context["partien_table"].data if p.match.pk == running.pk)
    assert (before.games, row.games) == (1, 2) and not row.counted
    assert row.total == 2 * before.total


def test_a_chart_is_drawn_once_for_the_same_numbers_and_again_for_new_ones(monkeypatch):
    drawn = []
    original = chart.placement_svg
    monkeypatch.setattr(chart, "placement_svg", lambda *a, **k: drawn.append(a) or original(*a, **k))

    class Place:
        def __init__(self, day, rank, of):
            self.date, self.rank, self.of = datetime.date(2026, 3, day), rank, of

    history = [Place(1, 2, 4), Place(8, 1, 4)]
    with translation.override("de"):
        first = chart.placement_chart(history)
        assert chart.placement_chart(history) == first
        assert len(drawn) == 1  # the second time from the cache
        assert chart.placement_chart(history + [Place(15, 3, 5)]) != first
        assert len(drawn) == 2
    with translation.override("en"):
        english = chart.placement_chart(history)
    assert len(drawn) == 3 and english != first  # the English labels
    assert 'aria-label="Place in the table after each club evening"' in english


def test_the_partien_table_is_written_as_django_tables2_writes_it(club, known_season, table):
    """The one-pass rows equal django-tables2's own template, row for row: a won Partie, a
    lost one, a Stechen, an annulled one and a running one."""
    play(club, known_season, table, [quiet()], 20)  # running
    request = RequestFactory().get("/")
    for name in NAMES:
        member = club.members.get(name=name)
        partien = member_partien(member, known_season)
        with translation.override("de"):
            one_pass = MemberPartienTable(partien, club_slug=club.slug)
            own = MemberPartienTable(partien, club_slug=club.slug, template_name="includes/table.html")
            html = render_to_string("league/includes/one_pass_table.html", {"table": one_pass}, request)
            expected = render_to_string("includes/table.html", {"table": own}, request)
        assert "<tbody" in expected and "badge--accent" in expected  # the running Partie is marked
        assert rows(html) == rows(expected)


def test_the_sanction_list_names_each_kind_its_partie_and_season(secretary_client, club, known_season, table):
    annulled = play(club, known_season, table, [quiet(), {"penalty": {"player": "Carla", "points": 150,
                                                                      "reason": "<b>Karten</b> gezeigt"}},
                                                {"annul_match": {"reason": "abgebrochen"}}], 15)
    carla = club.members.get(name="Carla")
    text = secretary_client.get(member_url(club, carla, known_season)).text
    items = re.findall(r'<li class="sanction-history__item.*?</li>', text, flags=re.S)
    assert len(items) == 2
    newest = items[0]
    assert "sanction-history__item--penalty" in newest and "−150" in newest
    assert "&lt;b&gt;Karten&lt;/b&gt; gezeigt" in newest  # the reason as typed, escaped
    assert "nach Spiel 1" in newest and known_season.name in newest and "Partie annulliert" in newest
    link = reverse("protocol:match", kwargs={"slug": club.slug, "pk": annulled.pk})
    assert f'href="{link}">15.03.2026</a>' in newest
    assert "getauscht" in items[1] and "Partie annulliert" not in items[1]


def partien_rows(response) -> list[str]:
    """The rendered Partien table's rows, as text, first cell first."""
    body = re.search(r"<tbody[^>]*>(.*?)</tbody>", response.text, flags=re.S).group(1)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip()
            for row in re.findall(r"<tr.*?</tr>", body, flags=re.S)]


def counting(monkeypatch, name):
    """Count the calls of table_cache's ``name`` (what a kept page does not compute again)."""
    calls = []
    original = getattr(table_cache, name)
    monkeypatch.setattr(table_cache, name, lambda *a, **k: calls.append(a) or original(*a, **k))
    return calls


def test_a_spiel_saved_into_his_running_partie_is_in_the_rendered_table_at_once(
        member_client, club, known_season, table, monkeypatch):
    anna = club.members.get(name="Anna")
    running = play(club, known_season, table, [quiet()], 12)
    computed = counting(monkeypatch, "member_partien")
    first = partien_rows(member_client.get(member_url(club, anna, known_season)))
    assert partien_rows(member_client.get(member_url(club, anna, known_season))) == first
    assert len(computed) == 1  # the second opening from the cache
    recording.add_event(running, "game", quiet()["game"])
    second = partien_rows(member_client.get(member_url(club, anna, known_season)))
    assert len(computed) == 2 and second != first
    assert first[0].startswith("12.03.2026") and second[0].startswith("12.03.2026")
    assert "läuft 31 1 " in first[0] and "läuft 62 2 " in second[0]  # her total and Spiele: 31 in 1, 62 in 2


def test_a_write_to_a_partie_without_him_leaves_his_page_kept(member_client, club, known_season, table,
                                                               monkeypatch):
    anna = club.members.get(name="Anna")
    others = [table[1], table[2], table[3], Member.objects.create(club=club, name="Emil")]
    running = play(club, known_season, others, [quiet(["Bernd", "Carla", "Dieter", "Emil"])], 12)
    computed = counting(monkeypatch, "member_partien")
    member_client.get(member_url(club, anna, known_season))
    recording.add_event(running, "game", quiet(["Bernd", "Carla", "Dieter", "Emil"])["game"])
    member_client.get(member_url(club, anna, known_season))
    assert len(computed) == 1


def test_a_strafe_in_his_running_partie_and_a_renamed_season_show_at_once(secretary_client, club, known_season,
                                                                        table):
    carla = club.members.get(name="Carla")
    url = member_url(club, carla, known_season)
    assert secretary_client.get(url).text.count("sanction-history__item--penalty") == 1
    running = play(club, known_season, table, [quiet()], 12)
    recording.add_event(running, "penalty", {"player": "Carla", "points": 150, "reason": "Karte gezeigt"})
    text = secretary_client.get(url).text
    assert text.count("sanction-history__item--penalty") == 2 and "Karte gezeigt" in text
    known_season.name = "Frühjahr 2026"
    known_season.save()
    items = re.findall(r'<li class="sanction-history__item.*?</li>', secretary_client.get(url).text, flags=re.S)
    assert len(items) == 2 and all("Frühjahr 2026" in item for item in items)  # each names its season anew


def test_the_kept_table_is_kept_per_language_page_and_club_address(member_client, club, known_season, table):
    anna = club.members.get(name="Anna")
    url = member_url(club, anna, known_season)
    german = partien_rows(member_client.get(url, headers={"accept-language": "de"}))
    english = partien_rows(member_client.get(url, headers={"accept-language": "en"}))
    assert german[-1] == "01.03.2026 Bernd, Carla, Dieter Sieger vorläufig 1.248 1 124.800"
    assert english[-1] == "03/01/2026 Bernd, Carla, Dieter Winner provisional 1,248 1 124,800"
    club.slug = "ctv-neu"
    club.save()
    moved = member_client.get(reverse("member_page", kwargs={"slug": "ctv-neu", "member_pk": anna.pk}),
                              {"saison": known_season.pk}).text
    assert "/verein/ctv-neu/partien/" in moved and f"/verein/{Club.objects.get().slug}/" in moved
    assert "/verein/ctv/partien/" not in moved


def test_his_ten_newest_sanctions_show_and_the_earlier_ones_open_on_a_tap(member_client, club, known_season,
                                                                        table):
    for day in range(10, 20):  # ten more evenings, a warning for Carla at each
        play(club, known_season, table, [quiet(), {"warning": {"player": "Carla", "reason": f"laut am {day}."}}], day)
    carla = club.members.get(name="Carla")
    text = member_client.get(member_url(club, carla, known_season)).text
    shown, earlier = text.split('<details class="more">')
    assert shown.count("sanction-history__item--") == 10 and "laut am 19." in shown and "laut am 10." in shown
    assert "1 frühere zeigen</summary>" in earlier and '<ol class="sanction-history" start="11">' in earlier
    assert earlier.count("sanction-history__item--penalty") == 1 and "getauscht" in earlier  # March 4th
