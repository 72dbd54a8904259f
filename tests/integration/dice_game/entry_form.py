"""Würfelbecher's entry form maps nothing of its own (the defaults of protocol/entry_form/state.py)."""
