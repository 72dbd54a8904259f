"""The club's records (league.ratings.records) from hand-made Partien: each record names the
Partie it came from, annulled Spiele count for nothing, a guest's win ends a streak, and of
equal records the earlier stands. Pure: the engine's answer, no database."""

from league.ratings.head_to_head import count_sides
from league.ratings.records import (
    COMEBACK,
    HIGHEST_SPIEL,
    STECHEN,
    STREAK,
    TO_LIMIT,
    Record,
    partie_figures,
    records_of,
)
from tests.standings_season import STECHEN_WIN
from tests.unit.builders import PLAYERS, check, document, quiet, sweep, twins

PK = {name: pk for pk, name in enumerate(PLAYERS, 1)}  # Anna 1, Bernd 2, Carla 3, Dieter 4
ANNA, BERND, CARLA, DIETER = (PK[n] for n in PLAYERS)


def figures(*events, **settings):
    match, errors = check(document(events, **settings))
    assert errors == [] and match.status == "finished"
    return partie_figures(match, PK)


STECHEN_PARTIE = figures(*[twins()] * 4, STECHEN_WIN)  # Anna and Bernd over 1000 in Spiel 4; Anna wins the Stechen
DIETER_SWEEPS = figures(sweep("Dieter", ("Anna", "Bernd", "Carla")))  # 1248 in Spiel 1
ANNA_COMES_BACK = figures(twins("Bernd", "Carla", ("Anna", "Dieter")), sweep("Anna"))  # -200 to 312: 512 behind
ANNA_SWEEPS = figures(sweep("Anna"))


def test_a_partie_tells_its_highest_spiel_its_comeback_its_stechen_and_its_length_to_the_obergrenze():
    assert STECHEN_PARTIE["top"] == [ANNA, 312, 1] and STECHEN_PARTIE["stechen"] and STECHEN_PARTIE["to_limit"] == 4
    assert STECHEN_PARTIE["winner"] == ANNA and STECHEN_PARTIE["behind"] == 0
    assert ANNA_COMES_BACK["behind"] == 512 and ANNA_COMES_BACK["to_limit"] == 2 and not ANNA_COMES_BACK["stechen"]
    assert ANNA_COMES_BACK["players"] == [ANNA, BERND, CARLA, DIETER]


def test_an_annulled_spiel_counts_for_nothing():
    annulled = sweep("Bernd", ("Anna", "Carla", "Dieter"))
    annulled["game"] |= {"annulled": True, "annul_reason": "vergeben"}
    partie = figures(quiet(), annulled, sweep("Anna"))
    assert partie["top"] == [ANNA, 1248, 3]  # not Bernd's annulled 1248 in Spiel 2
    assert partie["to_limit"] == 2  # the annulled Spiel is no Spiel on the way to the Obergrenze


def test_each_record_links_to_the_partie_it_came_from():
    found = records_of([(11, STECHEN_PARTIE), (12, DIETER_SWEEPS), (13, ANNA_COMES_BACK), (14, ANNA_SWEEPS)])
    assert found[HIGHEST_SPIEL] == Record(HIGHEST_SPIEL, DIETER, 1248, 12, 1)  # Anna's 1248 came later
    assert (found[COMEBACK].holder, found[COMEBACK].value, found[COMEBACK].match_pk) == (ANNA, 512, 13)
    assert (found[STREAK].holder, found[STREAK].value, found[STREAK].match_pk) == (ANNA, 2, 14)  # its last Partie
    assert (found[STECHEN].holder, found[STECHEN].value, found[STECHEN].match_pk) == (ANNA, 1, 11)
    assert (found[TO_LIMIT].holder, found[TO_LIMIT].value, found[TO_LIMIT].match_pk) == (DIETER, 1, 12)


def test_a_hidden_guest_holds_no_record_but_his_win_ends_a_streak():
    found = records_of([(1, ANNA_SWEEPS), (2, ANNA_SWEEPS), (3, DIETER_SWEEPS), (4, ANNA_SWEEPS)],
                       shown=lambda pk: pk != DIETER)
    assert (found[STREAK].value, found[STREAK].match_pk) == (2, 2)
    assert found[TO_LIMIT].holder == ANNA and found[TO_LIMIT].match_pk == 1
    assert found[HIGHEST_SPIEL].holder == ANNA


def test_a_partie_nobody_won_gives_only_its_highest_spiel():
    found = records_of([(5, {"players": [ANNA, BERND], "winner": None, "top": [BERND, 7, 2]})])
    assert found == {HIGHEST_SPIEL: Record(HIGHEST_SPIEL, BERND, 7, 5, 2)}


def test_partners_and_opponents_are_counted_from_the_results_sides():
    results = [[[[ANNA, CARLA], [BERND, DIETER]], [0, 1]],  # Anna and Carla win together
               [[[DIETER], [ANNA, BERND, CARLA]], [1, 0]],  # a solo lost: Anna and Carla win in Kontra
               [[[BERND, DIETER], [ANNA, CARLA]], [0, 1]],
               [[[ANNA], [BERND], [CARLA], [DIETER]], [0, 1, 2, 3]]]  # a ranking: no sides
    with_carla = count_sides(results, ANNA, CARLA)
    assert (with_carla.together, with_carla.won_together, with_carla.against) == (3, 2, 0)
    against_dieter = count_sides(results, ANNA, DIETER)
    assert (against_dieter.against, against_dieter.first_won, against_dieter.second_won) == (3, 2, 1)
    assert not count_sides(results[3:], ANNA, DIETER).seen
