"""kahuna-client's options, each declared once as data: its flags, its help (in English, marked
for the catalogues and said in the chosen language when the parser is made), its section of
--help and how argparse reads it. `build_parser` makes the parser from the declarations, as
server/cli/command_line.py makes the server's from its settings; what an option's value means
is client/cli/play.py's."""

from __future__ import annotations

import argparse
import getpass
from collections.abc import Callable, Mapping
from importlib import metadata
from typing import Any

import attrs

from client.language.i18n import LANGUAGES, N_, _
from client.model.table import LEVEL_CHOICES
from protocol.fields import DEFAULT_PORT, PROTOCOL_VERSION

DESCRIPTION = N_("""\
Kahuna, Günter Cornett's two-player game of islands and bridges, in a terminal.

  kahuna-client --local            play against the computer, nothing else needed
  kahuna-client                    connect to a kahuna-server on this machine (port {port});
                                   when none answers, choose one of the LAN's from a list
  kahuna-client HOST[:PORT]        connect to a server elsewhere (or a ws:// or wss:// URL)
  kahuna-client ws://a ws://b      a server with a standby: whichever of them serves
  kahuna-client HOST --spectate T  watch table T

In the lobby: arrows select a table, Enter joins it, s watches it, n creates a table (against
the computer and its level, or a person; the variants, a handicap, a clock, hints). In a game,
type commands in the game's notation (Tab completes them; F1 lists them all), e.g. 'place
BARI-DUDA', 'take COCO', 'draw', 'undo'; and resign, offer draw, accept, decline, claim,
rematch, hint. F2 draws from the pile, F3-F5 take a face-up card, F6 abstains, F7 ends a final
turn, F8 undoes a play. A dropped connection is retried by itself, and the seat is taken back.
""")


def client_version() -> str:
    try:
        return metadata.version("kahuna")
    except metadata.PackageNotFoundError:
        return "unknown"


def default_name() -> str:
    try:
        name = getpass.getuser()
    except Exception:
        name = ""
    return (name or "player")[:32]


def version_line() -> str:
    return f"kahuna-client {client_version()} (protocol version {PROTOCOL_VERSION})"


# The sections of --help after the first, by key, in the order they are shown.
GROUPS: Mapping[str, str] = {
    "local": N_("the game --local starts (in the lobby, press n for the same choices)"),
    "accounts": N_(
        "accounts (on a server that keeps them; the password is asked without echo, or taken"
        " from KAHUNA_PASSWORD)"
    ),
}


@attrs.frozen
class Flag:
    """One option (or the addresses, a positional argument) of kahuna-client."""

    names: tuple[str, ...]  # argparse's: "--seat", or "urls" for the positional
    help: str  # English (N_); "{port}" is the default port, "%(default)s" argparse's
    group: str | None = None  # a key of GROUPS; None: the first section
    exclusive: bool = False  # one of the group's options of which at most one may be given
    # argparse's keywords (action, choices, default, metavar, nargs, type); a default that is a
    # function is called when the parser is made (the user's name)
    how: Mapping[str, Any] = attrs.field(factory=dict)
    default_from: Callable[[], object] | None = None


FLAGS: tuple[Flag, ...] = (
    Flag(
        ("urls",),
        N_(
            "HOST, HOST:PORT, ws://HOST:PORT or wss://HOST:PORT (default: this machine,"
            " port {port}; when nothing answers there, a list of the LAN's servers to"
            " choose from). Several may be given: the other addresses of the same server, a standby"
            " that takes over when the first dies; the client goes to whichever serves, and the"
            " first address names the server for the seats and login kept"
        ),
        how={"nargs": "*", "metavar": "SERVER"},
    ),
    Flag(("--version",), N_("show the version and exit"), how={"action": "version"}),
    Flag(
        ("--name",),
        N_("your name at the table (default: %(default)s)"),
        default_from=default_name,
    ),
    Flag(("--spectate",), N_("watch this table instead of the lobby"), how={"metavar": "TABLE"}),
    Flag(
        ("--local",),
        N_("start a server inside this program on a free loopback port and play the computer"),
        how={"action": "store_true"},
    ),
    Flag(
        ("--seat",),
        N_("your colour"),
        "local",
        how={"choices": ["white", "black"], "default": "white"},
    ),
    Flag(
        ("--first",),
        N_("who moves first"),
        "local",
        how={"choices": ["white", "black", "random"], "default": "white"},
    ),
    Flag(
        ("--variant1",),
        N_("Variant 1: no bridges at the opponent's islands, free rebuild"),
        "local",
        how={"action": "store_true"},
    ),
    Flag(
        ("--variant2",),
        N_("Variant 2: cards drawn from the face-up row lie open"),
        "local",
        how={"action": "store_true"},
    ),
    Flag(
        ("--handicap",),
        N_("handicap play: SEAT (white or black) places N (1-3) free bridges first, e.g. white:2"),
        "local",
        how={"metavar": "SEAT:N"},
    ),
    Flag(
        ("--level",),
        N_("the computer's strength (default: %(default)s; strong thinks about a second a move)"),
        "local",
        how={"choices": LEVEL_CHOICES, "default": "normal"},
    ),
    Flag(
        ("--clock",),
        N_(
            "a time control: MINUTES+SECONDS, e.g. 5+3 (5 minutes each, 3 seconds more after"
            " each turn), 10+5, 30+0; or SECONDS/turn, e.g. 60/turn; default: none"
        ),
        "local",
        how={"metavar": "CONTROL", "default": "none"},
    ),
    Flag(
        ("--no-hints",),
        N_("play without the 'hint' command (a courtesy: the client refuses it)"),
        "local",
        how={"action": "store_true"},
    ),
    Flag(
        ("--computer-delay",),
        N_("seconds the computer waits before each action"),
        "local",
        how={"type": float, "default": 0.8},
    ),
    Flag(
        ("--ca-file",),
        N_(
            "trust the certificate(s) in PEM for a wss:// server, e.g. the self-signed"
            " certificate of a server on a LAN"
        ),
        how={"metavar": "PEM"},
    ),
    Flag(
        ("--no-color",),
        N_("no colours (also when NO_COLOR is set)"),
        how={"action": "store_true"},
    ),
    Flag(
        ("--theme",),
        N_(
            "colours for a light or a dark terminal background (default: from COLORFGBG, else dark)"
        ),
        how={"choices": ["light", "dark"]},
    ),
    Flag(
        ("--find",),
        N_("list the Kahuna servers on the LAN that answer within a few seconds, and exit"),
        how={"action": "store_true"},
    ),
    Flag(
        ("--lan-interface",),
        N_(
            "with --find and the list of the LAN's servers: look on the interface with this"
            " address only (e.g. 192.168.1.5)"
        ),
        how={"metavar": "ADDR", "action": "append"},
    ),
    Flag(
        ("--replay",),
        N_(
            "step through a game record (saved by 'save' or a server's --records, or a"
            " position) on the board, every card shown: arrows, Home, End, 1 2 3; q quits"
        ),
        how={"metavar": "FILE"},
    ),
    Flag(
        ("--analyse",),
        N_(
            "analyse game records, one after the other: each turn's chance of winning from its"
            " player's own view, what it cost, the better turn, a chart; printed, then the"
            " program ends"
        ),
        how={"metavar": "FILE", "nargs": "+"},
    ),
    Flag(
        ("--plain",),
        N_("with --analyse: the analysis alone, no progress bar (for scripts, screen readers)"),
        how={"action": "store_true"},
    ),
    Flag(
        ("--deep",),
        N_("with --analyse: four times the samples a position (slower, steadier)"),
        how={"action": "store_true"},
    ),
    Flag(
        ("--tutorial",),
        N_("learn the game on the board: short lessons where you type the moves"),
        how={"action": "store_true"},
    ),
    Flag(
        ("--lang",),
        N_(
            "the client's language: en (English), de (Deutsch), it (Italiano); default: from"
            " the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English. The game's notation"
            " (place BARI-DUDA) works in every language"
        ),
        how={"choices": LANGUAGES},
    ),
    Flag(
        ("--register",),
        N_("make an account of this name and log in"),
        "accounts",
        exclusive=True,
        how={"metavar": "NAME"},
    ),
    Flag(
        ("--login",),
        N_("log in to your account (once per machine: the client keeps a login token)"),
        "accounts",
        exclusive=True,
        how={"metavar": "NAME"},
    ),
    Flag(
        ("--quiet",),
        N_(
            "no terminal bell and no window title when a game wants you (your move in a game"
            " of days, a challenge, time running out)"
        ),
        "accounts",
        how={"action": "store_true"},
    ),
    Flag(("--log",), N_("write a debug log to FILE"), how={"metavar": "FILE"}),
)


def build_parser() -> argparse.ArgumentParser:
    """The parser of FLAGS, its words in the language chosen (set before it is made)."""
    parser = argparse.ArgumentParser(
        prog="kahuna-client",
        description=_(DESCRIPTION).format(port=DEFAULT_PORT),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # argparse shows the sections in the order they are made: each where its first option is
    sections: dict[str | None, Any] = {None: parser}
    exclusive: dict[str | None, Any] = {}
    for flag in FLAGS:
        if flag.group is not None and flag.group not in sections:
            sections[flag.group] = parser.add_argument_group(_(GROUPS[flag.group]))
        section = sections[flag.group]
        if flag.exclusive:
            if flag.group not in exclusive:
                exclusive[flag.group] = section.add_mutually_exclusive_group()
            section = exclusive[flag.group]
        how = dict(flag.how)
        if flag.default_from is not None:
            how["default"] = flag.default_from()
        if how.get("action") == "version":
            how["version"] = version_line()
        words = _(flag.help)
        section.add_argument(
            *flag.names, help=words.format(port=DEFAULT_PORT) if "{port}" in words else words, **how
        )
    return parser
