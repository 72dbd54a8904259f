"""The check code of a printed sheet (protocol/sheet/check.py): signed by the site, short enough
to type, refused when tampered with or made for another Partie or version. No database."""

import re

import pytest
from django.test import RequestFactory

from protocol.sheet import check

SHAPE = re.compile(r"(\d+)-(\d+)-([0-9A-HJKMNP-TV-Z]{4})-([0-9A-HJKMNP-TV-Z]{4})")


def test_a_code_names_the_partie_and_the_version_and_is_signed():
    code = check.make(4711, 15)
    shape = SHAPE.fullmatch(code)
    assert shape and shape[1] == "4711" and shape[2] == "15"
    assert len(code) <= 20  # a person types it from the paper
    assert check.parse(code) == check.CheckCode(4711, 15)
    assert check.make(4711, 15) == code  # the same sheet, the same code


def test_a_tampered_code_is_refused():
    code = check.make(4711, 15)
    head, mac = code.rsplit("-", 2)[0], code.replace("-", "")[-8:]
    for position in range(len(mac)):  # any one character of the MAC changed
        changed = mac[:position] + ("0" if mac[position] != "0" else "1") + mac[position + 1:]
        assert check.parse(f"{head}-{changed[:4]}-{changed[4:]}") is None, changed


def test_the_code_of_another_partie_or_version_does_not_fit():
    mac = check.make(4711, 15).split("-", 2)[2]
    assert check.parse(f"4712-15-{mac}") is None  # the same MAC on another Partie
    assert check.parse(f"4711-16-{mac}") is None  # ... or on a later version of it
    assert check.parse(f"4711-14-{mac}") is None
    assert check.make(4712, 15).split("-", 2)[2] != mac


def test_only_this_sites_key_signs_and_a_key_it_used_before_still_opens_old_sheets(settings):
    settings.SECRET_KEY = "the-old-key-" + "x" * 40
    printed = check.make(4711, 15)
    settings.SECRET_KEY = "the-new-key-" + "y" * 40
    assert check.parse(printed) is None  # another site's (or an old, dropped key's) code
    settings.SECRET_KEY_FALLBACKS = ["the-old-key-" + "x" * 40]
    assert check.parse(printed) == check.CheckCode(4711, 15)  # rotated: the paper in the folder still opens
    assert check.make(4711, 15) != printed  # new sheets are signed with the new key


@pytest.mark.parametrize("typed", [
    "{code}", " {lower} ", "{spaced}", "{run_together}", "https://trumpfbuch.example/pruefen/{code}/",
    "{dashes}",
])
def test_what_a_person_types_is_read_kindly(typed):
    code = check.make(4711, 15)
    variants = {"code": code, "lower": code.lower(), "spaced": code.replace("-", " "),
                "run_together": code[: code.rindex("-")] + code[code.rindex("-") + 1:],
                "dashes": code.replace("-", " – ")}
    assert check.parse(typed.format(**variants)) == check.CheckCode(4711, 15)


def test_lookalike_letters_read_as_the_digits_they_look_like():
    code = check.make(4711, 15)
    typed = code.replace("0", "O").replace("1", "l")
    assert check.parse(typed) == check.CheckCode(4711, 15)


@pytest.mark.parametrize("text", ["", "4711", "4711-15", "4711-15-ABCD", "x" * 500, "4711-15-ABCD-EFG!",
                                  "1234567890-1-ABCD-EFGH", None])
def test_malformed_text_is_no_code(text):
    assert check.parse(text) is None
    assert not check.well_formed(text)


def test_the_check_page_lies_under_pruefen_at_the_sites_address(settings):
    code = check.make(4711, 15)
    assert check.path(code) == f"/pruefen/{code}/"
    request = RequestFactory().get("/verein/ctv/partien/1/blatt.pdf", HTTP_HOST="club.example")
    settings.ALLOWED_HOSTS, settings.SITE_URL = ["club.example"], ""
    assert check.url(code, check.site_of(request)) == f"http://club.example/pruefen/{code}/"
    settings.SITE_URL = "https://trumpfbuch.example"  # the operators' address wins: paper lasts
    assert check.url(code, check.site_of(request)) == f"https://trumpfbuch.example/pruefen/{code}/"
