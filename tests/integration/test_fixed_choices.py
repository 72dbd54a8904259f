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
