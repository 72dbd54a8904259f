"""``makemessages`` that also finds the engine's words: ``N_("…")`` (protocol/rules/words.py).

The engine stays free of Django, so it marks its German texts with its own ``N_``; xgettext
is told about that keyword here. The German texts are message ids: the English catalogue
(locale/en) translates them, the German one needs nothing for them.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
