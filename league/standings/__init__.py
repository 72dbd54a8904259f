"""Standings and the reading pages: the table (``ranking``), its cache, a member's history,
the archive, their django-tables2 tables and charts; one game at a time (``games``)."""
