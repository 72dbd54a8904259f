"""The static files' storage outside DEBUG: WhiteNoise's manifest storage (hashed names,
compressed copies), with two exceptions for ``static/vendor/`` (htmx, Pyodide, Workbox,
idb: ``make vendor``):

- the references inside vendor files stay as written: they name source maps that are not
  copied (``//# sourceMappingURL=workbox-core.prod.js.map``), which the manifest storage
  would refuse at collectstatic;
- only their plain names are compressed, not their hashed copies (nothing asks for those:
  Pyodide's ``indexURL`` and Workbox's ``modulePathPrefix`` load the plain names; htmx, named
  by the pages' ``{% static %}``, is asked for by its hashed name and keeps both), and a big
  file gets Brotli's quality 10, not 11 (the 9 MB WebAssembly of Pyodide: half a minute, not
  several; 0.3 MB fewer than quality 9, a quarter of a second less on a phone's 4G); the
  Brotli copy of a file of a megabyte or more (Pyodide's) is kept for the next collectstatic in
  ``static/vendor/.brotli/``, by the file's SHA-256 (``make vendor`` empties it with the rest;
  collectstatic skips dot folders), instead of compressed again for seconds each time;
- Pyodide's standard library is compressed although it is a zip: the vendor rule writes it
  trimmed and stored, not deflated (protocol/offline/stdlib.py), for Brotli to pack.
"""

import hashlib
import os
import tempfile
from pathlib import Path

import brotli
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

VENDOR = "vendor/"
BY_HASHED_NAME = ("vendor/htmx/",)  # vendor files the pages name through {% static %}
BIG = 4 * 1024 * 1024  # bytes; above this Brotli's quality 11 costs minutes, 10 half a minute
BIG_QUALITY = 10
KEEP_FROM = 1024 * 1024  # bytes; a file this big has its Brotli copy kept (seconds to compress)
KEPT = Path(__file__).resolve().parents[1] / "static" / "vendor" / ".brotli"
STORED_ZIPS = ("vendor/pyodide/python_stdlib.zip",)  # zips that are not compressed inside


def kept_brotli(data: bytes, quality: int, kept: Path = KEPT) -> bytes:
    """``data`` at Brotli's ``quality``, computed once per content: read from ``kept`` when an
    earlier collectstatic left it there, else compressed and left there (written whole, then
    renamed: two collectstatics at once each write a complete copy)."""
    path = kept / f"{hashlib.sha256(data).hexdigest()}-q{quality}.br"
    try:
        return path.read_bytes()
    except OSError:
        pass
    compressed = brotli.compress(data, quality=quality)
    try:
        kept.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=kept, suffix=".part", delete=False) as handle:
            handle.write(compressed)
        os.chmod(handle.name, 0o644)
        os.replace(handle.name, path)
    except OSError:  # not writable: compressed again next time
        pass
    return compressed


class _Compressor(Compressor):
    @staticmethod
    def compress_brotli(data):
        quality = 11 if len(data) < BIG else BIG_QUALITY
        return brotli.compress(data, quality=quality) if len(data) < KEEP_FROM else kept_brotli(data, quality)

    def should_compress(self, filename):
        return super().should_compress(filename) or filename.replace("\\", "/").endswith(STORED_ZIPS)


class StaticStorage(CompressedManifestStaticFilesStorage):
    def url_converter(self, name, hashed_files, template=None):
        if name.replace("\\", "/").startswith(VENDOR):
            return lambda matchobj: matchobj.group(0)  # the reference as written
        return super().url_converter(name, hashed_files, template)

    def create_compressor(self, **kwargs):
        return _Compressor(**kwargs)

    def compress_files(self, paths):
        hashed = {self.hashed_files.get(self.hash_key(name)) for name in paths
                  if name.startswith(VENDOR) and not name.startswith(BY_HASHED_NAME)}
        yield from super().compress_files([name for name in paths if name not in hashed])
