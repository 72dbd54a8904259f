"""The rules pack: the engine's Python source as one zip, for Pyodide's ``unpackArchive``.

Its members are ``protocol/__init__.py`` (empty: in the browser ``protocol`` is only the
engine's parent), every ``.py`` of ``protocol/rules/`` and ``protocol/entry_form/``, the game
registry ``protocol/games/__init__.py`` and each listed game's pure part (its folder's
``__init__.py``, ``rules`` and ``entry_form.py``; a game kept outside ``protocol/`` with empty
parents), ``protocol/offline/games.json`` (the registry's games, which the bridge installs),
``protocol/offline/__init__.py`` (empty) with ``protocol/offline/bridge.py``, and for each
language the site translates the engine into (every ``locale/<lang>/LC_MESSAGES/django.mo``
but German, the engine's own) its catalogue ``protocol/offline/words-<lang>.json``: message
id -> text, read from the very ``.mo`` the site's gettext reads, so that the bridge speaks
offline as the site does online. Deterministic: members sorted, one fixed timestamp, fixed
permissions, so the same source gives the same bytes and the same :func:`digest` on every
server process; a change of the engine changes the URL. The members are stored, not deflated:
the view sends the whole zip Brotli-compressed (:func:`brotli_copy`), which packs the sources
across files, about half the bytes of one deflate stream per file.
"""

from __future__ import annotations

import gettext
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from protocol import games

PROTOCOL = Path(__file__).resolve().parents[1]
ROOT = PROTOCOL.parent
PACKAGES = ("rules", "entry_form")  # the pure-Python folders of protocol/ the browser runs
REGISTRY = "games/__init__.py"
GAME_PARTS = ("__init__.py", "rules.py", "rules", "entry_form.py")  # a game's pure part: what the browser runs
GAMES = "offline/games.json"  # key -> package of every game the registry lists (bridge.install_games)
BRIDGE = "offline/bridge.py"
STUBS = ("__init__.py", "offline/__init__.py")  # empty in the pack: no Django behind them
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the zip format's earliest date
LOCALE = ROOT / "locale"
ENGINE_LANGUAGE = "de"  # the engine's own words: no catalogue
CATALOGUE = "offline/words-{language}.json"  # read by bridge.use_language


@dataclass(frozen=True)
class RulesPack:
    data: bytes
    digest: str  # sha256 of data, hex

    @property
    def filename(self) -> str:
        return f"regeln-{self.digest[:16]}.zip"


def members() -> list[tuple[str, bytes]]:
    """(name in the zip, bytes) of every file of the pack, sorted by name."""
    found = {f"protocol/{stub}": b"" for stub in STUBS}
    found[f"protocol/{BRIDGE}"] = (PROTOCOL / BRIDGE).read_bytes()
    for language, catalogue in catalogues().items():
        found[f"protocol/{CATALOGUE.format(language=language)}"] = catalogue
    for package in PACKAGES:
        found.update(_sources(PROTOCOL / package))
    found[f"protocol/{REGISTRY}"] = (PROTOCOL / REGISTRY).read_bytes()
    found[f"protocol/{GAMES}"] = json.dumps(games.INSTALLED, sort_keys=True).encode("utf-8")
    for key, package in games.INSTALLED.items():
        parents = package.split(".")[:-1]
        for depth in range(1, len(parents) + 1):  # e.g. tests/__init__.py for a test's game
            found.setdefault("/".join(parents[:depth]) + "/__init__.py", b"")
        for path in (games.folder(key) / part for part in GAME_PARTS):
            if path.is_dir():
                found.update(_sources(path))
            elif path.exists():
                found[_name(path)] = path.read_bytes()
    return sorted(found.items())


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _sources(folder: Path) -> dict[str, bytes]:
    return {_name(path): path.read_bytes() for path in folder.rglob("*.py") if "__pycache__" not in path.parts}


def catalogues() -> dict[str, bytes]:
    """language -> its catalogue as JSON bytes (sorted keys), from the compiled messages
    (``compilemessages``; a language without its ``.mo`` has none: the engine reads German)."""
    found = {}
    for mo in sorted(LOCALE.glob("*/LC_MESSAGES/django.mo")):
        language = mo.parts[-3]
        if language == ENGINE_LANGUAGE:
            continue
        with mo.open("rb") as handle:
            catalog = gettext.GNUTranslations(handle)._catalog
        # plain messages only (the header "" and plural forms are not the engine's)
        words = {k: v for k, v in catalog.items() if isinstance(k, str) and k and v}
        found[language] = json.dumps(words, ensure_ascii=False, sort_keys=True, indent=0).encode("utf-8")
    return found


def build() -> RulesPack:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in members():
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    data = buffer.getvalue()
    return RulesPack(data, hashlib.sha256(data).hexdigest())


@lru_cache(maxsize=1)
def current() -> RulesPack:
    """The pack of this process's source (built once; a deploy restarts the processes)."""
    return build()


@lru_cache(maxsize=1)
def brotli_copy() -> bytes:
    """The current pack Brotli-compressed, as the view sends it to a browser that takes Brotli
    (built once per process, as the pack). Quality 9: 70 ms of the process's first request;
    11 would save 7 kB (6 ms on 4G) for 0.7 s."""
    import brotli  # the server's (requirements.txt); loaded where it is used

    return brotli.compress(current().data, quality=9)
