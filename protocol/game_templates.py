"""The template loader of the games' own templates: ``<a game's folder>/templates/<key>/...``
(its entry form's inputs, its printed sheet), found through the game registry at each lookup,
so that a game listed there, or added with ``games.install``, needs no setting."""

from __future__ import annotations

from django.template.loaders.filesystem import Loader as FilesystemLoader

from protocol import games


class Loader(FilesystemLoader):
    def get_dirs(self):
        return [games.folder(key) / "templates" for key in games.keys()]
