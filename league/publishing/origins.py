"""The websites that may embed a club's results: ``https://host[:port]`` origins, one a line.

They go into a Content-Security-Policy header (``frame-ancestors``), so nothing but a plain
https origin may pass: no path, no wildcard, no quote, no semicolon.

>>> parse_origins("https://Verein.example\\n\\nhttps://www.verein.example:8443/")
['https://verein.example', 'https://www.verein.example:8443']
>>> parse_origins("https://verein.example\\nhttp://verein.example")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
league.publishing.origins.BadOrigin: line 2: 'http://verein.example'
"""

from __future__ import annotations

import re

MAX_ORIGINS = 10
_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
ORIGIN = re.compile(rf"^https://(?P<host>{_LABEL}(?:\.{_LABEL})*)(?::(?P<port>[0-9]{{1,5}}))?/?$")


class BadOrigin(ValueError):
    """A line that is no ``https://host[:port]`` origin (``line`` counts from 1)."""

    def __init__(self, line: int, value: str):
        super().__init__(f"line {line}: {value!r}")
        self.line, self.value = line, value


class TooManyOrigins(ValueError):
    pass


def parse_origins(text: str) -> list[str]:
    """The origins of ``text`` (one a line, blank lines ignored), lower-cased, without a
    trailing slash, each once. Raises :class:`BadOrigin` naming the first bad line, or
    :class:`TooManyOrigins` beyond ``MAX_ORIGINS``."""
    origins: list[str] = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        value = line.strip()
        if not value:
            continue
        match = ORIGIN.match(value.lower())
        port = match and match["port"]
        if not match or (port and not 0 < int(port) < 65536):
            raise BadOrigin(number, value)
        origin = f"https://{match['host']}" + (f":{int(port)}" if port else "")
        if origin not in origins:
            origins.append(origin)
    if len(origins) > MAX_ORIGINS:
        raise TooManyOrigins(MAX_ORIGINS)
    return origins
