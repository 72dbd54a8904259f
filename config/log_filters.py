"""Filters for the site's log (see LOGGING in config/settings.py)."""

import logging


class RefusalWithoutTraceback(logging.Filter):
    """A 403 is the access rules working, not a fault: one line naming the path is enough.

    Django logs every refused request (PermissionDenied) with the full traceback of the
    exception; this filter drops the traceback of 403 records and lets everything else pass
    unchanged, so a real error still comes with its traceback.
    """

    def filter(self, record):
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
