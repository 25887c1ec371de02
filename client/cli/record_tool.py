"""kahuna-record: work with game records from the command line (the format: docs/records.md).

    kahuna-record replay FILE                  print the final state and outcome as JSON
    python -m client.cli.record_tool replay FILE   the same, without the installed script

A file of many records (a player's games downloaded: docs/records.md, "A file of many
records") prints a JSON array, one game each, in the file's order.

FILE '-' reads standard input (a record of any name: `.kahuna`, or `.kahuna.txt` as servers
wrote them before). A record that does not replay prints FILE:LINE: reason on standard error
and exits with status 1; a file that cannot be read exits with status 2; a reader that stops
early (`| head`) ends it quietly with status 141, as it ends cat. The engine's pure functions
(shared.record: replay, game_to_json) do the work; this module is the I/O around them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from client.cli.pipes import until_the_reader_leaves
from shared.record import RecordError, game_to_json, replay, split_records


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="kahuna-record", description="Work with Kahuna game records."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    replay_cmd = commands.add_parser(
        "replay", help="replay a record and print the final state and outcome as JSON"
    )
    replay_cmd.add_argument("file", help="the record file ('-' for standard input)")
    args = parser.parse_args(argv)
    return until_the_reader_leaves(lambda: replay_command(args.file))


def replay_command(name: str) -> int:
    try:
        if name == "-":
            text = sys.stdin.read()
        else:
            with open(name, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        print(f"{name}: {exc.strerror}", file=sys.stderr)
        return 2
    pieces = split_records(text)
    games = []
    for first, piece in pieces:
        try:
            games.append(game_to_json(replay(piece)))
        except RecordError as exc:
            print(f"{name}:{first - 1 + exc.line}: {exc.reason}", file=sys.stderr)
            return 1
    json.dump(games[0] if len(pieces) == 1 else games, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
