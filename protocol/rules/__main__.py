"""The rules engine's own command line, standard library only (no Django, no database)::

    python -m protocol.rules check FILE.json

Exit 0 with the computed match as JSON, 1 with every error found, 2 when the file can't
be read or is not JSON; ``manage.py check_protocol`` answers the same (:mod:`.check`).
"""

from __future__ import annotations

import argparse
import sys

from .check import check_file


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m protocol.rules",
        description="Die Regeln der Spiele, ohne Website und ohne Datenbank.")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "check", help="ein Protokoll (JSON, protocol/1) prüfen und die berechnete Partie ausgeben")
    check.add_argument("file", help="die Protokolldatei (JSON, protocol/1)")
    args = parser.parse_args(argv)
    return check_file(args.file, sys.stdout, sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
