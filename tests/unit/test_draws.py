"""The three draws of a tournament round and who sits out (league/tournaments/draws.py):
pure, no database."""

import itertools

import pytest

from league.tournaments import draws, seating

DOPPELKOPF = seating.TABLE_SIZES["doppelkopf"]
TAROT = seating.TABLE_SIZES["tarot"]


def seated(draw):
    return sorted(p for table in draw.tables for p in table)


@pytest.mark.parametrize("kind", draws.KINDS)
def test_every_player_present_sits_once_at_a_table_of_the_games_sizes(kind):
    players = list(range(1, 18))  # 17: a Doppelkopf shape of 4, 4, 4, 5
    result = draws.draw(kind, players, 5, [], sizes=DOPPELKOPF, ranking=players)
    assert seated(result) == players and result.sitting_out == []
    assert sorted(len(t) for t in result.tables) == [4, 4, 4, 5]


@pytest.mark.parametrize("kind", draws.KINDS)
def test_the_same_seed_gives_the_same_draw(kind):
    earlier = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]]
    first = draws.draw(kind, list(range(1, 17)), 42, earlier, ranking=list(range(16, 0, -1)))
    again = draws.draw(kind, list(reversed(range(1, 17))), 42, earlier, ranking=list(range(16, 0, -1)))
    assert first == again


@pytest.mark.parametrize("kind", ["random", "standings"])
def test_no_repeat_where_the_field_allows_one(kind):
    players, earlier = list(range(1, 17)), []
    for number in range(3):  # 16 players at four tables: three rounds without a repeat exist
        result = draws.draw(kind, players, number, earlier, ranking=players)
        assert result.repeats == 0, (number, result.tables)
        earlier.append(result.tables)
    assert max(seating.meetings(earlier).values()) == 1


def test_the_rotation_lets_everyone_of_different_groups_meet_once():
    players, earlier = list(range(20)), []  # five tables of four: five is prime
    for _ in range(5):
        result = draws.draw("rotation", players, 0, earlier)
        assert result.kind == "rotation" and result.repeats == 0
        earlier.append(result.tables)
    met = seating.meetings(earlier)
    groups = [set(players[s * 5:(s + 1) * 5]) for s in range(4)]
    for a, b in itertools.combinations(players, 2):
        same_group = any(a in g and b in g for g in groups)
        assert met.get(seating.pair(a, b), 0) == (0 if same_group else 1)


def test_a_rotation_that_does_not_fit_falls_back_to_the_random_draw():
    result = draws.draw("rotation", list(range(9)), 3, [], sizes=DOPPELKOPF)  # 4 + 5: no one size
    assert result.kind == "random" and seated(result) == list(range(9))


def test_repeats_that_cannot_be_avoided_are_counted():
    players = list(range(1, 9))  # eight players: after two rounds everyone met six of seven
    earlier = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 2, 5, 6], [3, 4, 7, 8]]]
    for kind in draws.KINDS:
        result = draws.draw(kind, players, 1, earlier, ranking=players)
        assert result.repeats == seating.repeats(result.tables, seating.meetings(earlier)) > 0


def test_the_standings_draw_seats_equals_with_equals():
    ranked = list(range(1, 13))
    result = draws.draw("standings", ranked, 0, [], ranking=ranked)
    assert result.tables == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]


@pytest.mark.parametrize("count, sizes, out", [
    (7, DOPPELKOPF, 2),  # Doppelkopf: 4 or 5 at a table, so of seven two sit out
    (3, DOPPELKOPF, 3), (11, DOPPELKOPF, 1), (6, TAROT, 0), (2, TAROT, 2), (9, DOPPELKOPF, 0),
])
def test_the_fewest_sit_out_when_the_count_fits_no_tables(count, sizes, out):
    players = list(range(count))
    result = draws.draw("random", players, 1, [], sizes=sizes)
    assert len(result.sitting_out) == out
    assert sorted(seated(result) + result.sitting_out) == players


def test_who_sat_out_before_plays_first():
    players = list(range(7))
    assert draws.sitting_out(players, DOPPELKOPF) == [5, 6]
    assert draws.sitting_out(players, DOPPELKOPF, {5: 1, 6: 1}) == [3, 4]


def test_an_unknown_draw_is_refused():
    with pytest.raises(ValueError):
        draws.draw("alphabetical", [1, 2, 3, 4], 1, [])
