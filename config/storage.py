"""The static files' storage outside DEBUG: WhiteNoise's manifest storage (hashed names,
compressed copies), with two exceptions for ``static/vendor/`` (htmx, Pyodide, Workbox,
idb: ``make vendor``):

- the references inside vendor files stay as written: they name source maps that are not
  copied (``//# sourceMappingURL=workbox-core.prod.js.map``), which the manifest storage
  would refuse at collectstatic;
- only their plain names are compressed, not their hashed copies (nothing asks for those:
  Pyodide's ``indexURL`` and Workbox's ``modulePathPrefix`` load the plain names; htmx, named
  by the pages' ``{% static %}``, is asked for by its hashed name and keeps both), and a big
  file gets a faster Brotli level (the 9 MB WebAssembly of Pyodide: seconds, not minutes);
- Pyodide's standard library is compressed although it is a zip: the vendor rule writes it
  trimmed and stored, not deflated (protocol/offline/stdlib.py), for Brotli to pack.
"""

import brotli
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

VENDOR = "vendor/"
BY_HASHED_NAME = ("vendor/htmx/",)  # vendor files the pages name through {% static %}
BIG = 4 * 1024 * 1024  # bytes; above this Brotli's quality 11 costs minutes, 9 seconds
STORED_ZIPS = ("vendor/pyodide/python_stdlib.zip",)  # zips that are not compressed inside


class _Compressor(Compressor):
    @staticmethod
    def compress_brotli(data):
        return brotli.compress(data, quality=11 if len(data) < BIG else 9)

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
