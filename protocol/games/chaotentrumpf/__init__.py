"""Chaotentrumpf, one folder: its rules (``rules/``), its entry mapping (``entry_form.py``), both pure
Python and shipped to the browser, and its site plug-in (``plugin.py``: forms,
presentation, the printed sheet, ``templates/chaotentrumpf/``). Listed in protocol/games/__init__.py.

Empty on purpose: importing the rules must not load the site (the browser has no Django).
"""
