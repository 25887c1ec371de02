"""`kahuna-server moderation log`: the operator reads the moderation log (every moderator's
action with its reason, the reports closed, the operator's own grants), on the database whether
or not a server is using it.

    kahuna-server moderation log [--lines N] [--lang LANG] [--db PATH|URL]

Each line says who did what to whom, until when and why, in the operator's language: --lang,
else the locale's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English, as the terminal client
chooses (catalogue.choose_language). The log keeps codes (server/core/store.py's
ModerationLogOp); the sentences are made here, from the catalogue's that the moderators read the
same log in (catalogue/codes.py's MODERATION_ACTIONS, in their clients through protocol version
4's `moderation`). The reasons are the moderators' own words, shown as typed.

At a terminal a line longer than its width goes on under its sentence, not under its time; into
a pipe or a file each entry stays one line, for grep.
"""

from __future__ import annotations

import argparse
import gettext
import shutil
import sys
import textwrap
import time
from collections.abc import Callable

from catalogue import DOMAIN, LANGUAGES, LOCALE_DIR, N_, choose_language
from catalogue.codes import MODERATION_ACTIONS, MODERATORS
from server.cli.database_commands import database_parser, on_database
from server.core.store import ModerationLogOp, Storage

PROG = "kahuna-server moderation"
LINES = 50
STAMP = "%Y-%m-%d %H:%M"
# the time, then two blanks: where a wrapped line's sentence goes on
INDENT = len(time.strftime(STAMP, time.localtime(0))) + 2
# as the moderators' clients say them (client/screens/moderation_screen.py): an empty log, and
# when a mute or a ban ends
EMPTY = N_("Nothing is in the log yet.")
UNTIL = N_("until {until}")


def build_parser() -> argparse.ArgumentParser:
    parser, db = database_parser(
        PROG, "Read what the moderators did, and why; also while the server runs."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    log = commands.add_parser(
        "log", parents=[db], help="the latest lines of the moderation log, the oldest first"
    )
    log.add_argument(
        "--lines", type=int, default=LINES, metavar="N", help="the last N (default: %(default)s)"
    )
    log.add_argument(
        "--lang", choices=LANGUAGES, metavar="LANG",
        help="the log's language: en (English), de (Deutsch), it (Italiano); default: from the"
        " locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English",
    )  # fmt: skip
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    language = choose_language(args.lang)
    # English is the source: no catalogue, the msgids as they are
    say = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True).gettext
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None

    def show(storage: Storage, _running: bool) -> int:
        print(render_log(storage.load_moderation_log(max(1, args.lines)), say, width))
        return 0

    return on_database(PROG, args.db, show)


def render_log(
    lines: list[ModerationLogOp], say: Callable[[str], str], width: int | None = None
) -> str:
    """The log's lines, each its time and its sentence in `say`'s language; wrapped to `width`
    when one is given."""
    if not lines:
        return say(EMPTY)
    out = []
    for line in lines:
        text = f"{time.strftime(STAMP, time.localtime(line.at))}  {entry_words(line, say)}"
        if width is None:
            out.append(text)
            continue
        # an address or a network is never broken: it would read as two; a terminal narrower
        # than the indent and a word still gets its lines (textwrap refuses a smaller width)
        out += textwrap.wrap(
            text, max(width, INDENT + 20), subsequent_indent=" " * INDENT,
            break_long_words=False, break_on_hyphens=False,
        )  # fmt: skip
    return "\n".join(out)


def entry_words(line: ModerationLogOp, say: Callable[[str], str]) -> str:
    """Who did what to whom, until when and why: as the moderators' clients say it
    (client/language/words.py's moderation_action_words, client/screens/moderation_screen.py's
    log_row), with the operator said as a role and the times in full."""
    role = MODERATORS.get(line.moderator)  # the operator: said as a role, not a name
    moderator = line.moderator if role is None else say(role)
    sentence = MODERATION_ACTIONS.get(line.action)
    if sentence is None:  # written by a newer server than this command's
        done = f"{moderator} {line.action} {line.target}"
    else:
        done = say(sentence).format(moderator=moderator, target=line.target, name=line.name or "?")
    until = ""
    if line.until is not None:
        stamp = time.strftime(STAMP, time.localtime(line.until))
        until = " " + say(UNTIL).format(until=stamp)
    reason = f": {line.reason}" if line.reason else ""
    return f"{done}{until}{reason}"
