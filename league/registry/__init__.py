"""The registry's site side: who may do what (``access``), the form fields for free text and
dates (``texts``, ``fields``) and the checks of stored seasons (``checks``).

With ``league.models`` (clubs, members, seasons) this is layer 2: it imports nothing of
``protocol`` but the rules engine, so that recording (``protocol``) may build on it.
"""
