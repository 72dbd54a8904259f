"""The offline pack: what a phone needs to keep a Partie without network.

- :mod:`.pack` — the **rules pack**: a zip of the pure-Python engine (``protocol/rules``, and
  ``protocol/entry_form`` where it exists) plus :mod:`.bridge`, built in memory, deterministic,
  named by its content hash (``/offline/regeln-<sha>.zip``) so it is never stale;
- :mod:`.bridge` — the Python side of ``static/js/offline/engine.js``: JSON in, JSON out,
  runs inside Pyodide (standard library and the rules only, no Django);
- :mod:`.precache` — the service worker's precache list (file -> content revision);
- :mod:`.views` — the pack, ``/sw.js`` and ``/manifest.webmanifest``.

No models, no app config: a plain package of the ``protocol`` app.
"""
