"""A checkbox is tapped with a finger: on the member form (Gast, aktives Mitglied) each box's
row is a target at least 44 px tall, and a tap beside, above or below the 22 px box ticks it."""

import pytest
from django.urls import reverse

from league.models import Member
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Per checkbox of the form: its name, its label's height, and what a finger 20 px above and
# below the box's middle, and one on the label's words, would touch (the box, its label, or else).
TARGETS = """() => [...document.querySelectorAll('main form input[type=checkbox]')].map((box) => {
  const label = box.labels[0];
  box.scrollIntoView({block: "center"});  // a finger touches what is on the screen
  const b = box.getBoundingClientRect(), l = label.getBoundingClientRect();
  const x = b.left + b.width / 2, y = b.top + b.height / 2;
  const hits = [[x, y - 20], [x, y + 20], [l.right - 4, y]].map(([px, py]) => {
    const e = document.elementFromPoint(px, py);
    return e === box || e === label || label.contains(e);
  });
  return [box.name, l.height, hits];
})"""


@pytest.mark.parametrize("width", [320, 390])
def test_the_member_forms_checkboxes_are_finger_sized(phone, club, secretary, width):
    page = phone
    page.set_viewport_size({"width": width, "height": 844})
    anna = Member.objects.create(club=club, name="Anna-Katharina Oberhuber-Schwarzenegger")
    log_in(page, "schriftfuehrer", PASSWORD)
    page.goto(page.base_url + reverse("member_edit", kwargs={"slug": club.slug, "pk": anna.pk}))
    targets = page.evaluate(TARGETS)
    assert {name for name, _height, _hits in targets} == {"is_guest", "active"}
    for name, height, hits in targets:
        assert height >= 44, (name, height)
        assert all(hits), (name, hits)
    guest = page.locator("input[name=is_guest]")
    box = guest.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2 + 18)  # just below the box
    assert guest.is_checked()
