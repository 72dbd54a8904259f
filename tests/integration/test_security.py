"""The site's defences: CSP and friends, login throttling, CSRF, production settings."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD
from tests.integration.service_worker import worker_files

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(60),
    "ALLOWED_HOSTS": "trumpfbuch.example",
    "SECURE_SSL_REDIRECT": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_PRELOAD": "true",
}


def manage(*args, env):
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION and k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=clean | env,
                          capture_output=True, text=True, timeout=120)


def test_the_production_settings_pass_djangos_deployment_check():
    done = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr


def test_production_refuses_to_start_without_a_secret_key():
    env = dict(PRODUCTION)
    del env["SECRET_KEY"]
    done = manage("check", env=env)
    assert done.returncode != 0 and "SECRET_KEY" in done.stderr


@pytest.mark.django_db
def test_every_page_sends_a_strict_content_security_policy_and_frame_and_referrer_policies(client):
    response = client.get(reverse("home"))
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
    assert response["X-Frame-Options"] == "DENY" and response["Referrer-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.django_db
def test_after_five_wrong_passwords_even_the_right_one_waits(client, member_user):
    login = reverse("login")
    for _ in range(5):
        client.post(login, {"username": "anna", "password": "falsch"})
    response = client.post(login, {"username": "anna", "password": PASSWORD})
    assert response.status_code == 429 and "Zu viele Versuche" in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_right_password_logs_in_after_a_few_mistakes(client, member_user):
    login = reverse("login")
    for _ in range(3):
        client.post(login, {"username": "anna", "password": "falsch"})
    response = client.post(login, {"username": "anna", "password": PASSWORD})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(member_user.pk)


def _client_address_settings(settings, **env):
    """Apply the client-address settings that config/settings.py computes from `env`."""
    import runpy
    clean = {k: v for k, v in os.environ.items() if k not in ("BEHIND_HTTPS_PROXY", "TRUSTED_PROXY_COUNT")}
    old = os.environ.copy()
    os.environ.clear()
    os.environ.update(clean | env)
    try:
        computed = runpy.run_path(str(ROOT / "config" / "settings.py"))
    finally:
        os.environ.clear()
        os.environ.update(old)
    for name, value in computed.items():
        if name.startswith(("AXES_IPWARE_", "IPWARE_")):
            setattr(settings, name, value)


def _wrong_passwords_then_right_one(forwarded_for_wrong, forwarded_for_right, remote_addr="10.0.0.2"):
    login = reverse("login")
    attacker = Client(REMOTE_ADDR=remote_addr, HTTP_X_FORWARDED_FOR=forwarded_for_wrong)
    for _ in range(6):
        attacker.post(login, {"username": "anna", "password": "falsch"})
    anna = Client(REMOTE_ADDR=remote_addr, HTTP_X_FORWARDED_FOR=forwarded_for_right)
    return attacker, anna.post(login, {"username": "anna", "password": PASSWORD})


@pytest.mark.django_db
def test_behind_the_proxy_wrong_passwords_lock_only_the_address_that_sent_them(settings, member_user):
    _client_address_settings(settings, BEHIND_HTTPS_PROXY="true")
    # Every request comes from the proxy (10.0.0.2); nginx appends the client's address.
    attacker, response = _wrong_passwords_then_right_one("198.51.100.66", "203.0.113.7")
    assert response.status_code == 302, "Anna at home was locked out by someone else's mistakes"
    locked = attacker.post(reverse("login"), {"username": "anna", "password": PASSWORD})
    assert locked.status_code == 429 and "Zu viele Versuche" in locked.content.decode()


@pytest.mark.django_db
def test_behind_the_proxy_a_forged_forwarded_for_does_not_escape_the_lockout(settings, member_user):
    _client_address_settings(settings, BEHIND_HTTPS_PROXY="true")
    login = reverse("login")
    for attempt in range(6):
        # The attacker writes a new address into the header each time; the proxy appends the real one.
        Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=f"192.0.2.{attempt}, 198.51.100.66").post(
            login, {"username": "anna", "password": "falsch"})
    again = Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="192.0.2.99, 198.51.100.66")
    assert again.post(login, {"username": "anna", "password": PASSWORD}).status_code == 429


@pytest.mark.django_db
def test_behind_two_proxies_the_client_is_the_second_entry_from_the_right(settings, member_user):
    _client_address_settings(settings, BEHIND_HTTPS_PROXY="true", TRUSTED_PROXY_COUNT="2")
    # The CDN (10.0.0.9) appended the client's address, the local nginx (10.0.0.2) the CDN's.
    attacker, response = _wrong_passwords_then_right_one("198.51.100.66, 10.0.0.9", "203.0.113.7, 10.0.0.9")
    assert response.status_code == 302


@pytest.mark.django_db
def test_without_the_proxy_a_forwarded_for_header_is_not_believed(settings, member_user):
    _client_address_settings(settings, BEHIND_HTTPS_PROXY="false")
    # Directly on the net the header is the client's own invention: the socket address counts.
    attacker, response = _wrong_passwords_then_right_one("198.51.100.66", "203.0.113.7",
                                                         remote_addr="198.51.100.66")
    assert response.status_code == 429


def test_a_trusted_proxy_count_below_one_stops_the_start():
    done = manage("check", env={"BEHIND_HTTPS_PROXY": "true", "TRUSTED_PROXY_COUNT": "0"})
    assert done.returncode != 0 and "TRUSTED_PROXY_COUNT=0" in done.stderr


@pytest.mark.django_db
def test_sessions_expire(settings, client, member_user):
    client.post(reverse("login"), {"username": "anna", "password": PASSWORD})
    assert 0 < settings.SESSION_COOKIE_AGE <= 14 * 24 * 3600
    assert client.cookies["sessionid"]["max-age"] == settings.SESSION_COOKIE_AGE


@pytest.mark.django_db
def test_a_post_without_the_csrf_token_is_refused(secretary, running_match):
    client = Client(enforce_csrf_checks=True)
    client.force_login(secretary)
    for name in ("game_new", "sanction_new", "end", "annul", "settings", "lot_new"):
        url = reverse(f"protocol:{name}", kwargs={"slug": running_match.club.slug, "pk": running_match.pk})
        assert client.post(url, {"version": running_match.version}).status_code == 403, name
    assert not running_match.events.exists()


def test_make_serve_runs_gunicorn_with_whitenoise_and_production_settings(tmp_path):
    import socket
    import time
    import urllib.request
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = PRODUCTION | {"DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}", "ALLOWED_HOSTS": "127.0.0.1",
                        "SECURE_SSL_REDIRECT": "false", "SECURE_COOKIES": "false",
                        # its own collectstatic: the hashed files are rewritten while it runs, and
                        # the other test worker's WhiteNoise must not scan them half-way (CI saw it)
                        "STATIC_ROOT": str(tmp_path / "static")}
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION and k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    server = subprocess.Popen(["make", "serve", f"HOST_PORT=127.0.0.1:{port}"], cwd=ROOT, env=clean | env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        page = None
        for _ in range(720):  # collectstatic compresses the 14 MB offline pack: slow on a busy machine
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except OSError:
                time.sleep(0.25)
        assert page is not None and page.status == 200
        html = page.read().decode()
        assert "Trumpfbuch" in html and "script-src 'self'" in page.headers["Content-Security-Policy"]
        css = html.split('href="/static/css/')[1].split('"')[0]
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}/static/css/{css}", timeout=5).status == 200
        # The service worker's files under collectstatic's names, Pyodide's plain (the offline pack).
        worker = urllib.request.urlopen(f"http://127.0.0.1:{port}/sw.js", timeout=5).read().decode()
        for url in worker_files(worker):
            assert urllib.request.urlopen(f"http://127.0.0.1:{port}{url}", timeout=30).status == 200, url
    finally:
        import signal
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)


@pytest.mark.django_db
@pytest.mark.parametrize("weak", ["anna", "12345678", "passwort", "kurz"])
def test_weak_passwords_are_refused_when_a_member_changes_his(member_client, weak):
    response = member_client.post(reverse("password_change"), {
        "old_password": PASSWORD, "new_password1": weak, "new_password2": weak})
    assert response.status_code == 200 and "errorlist" in response.content.decode()


def test_a_refused_page_is_logged_in_one_line_without_a_traceback(outsider_client, club, caplog):
    with caplog.at_level("WARNING", logger="django.request"):
        assert outsider_client.get(club.get_absolute_url()).status_code == 403
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    assert "Forbidden" in record.getMessage() and club.get_absolute_url() in record.getMessage()
    assert record.exc_info is None and "Traceback" not in caplog.text


@pytest.mark.django_db
def test_a_server_error_is_still_logged_with_its_traceback(client, caplog, monkeypatch, club):
    import league.views
    def broken(*args, **kwargs):
        raise RuntimeError("kaputt")
    monkeypatch.setattr(league.views, "render", broken)
    client.raise_request_exception = False
    with caplog.at_level("ERROR", logger="django.request"):
        assert client.get(reverse("home")).status_code == 500
    assert "Traceback" in caplog.text and "kaputt" in caplog.text
