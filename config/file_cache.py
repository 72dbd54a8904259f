"""The site's file cache (``CACHE_URL=file://``): Django's, but it counts its files now and
then instead of at every write.

Django's ``FileBasedCache`` lists its whole directory at every ``set`` to see whether it
holds more than ``MAX_ENTRIES`` (``_cull``): 4 ms at 900 entries and more at the default
bound of 5,000, paid three times by the save of a Spiel and the match page it redirects to
(the engine's state and the page's two fragments; issue 18). Here a process counts at
every ``CULL_EVERY``-th write only (a fiftieth of the bound), and culls as Django does: the
bound holds give or take that many writes per process.
"""

from __future__ import annotations

import itertools

from django.core.cache.backends.filebased import FileBasedCache


class FileCache(FileBasedCache):
    def __init__(self, dir, params):  # noqa: A002 - Django's name
        super().__init__(dir, params)
        self.cull_every = max(1, self._max_entries // 50)
        self._writes = itertools.count(1)  # next() is atomic under the GIL: threads share it

    def _cull(self):
        if next(self._writes) % self.cull_every == 0:
            super()._cull()
