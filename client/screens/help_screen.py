"""The help screen: the rules in brief (F1 opens it), then the commands and keys (`help` opens
those)."""

from __future__ import annotations

import textwrap

from client.language.command_words import command_word
from client.language.i18n import N_, _
from client.screens.canvas import Canvas, Fragment, put_clipped

# The help: first the rules in brief (F1 opens it), then the commands and keys (`help` opens
# those). Each command is shown as the player types it in the chosen language, and with the
# notation's word where that differs; descriptions are wrapped, never cut.
RULES_TITLE = N_("Kahuna: the rules in brief")
RULES = (
    N_(
        "Two players build bridges between twelve islands. On your turn, play any number of"
        " cards, then draw one: from the pile or one of the three face-up cards (5 in hand at"
        " most)."
    ),
    N_(
        "One card: your bridge on a free line from its island. Two cards, each of either end of"
        " an opponent's bridge: it is removed. A card may also be discarded face down."
    ),
    N_(
        "More than half of an island's lines are yours: your token goes on it, and the"
        " opponent's bridges there are removed."
    ),
    N_("You may abstain from drawing, unless your opponent just did."),
    N_(
        "Pile and face-up cards used up: a scoring (more tokens: 1 point, then 2). After the"
        " third, one last turn each; the final scoring gives the difference in tokens."
    ),
    N_(
        "Most points wins; on a tie, the final scoring, then the bridges. No bridge on the"
        " board in round 2 or 3 loses at once."
    ),
)
RULES_PAGES = 1  # the rules fit one page at 80x24 (tested): `help` opens the page after them
COMMAND_W = 30  # the width of the column of commands and keys

# (command words in the notation, what follows them, what it does)
HELP_GAME: tuple[tuple[str, str, str], ...] = (
    ("place", "BARI-DUDA", N_("play a BARI card: your bridge on BARI-DUDA")),
    (
        "remove",
        "HUNA-ELAI HUNA+ELAI",
        N_("two cards, each of either of its ends, remove that opponent bridge"),
    ),
    ("remove", "... rebuild", N_("Variant 1: and put your own bridge there, free")),
    ("discard", "ELAI", N_("put an ELAI card face down under the discards")),
    ("take", "COCO", N_("take the face-up COCO card; ends your turn")),
    ("draw", "", N_("draw the top card of the pile; ends your turn")),
    ("abstain", "", N_("do not draw; ends your turn")),
    ("end", "", N_("end your final turn (no drawing then)")),
    ("handicap", "ALOA-BARI", N_("a free handicap bridge before the first turn")),
    ("undo", "", N_("take back your last play")),
    ("undo turn", "", N_("take back all of this turn's plays")),
)
HELP_TABLE: tuple[tuple[str, str, str], ...] = (
    ("resign", "", N_("give up the game (asks first)")),
    ("offer draw", "", N_("offer a draw ('draw' alone draws from the pile)")),
    ("accept", "", N_("accept your opponent's draw (or rematch) offer")),
    ("decline", "", N_("decline your opponent's draw offer")),
    ("claim", "", N_("win when the server says your opponent is gone")),
    ("rematch", "", N_("after the game: another one, colours swapped")),
    (
        "hint",
        "",
        N_(
            "the normal level's play now, worked out here; a courtesy: refused where hints"
            " are off (though nothing stops a program running beside this)"
        ),
    ),
)
HELP_CLIENT: tuple[tuple[str, str, str], ...] = (
    ("say", N_("TEXT"), N_("chat (or start the line with ')")),
    ("save", N_("[FILE]"), N_("keep the game in a file")),
    ("lobby", "", N_("leave the table")),
    ("resync", "", N_("fetch the whole position again")),
    ("help", "", N_("this screen (F1: the rules in brief)")),
    ("quit", "", N_("leave the program")),
)
HELP_KEYS: tuple[tuple[str, str], ...] = (
    ("F2  Alt-d", N_("draw from the pile")),
    ("F3 F4 F5  Alt-1 Alt-2 Alt-3", N_("take face-up card 1, 2, 3")),
    ("F6  Alt-a", N_("abstain")),
    ("F7  Alt-e", N_("end the final turn")),
    ("F8  Alt-u", N_("undo a play")),
    ("Tab", N_("complete the word")),
    (N_("Up  Down"), N_("the lines typed before")),
    (N_("PgUp  PgDn"), N_("scroll the log; turn the help's pages")),
    ("F1", N_("the rules in brief and this help; Esc closes it")),
    (N_("Ctrl-Q"), N_("quit")),
)


def _entry(key: str, text: str, width: int) -> list[list[Fragment]]:
    """A command or key and what it does, the description wrapped beside it (or under it)."""
    room = max(width - COMMAND_W, 20)
    parts = textwrap.wrap(text, room) or [""]
    if len(key) >= COMMAND_W - 2:
        return [[("class:key", "  " + key)]] + [[("", " " * COMMAND_W + part)] for part in parts]
    out = [[("class:key", f"  {key}".ljust(COMMAND_W)), ("", parts[0])]]
    out += [[("", " " * COMMAND_W + part)] for part in parts[1:]]
    return out


def _command_entry(english: str, rest: str, text: str, width: int) -> list[list[Fragment]]:
    typed = command_word(english)
    if english == "remove" and rest.endswith("rebuild"):
        rest = "... " + command_word("rebuild")
    # an argument's name in the player's language (TEXT, [FILE]); a board example as it is
    shown = _(rest) if rest in ("TEXT", "[FILE]") else rest
    key = f"{typed} {shown}".strip()
    said = _(text)
    if typed != english:  # the notation's word too: records and the server speak it
        said = f"[{english}] {said}"
    return _entry(key, said, width)


def rules_lines(width: int) -> list[list[Fragment]]:
    out: list[list[Fragment]] = [[("class:title", _(RULES_TITLE))]]
    for paragraph in RULES:
        parts = textwrap.wrap(_(paragraph), max(width - 2, 20))
        out.append([("", "• " + parts[0])])
        out += [[("", "  " + part)] for part in parts[1:]]
    return out


def help_lines(width: int = 80) -> list[list[Fragment]]:
    """The commands and keys, one screen line each."""
    out: list[list[Fragment]] = []
    for title, entries in (
        (N_("Commands: the game's notation; Tab completes, each is checked first"), HELP_GAME),
        (N_("The table"), HELP_TABLE),
        (N_("The client"), HELP_CLIENT),
    ):
        out += [[("class:title", line)] for line in textwrap.wrap(_(title), width)]
        for english, rest, text in entries:
            out += _command_entry(english, rest, text, width)
    out.append([("class:title", _("Keys"))])
    for key, text in HELP_KEYS:
        out += _entry(_(key), _(text), width)
    legend = _("Map: · free  = White  # Black  ○ ● tokens  4of6: 4 of its 6 lines win the island")
    out += [[("class:title", line)] for line in textwrap.wrap(legend, width)]
    return out


def help_pages(height: int, width: int = 80) -> list[list[list[Fragment]]]:
    """The help cut into pages of this height (the last line of each: where it is): the rules
    in brief first, then the commands and keys."""
    size = max(height - 1, 1)
    rules = rules_lines(width)
    rules.append([("class:dim", _("PgDn: the commands and keys"))])
    pages = [rules[i : i + size] for i in range(0, len(rules), size)]
    lines = help_lines(width)
    return pages + [lines[i : i + size] for i in range(0, len(lines), size)]


def render_help(width: int, height: int, page: int = 0) -> Canvas:
    canvas = Canvas(width, height)
    pages = help_pages(height, width)
    page = min(max(page, 0), len(pages) - 1)
    for y, row in enumerate(pages[page][:height]):
        put_clipped(canvas, 0, y, row, width)
    if len(pages) > 1:
        where = _("page {page} of {pages}: PgDn and PgUp turn the pages, Esc closes").format(
            page=page + 1, pages=len(pages)
        )
        canvas.put(0, height - 1, where[:width], "class:dim")
    return canvas


# The lobby's help (F1 or `:help` there): its keys, and the command line's syntax, which was
# in the README only. The commands as typed in English (the words of the language work too).
LOBBY_HELP_W = 22
LOBBY_HELP_KEYS: tuple[tuple[str, str], ...] = (
    (N_("↑↓ Enter"), N_("choose a table; Enter sits you down (or watches)")),
    ("w  b  s", N_("sit as White; sit as Black; watch")),
    ("n", N_("a new table, against the computer or a person")),
)
LOBBY_HELP_ACCOUNT_KEYS: tuple[tuple[str, str], ...] = (
    ("g  R  c", N_("games, ratings, challenges: ↑↓ Enter opens, Esc back")),
    ("x", N_("in the challenges: decline one, or withdraw your own")),
    ("T", N_("tournaments (j, w, s in one: join, withdraw, start)")),
    ("'  :", N_("the lobby's chat; the command line, below")),
)
LOBBY_HELP_COMMANDS: tuple[tuple[str, str], ...] = (
    ("register NAME", N_("make an account (the password is asked twice)")),
    ("login NAME", N_("log in (the password is asked)")),
    ("logout   password", N_("log out here; change your password; delete-account")),
    ("games [NAME]", N_("your or a player's games; ratings; download: all yours")),
    ("resume ID", N_("sit down again at a running game of yours")),
    (
        "challenge NAME [3d] [unrated] [white|black]",
        N_("challenge a registered player (3d: 3 days a move)"),
    ),
    ("accept/decline ID", N_("answer a challenge; withdraw ID takes yours back")),
    ("ignore NAME", N_("stop hearing a player (unignore NAME: hear again)")),
    ("'TEXT   say TEXT", N_("the lobby's chat (report NAME REASON: to the moderators)")),
    ("tournament new", N_("NAME swiss 5 [5+3|3d] (or roundrobin, double)")),
)
# version 4's e-mail, on a server that sends it
LOBBY_HELP_MAIL: tuple[tuple[str, str], ...] = (
    ("email ADDRESS", N_("your e-mail address (a code is sent to it; email none: no address)")),
    ("confirm CODE", N_("confirm your address with the code of its mail")),
    ("mail on|off KIND", N_("mails of your move, clock, challenge, tournament: on or off")),
    ("mail language LANG", N_("the language of your mails: en, de or it")),
    ("forgot NAME", N_("a mail to reset a forgotten password; reset CODE sets it")),
)
# a moderator's chat line: their panels, which list their commands
MODERATOR_HELP = ("'TEXT   say TEXT", N_("chat (report NAME REASON; yours: reports, modlog)"))


def _lobby_entry(key: str, text: str, width: int) -> list[list[Fragment]]:
    room = max(width - LOBBY_HELP_W, 20)
    parts = textwrap.wrap(text, room) or [""]
    if len(key) >= LOBBY_HELP_W - 2:
        lead: list[list[Fragment]] = [[("class:key", "  " + key)]]
        return lead + [[("", " " * LOBBY_HELP_W + part)] for part in parts]
    out = [[("class:key", f"  {key}".ljust(LOBBY_HELP_W)), ("", parts[0])]]
    return out + [[("", " " * LOBBY_HELP_W + part)] for part in parts[1:]]


def lobby_help_lines(
    width: int, accounts: bool, mail: bool = False, moderator: bool = False
) -> list[list[Fragment]]:
    """The lobby's keys, and with accounts its command line's commands (with `mail`, those of
    e-mail too), one line each."""
    out: list[list[Fragment]] = [[("class:title", _("The lobby: keys"))]]
    keys = LOBBY_HELP_KEYS + (LOBBY_HELP_ACCOUNT_KEYS if accounts else ())
    for key, text in (*keys, ("F1  ^Q", N_("this help; quit"))):
        out += _lobby_entry(_(key), _(text), width)  # a key's name too: Italian says Invio
    if accounts:
        title = _("The command line (':'; the words of your language work too)")
        out += [[("class:title", line)] for line in textwrap.wrap(title, width)]
        for key, text in LOBBY_HELP_COMMANDS + (LOBBY_HELP_MAIL if mail else ()):
            if moderator and key == MODERATOR_HELP[0]:
                text = MODERATOR_HELP[1]
            out += _lobby_entry(key, _(text), width)
    return out


def render_lobby_help(
    width: int,
    height: int,
    accounts: bool,
    mail: bool = False,
    moderator: bool = False,
    page: int = 0,
) -> Canvas:
    """The lobby's help: one page, or where it is longer than the screen (e-mail's commands at
    24 rows), pages turned by PgDn and PgUp, the last line of each saying where it is. How to
    close it is the key bar's to say, under it: a line of its own here said it twice."""
    canvas = Canvas(width, height)
    lines = lobby_help_lines(width, accounts, mail, moderator)
    if len(lines) <= height:
        for y, row in enumerate(lines):
            put_clipped(canvas, 0, y, row, width)
        return canvas
    size = max(height - 1, 1)
    pages = [lines[i : i + size] for i in range(0, len(lines), size)]
    page = min(max(page, 0), len(pages) - 1)
    for y, row in enumerate(pages[page]):
        put_clipped(canvas, 0, y, row, width)
    where = _("page {page} of {pages}: PgDn and PgUp turn the pages, Esc closes").format(
        page=page + 1, pages=len(pages)
    )
    canvas.put(0, height - 1, where[:width], "class:dim")
    return canvas
