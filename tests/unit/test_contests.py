"""What each game's rules hand a rating (protocol/rules/contests.py): who played against whom
and who came out ahead, read from the engine's own answer. No database."""

from protocol.rules import evaluate
from tests.standings_season import STECHEN_WIN
from tests.unit.builders import document, sweep, twins

END = {"end": {"reason": "time"}}


def contests_of(doc):
    from protocol.rules import get_ruleset

    result = evaluate(doc)
    assert not result.errors, result.errors
    return get_ruleset(doc["ruleset"]).contests(result.match)


def tally(ruleset, events, players=("Anna", "Bernd", "Carla", "Dieter"), **settings):
    doc = document(events, players=list(players), **settings)
    doc["ruleset"] = ruleset
    return doc


def test_a_chaotentrumpf_partie_is_one_ranking_with_the_stechen_deciding_the_top():
    [contest] = contests_of(document([twins()] * 4 + [STECHEN_WIN]))
    assert dict(zip(contest.teams, contest.ranks, strict=True)) == {
        ("Anna",): 0, ("Bernd",): 1, ("Carla",): 2, ("Dieter",): 2}  # Carla and Dieter tie on 0


def test_a_chaotentrumpf_partie_without_stechen_ranks_the_rest_by_total():
    [contest] = contests_of(document([twins("Carla", "Dieter", ("Anna", "Bernd")), sweep()]))
    ranks = dict(zip(contest.teams, contest.ranks, strict=True))
    assert ranks[("Anna",)] == 0 and ranks[("Carla",)] == ranks[("Dieter",)] == 1 and ranks[("Bernd",)] == 2


def test_a_running_or_annulled_partie_is_no_contest():
    assert contests_of(document([twins()])) == []
    assert contests_of(document([twins(), {"annul_match": {"reason": "Karten unvollständig"}}])) == []


def test_doppelkopf_rates_re_against_kontra_as_recorded_and_leaves_annulled_games_out():
    games = [{"game": {"type": "normal", "dealer": "Anna", "re": ["Anna", "Carla"], "re_points": 150}},
             {"game": {"type": "solo_damen", "dealer": "Bernd", "re": ["Dieter"], "re_points": 100}},
             {"game": {"annulled": True, "annul_reason": "vergeben"}},
             END]
    normal, solo = contests_of(tally("doppelkopf", games, rules="tcg"))
    assert normal.teams == (("Anna", "Carla"), ("Bernd", "Dieter")) and normal.ranks == (0, 1)
    assert solo.teams == (("Dieter",), ("Anna", "Bernd", "Carla")) and solo.ranks == (1, 0)
    assert (normal.number, solo.number) == (1, 2)


def test_doppelkopf_at_five_leaves_the_dealer_out():
    games = [{"game": {"type": "normal", "dealer": "Emil", "re": ["Anna", "Bernd"], "re_points": 121}}, END]
    [contest] = contests_of(tally("doppelkopf", games, players=("Anna", "Bernd", "Carla", "Dieter", "Emil"),
                                  rules="tcg"))
    assert contest.teams == (("Anna", "Bernd"), ("Carla", "Dieter"))


def test_doppelkopf_points_only_takes_the_sides_from_the_signs_or_leaves_the_game_out():
    games = [{"game": {"scores": {"Anna": 2, "Bernd": -2, "Carla": 2, "Dieter": -2}}},
             {"game": {"scores": {"Anna": -3, "Bernd": 9, "Carla": -3, "Dieter": -3}}},
             {"game": {"scores": {"Anna": 0, "Bernd": 0, "Carla": 0, "Dieter": 0}}}, END]
    pair, solo, nothing = contests_of(tally("doppelkopf", games, rules="tcg"))
    assert pair.teams == (("Anna", "Carla"), ("Bernd", "Dieter")) and pair.ranks == (0, 1)
    assert solo.teams == (("Bernd",), ("Anna", "Carla", "Dieter")) and solo.ranks == (0, 1)
    assert nothing.left_out


def test_tarot_rates_the_taker_and_his_partner_against_the_defenders():
    five = ("Anna", "Bernd", "Carla", "Dieter", "Emil")
    deal = {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "partner": "Emil", "oudlers": 2, "points": 49,
            "petit_au_bout": None, "poignees": [], "chelem": None, "null": False}
    [contest] = contests_of(tally("tarot", [{"game": deal}, END], players=five))
    assert contest.teams == (("Bernd", "Emil"), ("Anna", "Carla", "Dieter")) and contest.ranks == (0, 1)


def test_tarot_points_only_finds_the_taker_by_the_largest_share():
    games = [{"game": {"scores": {"Anna": -70, "Bernd": 210, "Carla": -70, "Dieter": -70}}},
             {"game": {"scores": {"Anna": 0, "Bernd": 0, "Carla": 0, "Dieter": 0}}},  # declared null: nothing
             END]
    [contest] = contests_of(tally("tarot", games))
    assert contest.teams == (("Bernd",), ("Anna", "Carla", "Dieter")) and contest.ranks == (0, 1)
