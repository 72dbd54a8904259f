"""The registry's site side: who may do what (``access``), the form fields for free text and
dates (``texts``, ``fields``), the checks of stored seasons (``checks``), the versions kept
pages are validated by (``versions``) and SQL written once per shape (``statements``).

With ``league.models`` (clubs, members, seasons) this is layer 2: it imports nothing of
``protocol`` but the rules engine, so that recording (``protocol``) may build on it.
"""
