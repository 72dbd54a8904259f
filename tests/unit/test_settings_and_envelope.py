"""Match settings (Art. 3, 5c, 7, 16a, 17 with NÜV 1, 2, 5) and the protocol envelope."""

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .builders import check, document


def fields(errors):
    return [e.field for e in errors]


def test_missing_settings_take_the_rules_defaults():
    match, errors = check(document([], players=["A", "B", "C", "D", "E", "F", "G"]))
    assert errors == []
    assert match.settings.as_json() == {"limit": 1000, "cards_per_deal": 5, "decks": 5, "no_trump_points": -100,
                                        "no_trick_points": -200, "scorekeeper_skips_shuffling": False, "max_games": None}


@pytest.mark.parametrize("players, limit, ok", [(4, 999, False), (4, 1000, True), (5, 750, True), (5, 749, False),
                                                (4, 750, False), (6, 100_001, False), (3, 5000, True)])
def test_the_obergrenze_is_at_least_1000_or_750_with_more_than_four(players, limit, ok):
    _, errors = check(document([], players=[f"P{i}" for i in range(players)], limit=limit))
    assert (errors == []) is ok
    if not ok:
        assert fields(errors) == ["settings.limit"] and "Art. 17a" in errors[0].message


@pytest.mark.parametrize("per_deal, ok", [(5, True), (4, True), (3, True), (2, False), (6, False)])
def test_nuev_2_allows_three_or_four_cards_instead_of_five(per_deal, ok):
    assert (check(document([], cards_per_deal=per_deal))[1] == []) is ok


@pytest.mark.parametrize("decks, ok", [(3, True), (2, True), (1, False), (4, False)])
def test_nuev_1_allows_fewer_blaetter_if_the_cards_suffice(decks, ok):
    # Four players hold 40 cards: one Blatt (32) is not enough, two are.
    _, errors = check(document([], decks=decks))
    assert (errors == []) is ok
    if not ok:
        assert "Art. 3" in errors[0].message


@pytest.mark.parametrize("key", ["no_trump_points", "no_trick_points"])
@pytest.mark.parametrize("value, ok", [(-50, True), (0, True), (10, False), (-1001, False), ("x", False)])
def test_nuev_5_lets_the_table_change_the_negative_values(key, value, ok):
    _, errors = check(document([], **{key: value}))
    assert (errors == []) is ok
    if not ok:
        assert "NÜV 5" in errors[0].message


def test_unknown_settings_are_errors_not_ignored():
    _, errors = check(document([], obergrenze=1000))
    assert fields(errors) == ["settings.obergrenze"]


def test_the_protokollant_is_one_of_the_players():
    _, errors = check(document([], scorekeeper="Zora"))
    assert fields(errors) == ["scorekeeper"] and "Art. 4" in errors[0].message


@pytest.mark.parametrize("players", [["Anna"], ["Anna", "Anna"], [], ["Anna", ""], "Anna,Bernd", [f"P{i}" for i in range(11)]])
def test_the_players_are_two_to_ten_distinct_names(players):
    doc = document([]) | {"players": players, "scorekeeper": "Anna"}
    assert "players" in fields(check(doc)[1])


@pytest.mark.parametrize("key, value", [("format", "protocol/2"), ("ruleset", "skat"), ("date", "20.11.2026"),
                                        ("date", "2026-02-30"), ("events", {}), ("colour", 1)])
def test_the_envelope_is_checked(key, value):
    doc = document([]) | {key: value}
    _, errors = check(doc)
    assert errors and all(e.event is None for e in errors)


def test_a_document_that_is_not_an_object_is_an_error():
    from protocol.rules import evaluate
    assert evaluate([1, 2]).errors and evaluate("x").errors and evaluate(None).errors


@pytest.mark.parametrize("day, ok", [("9999-12-31", False), ("0001-01-01", False), ("1949-12-31", False),
                                     ("1950-01-01", True), ("2026-11-20", True)])
def test_a_date_outside_1950_to_next_year_is_refused_naming_the_range(day, ok):
    _, errors = check(document([]) | {"date": day})
    assert (errors == []) == ok
    if not ok:
        (error,) = errors
        assert error.field == "date" and "kann nicht stimmen" in error.message and "01.01.1950" in error.message


def test_the_last_plausible_date_is_the_end_of_next_year():
    from protocol.rules.dates import latest
    next_year = datetime.date.today().year + 1
    assert check(document([]) | {"date": f"{next_year}-12-31"})[1] == []
    assert check(document([]) | {"date": f"{next_year + 1}-01-01"})[1]
    assert latest(datetime.date(2026, 3, 1)) == datetime.date(2027, 12, 31)


@settings(max_examples=200, deadline=None)
@given(st.dates())
def test_every_date_is_either_plausible_or_refused_with_a_message(day):
    from protocol.rules.dates import EARLIEST, latest
    _, errors = check(document([]) | {"date": day.isoformat()})
    if EARLIEST <= day <= latest():
        assert errors == []
    else:
        assert [e.field for e in errors] == ["date"] and "kann nicht stimmen" in errors[0].message
