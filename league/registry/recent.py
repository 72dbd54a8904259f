"""What a process keeps of its recent work for all its threads, the least recently kept dropped
beyond a bound: the engine's states a worker shares with its pages (protocol.engine_state) and
the sheet's rows it wrote (protocol.sheet.kept_rows). Each key must say all its value is made
of, so that nothing kept can be stale; what the code or a template writes goes with the process
(``forget_on_file_change``: and when runserver sees a file change)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.utils.autoreload import file_changed


class Recent(OrderedDict):
    """An ordered dict read as any (``get``), written through :meth:`keep` only."""

    def __init__(self, size: int, *, forget_on_file_change: bool = False):
        super().__init__()
        self.size = size
        self._keeping = threading.Lock()  # runserver's and gthread's threads share one process
        if forget_on_file_change:
            file_changed.connect(self._forget, weak=False)

    def _forget(self, **kwargs: Any) -> None:
        self.clear()

    def keep(self, key: Any, value: Any) -> None:
        """Keep ``value`` under ``key`` as the most recent; the least recent beyond ``size`` go."""
        with self._keeping:
            self[key] = value
            self.move_to_end(key)
            while len(self) > self.size:
                self.popitem(last=False)
