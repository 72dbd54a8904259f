"""The match page is written by Jinja2 (protocol/jinja2/protocol/match.html in
league/jinja2/frame.html), every other page by the template language (templates/base.html in
templates/document.html): the two frames are the same bytes, so that a change to one that the
other misses fails here (the page's own title, head, content and the tokens aside)."""

import re

import pytest

from tests.integration.pages import url

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": ")"?[A-Za-z0-9]{64}')


def frame(html: str) -> str:
    """The page without what is its own: its title, its head after the frame's (the match page's
    script, a save's address), its content, the token of its forms and the language switch's way
    back; white space between tags as the browser reads it (none)."""
    html = TOKEN.sub(r"\1TOKEN", html)
    html = re.sub(r"<title>.*?</title>", "<title></title>", html, flags=re.S)
    html = re.sub(r'(<main id="main"[^>]*>).*?(</main>)', r"\1\2", html, flags=re.S)
    html = re.sub(r'(name="next" type="hidden" value=")[^"]*', r"\1", html)
    html = re.sub(r'<base href="[^"]*"><link rel="canonical" href="[^"]*">', "", html)
    html = re.sub(r'<script src="[^"]*/match(\.[0-9a-f]+)?\.js" defer></script>', "", html)
    return re.sub(r">\s+<", "><", html).strip()


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_match_page_has_the_frame_of_every_other_page(scorekeeper_client, running_match, language):
    scorekeeper_client.cookies["django_language"] = language
    match_page = scorekeeper_client.get(url(running_match))
    history = scorekeeper_client.get(url(running_match, "history"))  # a page of the template language
    assert match_page.status_code == history.status_code == 200
    assert 'name="csrfmiddlewaretoken"' in match_page.content.decode()  # the header's and footer's forms
    assert frame(match_page.content.decode()) == frame(history.content.decode())
    assert f'<html lang="{language}">' in match_page.content.decode()
