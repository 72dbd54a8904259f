"""Every word the site shows has its German: the messages the code and the templates mark
for translation (English source), read as ``makemessages`` reads them, each translated in
locale/de, for every game of the registry, wherever its folder is (a new game's field
would otherwise show in English on a German page, and nothing would notice)."""

import subprocess
from pathlib import Path

from django.core.management.commands.makemessages import Command as MakeMessages
from django.utils.translation import templatize

from protocol import games

ROOT = Path(__file__).resolve().parents[2]
# the keywords Django's makemessages gives xgettext for Python (the engine's own N_ marks German
# ids, which need no German: it is left out)
KEYWORDS = ["--keyword=gettext_noop", "--keyword=gettext_lazy", "--keyword=ngettext_lazy:1,2",
            "--keyword=pgettext:1c,2", "--keyword=npgettext:1c,2,3", "--keyword=pgettext_lazy:1c,2",
            "--keyword=npgettext_lazy:1c,2,3"]


def sources(tmp_path):
    """The site's Python files and its templates (made Python by Django's templatize), with
    every game folder of the registry."""
    folders = [ROOT / name for name in ("config", "jobs", "league", "protocol", "templates")]
    folders += [games.folder(key) for key in games.keys() if not games.folder(key).is_relative_to(ROOT / "protocol")]
    found = []
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            if path.suffix == ".py":
                found.append(path)
            elif path.suffix in (".html", ".txt"):
                made = tmp_path / (path.relative_to(ROOT).as_posix().replace("/", "__") + ".py")
                made.write_text(templatize(path.read_text(encoding="utf-8"), origin=str(path)), encoding="utf-8")
                found.append(made)
    return found


def untranslated(tmp_path, also=()) -> str:
    """The msgid lines of every marked message without its German (``also``: more files to read)."""
    pot = tmp_path / "found.pot"
    files = tmp_path / "files.txt"
    files.write_text("\n".join(str(p) for p in [*sources(tmp_path), *also]), encoding="utf-8")
    keywords = [*KEYWORDS, *[o for o in MakeMessages.xgettext_options if o != "--keyword=N_"]]
    subprocess.run(["xgettext", "--language=Python", "--from-code=UTF-8", *keywords,
                    f"--files-from={files}", f"--output={pot}"], check=True, capture_output=True)
    merged = tmp_path / "merged.po"
    catalogue = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
    subprocess.run(["msgmerge", "--quiet", "--no-fuzzy-matching", f"--output-file={merged}", str(catalogue), str(pot)],
                   check=True, capture_output=True)
    found = subprocess.run(["msgattrib", "--untranslated", "--no-obsolete", str(merged)],
                           check=True, capture_output=True, text=True).stdout
    return "\n".join(line for line in found.splitlines() if line.startswith("msgid ") and line != 'msgid ""')


def test_every_word_the_site_marks_has_its_german(tmp_path):
    assert untranslated(tmp_path) == ""


def test_a_game_added_to_the_registry_is_read_too(tmp_path):
    """The check reads a game kept outside protocol/ (the tests' fourth game) and would name a
    word of it that has no German."""
    games.install("zaehlspiel", "tests.fourth_game")
    try:
        names = [p.name for p in sources(tmp_path)]
    finally:
        games.uninstall("zaehlspiel")
    assert "forms.py" in names and any(n.endswith("fields.html.py") for n in names)


def test_the_check_names_a_word_without_german(tmp_path):
    extra = tmp_path / "extra.py"
    extra.write_text('from django.utils.translation import gettext_lazy\ngettext_lazy("A word nobody translated")\n')
    assert untranslated(tmp_path, [extra]) == 'msgid "A word nobody translated"'
