"""Spreadsheets in and out: a season as .xlsx (``exports``), read back (``workbook``,
``rebuild``, ``imports``), the downloads and the background jobs that run them."""
