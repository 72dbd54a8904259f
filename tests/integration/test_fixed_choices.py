"""The trump's options are shared by every Spiel form's copy of the field
(protocol.forms.game.FixedChoiceField), and yet each form's field is its own."""

from protocol.games.chaotentrumpf.forms import TRUMP_CHOICES, GameForm

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


def test_each_form_has_its_own_trump_field_with_the_same_options():
    first, second = GameForm(players=PLAYERS), GameForm(players=PLAYERS)
    one, other = first.fields["trump"], second.fields["trump"]
    assert one is not other and one.widget is not other.widget
    assert one.choices == other.choices == GameForm.base_fields["trump"].choices
    assert one.choices[1][1] is GameForm.base_fields["trump"].choices[1][1]  # a group's options: shared
    one.choices = [("", "–")]  # a form that narrows its options narrows its own
    one.widget.attrs["data-mark"] = "x"
    assert other.choices == GameForm.base_fields["trump"].choices and len(other.choices) == len(TRUMP_CHOICES)
    assert "data-mark" not in other.widget.attrs and "data-mark" not in GameForm.base_fields["trump"].widget.attrs


def test_a_trump_not_among_the_options_is_refused():
    form = GameForm({"trump": "colour:lila"}, players=PLAYERS)
    form.is_valid()
    assert "trump" in form.errors


def test_each_form_has_its_own_line_and_points_inputs_labelled_in_its_language():
    """A player's line inputs are made once per process and language; each form has its own
    copy: an error marked on one form's input is not on the next form's."""
    from django.utils import translation

    with translation.override("de"):
        first, second = GameForm(players=PLAYERS), GameForm(players=PLAYERS)
    with translation.override("en"):
        english = GameForm(players=PLAYERS)
    one, other = first.fields["p1_tricks"], second.fields["p1_tricks"]
    assert one is not other and one.widget is not other.widget and one.widget.attrs is not other.widget.attrs
    one.widget.attrs["aria-invalid"] = "true"
    one.error_messages["required"] = "x"
    assert "aria-invalid" not in other.widget.attrs and other.error_messages["required"] != "x"
    assert "aria-invalid" not in GameForm(players=PLAYERS).fields["p1_tricks"].widget.attrs
    assert (one.label, english.fields["p1_tricks"].label) == ("Stiche Bernd", "Tricks Bernd")
    points = [f"p{i}_score" for i in range(len(PLAYERS))]  # the points of a Spiel noted as points only
    assert all(first.fields[n] is not second.fields[n] for n in points)
    assert first.fields["p0_score"].widget.attrs is not second.fields["p0_score"].widget.attrs
    assert (first.fields["p0_score"].label, english.fields["p0_score"].label) == ("Punkte von Anna", "Points of Anna")
