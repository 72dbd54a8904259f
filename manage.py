#!/usr/bin/env python
"""Django's command-line utility for Trumpfbuch."""

import os
import sys


def engine_command(argv: list[str]) -> list[str] | None:
    """The rules engine's own arguments when ``argv`` asks only what the engine answers alone.

    ``check_protocol FILE`` needs neither the database nor the site's apps, and the engine's
    command line (``python -m protocol.rules check``) gives the same output and exit status;
    handing it over spares the secretary's check the start of the whole site. Any option
    (``--help``, ``--settings`` …) goes through Django's command as before.
    """
    if len(argv) == 3 and argv[1] == "check_protocol" and not argv[2].startswith("-"):
        return ["check", argv[2]]
    return None


def main():
    engine_args = engine_command(sys.argv)
    if engine_args is not None:
        from protocol.rules.__main__ import main as rules_main

        sys.exit(rules_main(engine_args))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
