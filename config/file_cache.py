"""The site's file cache (``CACHE_URL=file://``): Django's, but it counts its files now and
then instead of at every write.

Django's ``FileBasedCache`` lists its whole directory at every ``set`` to see whether it
holds more than ``MAX_ENTRIES`` (``_cull``): 4 ms at 900 entries and more at the default
bound of 5,000, paid three times by the save of a Spiel and the match page it redirects to
(the engine's state and the page's two fragments). Here a process counts at
every ``CULL_EVERY``-th write only (a fiftieth of the bound), and culls as Django does: the
bound holds give or take that many writes per process.

And it compresses at zlib's fastest level: Django's default level (6) took 0.7 ms for the
engine's state of a 40-Spiel Partie, level 1 takes 0.15 ms for a file a fifth larger (11 kB
instead of 9 kB). Reading is the same either way.
"""

from __future__ import annotations

import itertools
import pickle
import zlib

from django.core.cache.backends.filebased import FileBasedCache

COMPRESSION = 1  # zlib's fastest level


class FileCache(FileBasedCache):
    def __init__(self, dir, params):  # noqa: A002 - Django's name
        super().__init__(dir, params)
        self.cull_every = max(1, self._max_entries // 50)
        self._writes = itertools.count(1)  # next() is atomic under the GIL: threads share it

    def _cull(self):
        if next(self._writes) % self.cull_every == 0:
            super()._cull()

    def _write_content(self, file, timeout, value):
        file.write(pickle.dumps(self.get_backend_timeout(timeout), self.pickle_protocol))
        file.write(zlib.compress(pickle.dumps(value, self.pickle_protocol), COMPRESSION))
