"""What a worker keeps of its recent work (league.registry.recent: the engine's states, the
sheet's rows) stays within its bound: the least recently kept goes first, memory stays flat
however many Partien a tournament plays."""

from league.registry.recent import Recent


def test_the_least_recently_kept_goes_first_beyond_the_bound():
    kept = Recent(2)
    kept.keep("table 1", "state 1")
    kept.keep("table 2", "state 2")
    kept.keep("table 1", "state 1'")  # table 1 saved again: the most recent now
    kept.keep("table 3", "state 3")
    assert list(kept) == ["table 1", "table 3"] and kept.get("table 1") == "state 1'"
    assert kept.get("table 2") is None
