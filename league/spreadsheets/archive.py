"""What a workbook upload must be before openpyxl reads a byte of it: an .xlsx (not empty,
not the old .xls, not an OpenDocument file, a zip archive), no larger unpacked than a
season's workbook (no "zip bomb"); and the limits every importer of workbooks shares (the
season workbook, the club's own points lists) with their German refusals."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # the old binary Excel format (.xls)


class WorkbookUnreadable(Exception):
    """The file is no .xlsx workbook at all (the command's exit 2); the message is German."""


class WorkbookTooLarge(WorkbookUnreadable):
    """The workbook is larger than a season's (or than the caller can read in time): refused
    before or while it is read, with a German message naming the sheet and its size."""


@dataclass(frozen=True)
class Limits:
    """How large a workbook is read at all; beyond it the import is refused (WorkbookTooLarge).

    ``rows``: per sheet key (the header not counted); ``columns``: the last filled column of
    any row; ``cells``: of all sheets read, as they are read; ``unpacked``: bytes of the
    .xlsx archive unpacked (a "zip bomb" unpacks to far more than any season). ``advice``:
    what the message tells the user to do instead."""

    rows: dict[str, int]
    columns: int
    cells: int
    unpacked: int
    advice: Any = ""  # a (lazily translated) sentence

    def rows_of(self, key: str) -> int:
        return self.rows.get(key, max(self.rows.values()))


# Any workbook: a federation's season (1,550 Partien) has about 160,000 Spiel lines of 16
# columns, 2.6 million cells, 110 MB unpacked (measured: 400 Partien, 38,371 lines, 28 MB).
WORKBOOK_LIMITS = Limits(rows={"matches": 20_000, "games": 500_000, "sanctions": 100_000, "table": 20_000},
                         columns=200, cells=12_000_000, unpacked=600 * 1024 * 1024)
UNPACKED_RATIO = 200  # an .xlsx unpacks to about 11 times its size; a member 200 times larger is a bomb
BOMB_SIZE = 16 * 1024 * 1024  # ... once it unpacks to more than this (openpyxl holds the shared strings in memory)


def check_archive(data: bytes, limits: Limits) -> None:
    """Refuse, before openpyxl reads anything, what is no .xlsx (empty, .xls, .ods, no zip
    archive) or unpacks to more than ``limits`` allow."""
    if not data:
        raise WorkbookUnreadable(_("The file is empty."))
    if data.startswith(OLE_MAGIC):
        raise WorkbookUnreadable(_("The file is in the old Excel format (.xls). Please open it in Excel or "
                                   "LibreOffice, save it as an Excel workbook (.xlsx) and try again."))
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise WorkbookUnreadable(_("The file is not an Excel workbook (.xlsx)."))
    if _mimetype(data).startswith(b"application/vnd.oasis.opendocument"):
        raise WorkbookUnreadable(_("The file is an OpenDocument spreadsheet (.ods). Please save it as an "
                                   "Excel workbook (.xlsx) and try again."))
    _unpacked_size(data, limits)


def _unpacked_size(data: bytes, limits: Limits) -> None:
    """Refuse an archive that unpacks to more than a season's workbook, before openpyxl
    unpacks anything: by the sizes its directory states (and zipfile stops a member that
    unpacks to more than it states)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except Exception:  # a damaged archive: load_workbook will say so
        return
    unpacked = sum(member.file_size for member in members)
    bomb = next((m for m in members if m.file_size > BOMB_SIZE
                 and m.file_size > UNPACKED_RATIO * max(m.compress_size, 1)), None)
    if bomb is not None or unpacked > limits.unpacked:
        raise WorkbookTooLarge(refusal(
            _("The file unpacks to %(size)s MB; a season's workbook unpacks to far less (the limit is %(limit)s MB, "
              "or %(ratio)s times a part's packed size).")
            % {"size": megabytes(unpacked), "limit": megabytes(limits.unpacked), "ratio": UNPACKED_RATIO}, limits))


def refusal(message: str, limits: Limits) -> str:
    return f"{message} {limits.advice}" if limits.advice else message


def megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.0f}"


def _mimetype(data: bytes) -> bytes:
    """The ``mimetype`` member an OpenDocument file starts with (b"" for anything else)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return archive.read("mimetype")[:100]
    except Exception:  # no such member, or a damaged archive: load_workbook will say so
        return b""
