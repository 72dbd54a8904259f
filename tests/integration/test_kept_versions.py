"""Kept pages are validated by the club's and the member's ``data_version`` (league.registry.versions),
moved by every write that changes what they show: the standings and a member's page kept
before a write show it on the next view, whichever way it was written."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from league.models import Club, Member
from protocol import recording
from protocol.models import Match
from protocol.records.text_audit import repair_stored_texts
from tests.standings_season import play
from tests.unit.builders import quiet, sweep


def standings(client, club, season):
    response = client.get(reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk}))
    assert response.status_code == 200
    return {row.record.name: (row.record.played, row.record.won) for row in response.context["table"].paginated_rows}


def member_page(client, club, member, season):
    response = client.get(reverse("member_page", kwargs={"slug": club.slug, "member_pk": member.pk}),
                          {"saison": season.pk})
    assert response.status_code == 200
    return response


def first_win(club, season):
    """The Partie of the known season's first evening: Anna takes every Stich and wins."""
    return Match.objects.select_related("club", "season").get(club=club, season=season, date=datetime.date(2026, 3, 1))


def versions(club, *members):
    return (Club.objects.get(pk=club.pk).data_version,
            *(Member.objects.get(pk=m.pk).data_version for m in members))


def test_a_correction_that_reopens_a_finished_partie_shows_on_both_pages(member_client, secretary, club,
                                                                         known_season):
    anna = club.members.get(name="Anna")
    assert standings(member_client, club, known_season)["Anna"] == (3, 2)
    kept = member_page(member_client, club, anna, known_season).context["partien_count"]
    match = first_win(club, known_season)
    recording.correct_event(match, 0, quiet()["game"], user=secretary, reason="Stiche falsch gezählt")
    assert Match.objects.get(pk=match.pk).status == "running"  # nobody over the limit now
    assert standings(member_client, club, known_season)["Anna"] == (2, 1)
    page = member_page(member_client, club, anna, known_season)
    assert page.context["row"].won == 1
    assert page.context["partien_count"] == kept  # still hers, running again
    assert next(p for p in page.context["partien_table"].data if p.match.pk == match.pk).match.status == "running"


def test_an_entry_removed_from_a_finished_partie_shows_on_both_pages(member_client, secretary, club, known_season):
    anna = club.members.get(name="Anna")
    standings(member_client, club, known_season)
    member_page(member_client, club, anna, known_season)
    recording.remove_event(first_win(club, known_season), 0, user=secretary, reason="falsche Partie")
    assert standings(member_client, club, known_season)["Anna"] == (2, 1)
    assert member_page(member_client, club, anna, known_season).context["row"].won == 1


def test_an_annulled_partie_leaves_the_table(member_client, secretary, club, known_season):
    standings(member_client, club, known_season)
    recording.add_event(first_win(club, known_season), "annul_match", {"reason": "Karten unvollständig"},
                        user=secretary)
    assert standings(member_client, club, known_season)["Anna"] == (2, 1)


def test_a_deleted_partie_leaves_both_pages(member_client, club, known_season):
    anna = club.members.get(name="Anna")
    standings(member_client, club, known_season)
    count = member_page(member_client, club, anna, known_season).context["partien_count"]
    first_win(club, known_season).delete()  # the admin's way
    assert standings(member_client, club, known_season)["Anna"] == (2, 1)
    assert member_page(member_client, club, anna, known_season).context["partien_count"] == count - 1


def test_a_strafe_in_a_running_partie_shows_among_his_sanctions_and_keeps_the_table(member_client, club,
                                                                                   known_season, table):
    carla = club.members.get(name="Carla")
    running = play(club, known_season, table, [quiet()], 20)
    before = len(member_page(member_client, club, carla, known_season).context["sanctions"])
    club_version, bernd_version = versions(club, table[1])
    recording.add_event(running, "penalty", {"player": "Carla", "points": 100, "reason": "Karte gezeigt"})
    assert len(member_page(member_client, club, carla, known_season).context["sanctions"]) == before + 1
    # a running Partie counts in no table: the club's tables stay kept while it is played
    assert versions(club)[0] == club_version
    assert versions(club, table[1])[1] > bernd_version  # Bernd sits at that table: his page shows it


def test_a_write_to_a_partie_keeps_the_pages_of_those_not_at_the_table(club, known_season, table):
    guest = Member.objects.create(club=club, name="Gast")
    running = play(club, known_season, table, [quiet()], 21)
    (before,) = versions(club, guest)[1:]
    recording.add_event(running, "game", quiet()["game"])
    assert versions(club, guest)[1] == before


def test_a_renamed_member_shows_on_the_table_and_on_his_page(member_client, club, known_season):
    carla = club.members.get(name="Carla")
    standings(member_client, club, known_season)
    member_page(member_client, club, carla, known_season)
    carla.name = "Carola"
    carla.save()
    assert "Carola" in standings(member_client, club, known_season)
    assert "Carola" in member_page(member_client, club, carla, known_season).text


@pytest.mark.parametrize("change", [{"name": "Carola"}, {"is_guest": True}, {"active": False}])
def test_every_save_of_a_member_moves_the_clubs_and_his_version(club, known_season, change):
    carla = club.members.get(name="Carla")
    before = versions(club, carla)
    for field, value in change.items():
        setattr(carla, field, value)
    carla.save(update_fields=list(change))
    after = versions(club, carla)
    assert after[0] > before[0] and after[1] > before[1]


def test_a_save_read_before_a_write_never_puts_an_old_version_back(club, known_season, table):
    """A member's form read before a Spiel was saved to his Partie: its save keeps the version
    the Spiel moved (a version the kept pages knew with other data would be stale)."""
    anna = Member.objects.get(club=club, name="Anna")  # as a form reads him
    running = play(club, known_season, table, [quiet()], 22)
    recording.add_event(running, "game", quiet()["game"])
    moved = versions(club, anna)[1]
    anna.joined = datetime.date(1999, 5, 2)
    anna.save()
    assert versions(club, anna)[1] > moved


def test_a_renamed_season_and_a_new_rule_show_at_once(member_client, club, known_season):
    carla = club.members.get(name="Carla")
    page = member_page(member_client, club, carla, known_season)
    assert any(s.season == "2026" for s in page.context["sanctions"])
    before = versions(club)[0]
    known_season.name = "Saison 2026"
    known_season.save()
    assert versions(club)[0] > before
    page = member_page(member_client, club, carla, known_season)
    assert any(s.season == "Saison 2026" for s in page.context["sanctions"])


def test_a_repaired_text_shows_on_the_kept_pages(member_client, club, known_season):
    """The text audit writes with .update() (also from a migration): it moves the versions itself."""
    bernd = club.members.get(name="Bernd")
    Member.objects.filter(pk=bernd.pk).update(name="Bernd\u202e")  # stored before texts were checked
    assert "Bernd\u202e" in standings(member_client, club, known_season)
    member_page(member_client, club, bernd, known_season)
    assert repair_stored_texts()
    shown = standings(member_client, club, known_season)
    assert "Bernd" in shown and "Bernd\u202e" not in shown
    assert "Bernd\u202e" not in member_page(member_client, club, bernd, known_season).text


def test_a_partie_imported_finished_shows_at_once(member_client, club, known_season, table):
    standings(member_client, club, known_season)
    play(club, known_season, table, [sweep("Dieter", ("Anna", "Bernd", "Carla"))], 23)
    assert standings(member_client, club, known_season)["Dieter"][1] == 1
