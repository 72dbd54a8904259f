"""Pages and the phones' JSON go out compressed to a client that accepts gzip: on a table's
mobile link the match page is a seventh of its size. An unchanged state poll stays a bodiless
304 through the compression (its ETag turns weak and still matches)."""

import gzip

import pytest
from django.urls import reverse

from tests.integration.pages import url

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def pages(club, match, member):
    return [url(match), url(match, "sheet"), url(match, "history"),
            reverse("standings", kwargs={"slug": club.slug}), reverse("archive", kwargs={"slug": club.slug}),
            reverse("member_page", kwargs={"slug": club.slug, "member_pk": member.pk}),
            url(match, "export"), url(match, "entries_sync")]


def test_every_page_is_sent_gzipped_to_a_client_that_accepts_it(club, finished_match, secretary_client):
    member = finished_match.seats.exclude(member=None).first().member
    for page in pages(club, finished_match, member):
        response = secretary_client.get(page, **GZIP)
        assert response.status_code == 200, page
        assert response["Content-Encoding"] == "gzip", page
        assert "Accept-Encoding" in response["Vary"], page
        html = gzip.decompress(response.content).decode()
        assert html.strip(), page
        assert len(response.content) < len(html) / 2, page


def test_a_client_that_does_not_accept_gzip_gets_plain_html(club, finished_match, secretary_client):
    response = secretary_client.get(url(finished_match))
    assert response.status_code == 200
    assert not response.has_header("Content-Encoding")
    assert b"</html>" in response.content


@pytest.mark.django_db
def test_an_unchanged_state_poll_is_still_a_304_when_compressed(finished_match, secretary_client):
    first = secretary_client.get(url(finished_match, "sheet"), **GZIP)
    assert first["Content-Encoding"] == "gzip"
    etag = first["ETag"]
    assert etag.startswith('W/"')  # compression makes the content's tag weak
    again = secretary_client.get(url(finished_match, "sheet"), HTTP_IF_NONE_MATCH=etag, **GZIP)
    assert again.status_code == 304
    assert again.content == b""
