"""The offline pack's URLs (issue 17): the rules pack by its hash, named on every page."""

import re

import pytest

from protocol.offline import pack


@pytest.mark.django_db
def test_every_page_names_the_current_rules_pack_and_it_is_served_for_a_year(client):
    html = client.get("/konto/login/").content.decode()
    url = re.search(r'<meta name="trumpfbuch-rules" content="([^"]+)">', html).group(1)
    assert url == f"/offline/{pack.current().filename}"
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert response.content == pack.current().data
    assert "immutable" in response["Cache-Control"] and "max-age=31536000" in response["Cache-Control"]


def test_an_old_pack_is_gone(client):
    assert client.get("/offline/regeln-0000000000000000.zip").status_code == 404
    assert client.post(f"/offline/{pack.current().filename}").status_code == 405


@pytest.mark.django_db
def test_the_policy_allows_webassembly_and_never_eval(client):
    policy = client.get("/konto/login/")["Content-Security-Policy"]
    assert "'wasm-unsafe-eval'" in policy and "'unsafe-eval'" not in policy and "'unsafe-inline'" not in policy
    assert "worker-src 'self'" in policy
