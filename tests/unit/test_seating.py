"""The seating draw of a tournament round (league/tournaments/seating.py): pure, no database."""

import doctest
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.tournaments import seating
from league.tournaments.seating import NoSeating, draw, meetings, off_size_seats, repeats, table_sizes

DOPPELKOPF = seating.TABLE_SIZES["doppelkopf"]
TAROT = seating.TABLE_SIZES["tarot"]


def test_the_examples_in_the_module_hold():
    assert doctest.testmod(seating).failed == 0


@pytest.mark.parametrize("count, sizes, shape", [
    (4, DOPPELKOPF, [4]), (8, DOPPELKOPF, [4, 4]), (12, DOPPELKOPF, [4, 4, 4]),
    (5, DOPPELKOPF, [5]), (9, DOPPELKOPF, [4, 5]), (13, DOPPELKOPF, [4, 4, 5]), (14, DOPPELKOPF, [4, 5, 5]),
    (15, DOPPELKOPF, [5, 5, 5]), (19, DOPPELKOPF, [4, 5, 5, 5]),
    (12, TAROT, [4, 4, 4]), (13, TAROT, [4, 4, 5]), (11, TAROT, [4, 4, 3]), (10, TAROT, [5, 5]),
    (6, TAROT, [3, 3]), (7, TAROT, [4, 3]), (3, TAROT, [3]),
])
def test_tables_of_four_and_as_few_others_as_possible(count, sizes, shape):
    assert table_sizes(count, sizes) == shape


@pytest.mark.parametrize("count", [0, 1, 2, 3, 6, 7, 11])
def test_doppelkopf_cannot_seat_counts_that_fours_and_fives_do_not_make(count):
    with pytest.raises(NoSeating):
        table_sizes(count, DOPPELKOPF)


@settings(max_examples=150, deadline=None)
@given(count=st.integers(4, 40), seed=st.integers(0, 2**32), tarot=st.booleans(),
       earlier=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=60))
def test_the_draw_seats_every_player_once_at_tables_of_an_allowed_size(count, seed, tarot, earlier):
    sizes = TAROT if tarot else DOPPELKOPF
    try:
        shape = table_sizes(count, sizes)
    except NoSeating:
        return
    players = [f"P{i}" for i in range(count)]
    met = meetings([[[f"P{a}", f"P{b}"]] for a, b in earlier if a != b])
    tables = draw(reversed(players), random.Random(seed), met=met, sizes=sizes)
    seated = [p for table in tables for p in table]
    assert sorted(seated) == sorted(players)  # nobody lost, nobody twice
    assert [len(t) for t in tables] == shape
    # the same seed, players (in any order) and history give the same plan
    assert draw(players, random.Random(seed), met=met, sizes=sizes) == tables


@pytest.mark.parametrize("seed", range(8))
def test_sixteen_players_play_three_rounds_without_meeting_twice(seed):
    rng, rounds = random.Random(seed), []
    for _ in range(3):
        met = meetings(rounds)
        tables = draw(range(16), rng, met=met)
        assert repeats(tables, met) == 0
        rounds.append(tables)
    pairs = [frozenset(p) for tables in rounds for t in tables for p in itertools.combinations(t, 2)]
    assert len(pairs) == len(set(pairs)) == 3 * 4 * 6


@pytest.mark.parametrize("seed", range(4))
def test_twelve_players_at_three_tables_meet_again_no_more_than_they_must(seed):
    """Three tables of four: in round 2 each new table holds two of an old one (4 players
    from 3 tables), so exactly one repeat per table is the least possible."""
    rng = random.Random(seed)
    first = draw(range(12), rng)
    second = draw(range(12), rng, met=meetings([first]))
    assert repeats(second, meetings([first])) == 3


@pytest.mark.parametrize("seed", range(4))
def test_the_fifth_chair_goes_round(seed):
    """25 players at Doppelkopf: five tables of four and one of five. Over three rounds
    without a repeat, fifteen different players take the fifth chairs."""
    rng, rounds = random.Random(seed), []
    for _ in range(3):
        met = meetings(rounds)
        tables = draw(range(25), rng, met=met, off_size=off_size_seats(rounds))
        assert repeats(tables, met) == 0
        rounds.append(tables)
    assert sorted(off_size_seats(rounds).values()) == [1] * 15


def test_a_repeat_weighs_more_than_the_fifth_chair():
    """13 players (tables of 4, 4 and 5): without a player of the old table of five, the new
    one would seat three of one table of four (4 repeats there instead of 2), so one of
    them sits at a table of five again."""
    rng = random.Random(5)
    first = draw(range(13), rng)
    second = draw(range(13), rng, met=meetings([first]), off_size=off_size_seats([first]))
    assert repeats(second, meetings([first])) == 4  # one per table of four, two at the five
    assert max(off_size_seats([first, second]).values()) == 2


def test_a_player_named_twice_is_refused():
    with pytest.raises(ValueError):
        draw([1, 2, 3, 4, 4], random.Random(1))
