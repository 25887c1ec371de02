"""kahuna-client: play Kahuna in a terminal against a person or the computer (see --help)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import logging
import os
import re
import signal
import ssl
import sys
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from urllib.parse import urlsplit

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from client.cli.run import Client
from client.files.form_store import keep_form, load_form
from client.files.login_tokens import LoginTokens
from client.files.seats import SeatStore
from client.files.service_addresses import ServiceAddresses
from client.language.i18n import (
    LANGUAGES,
    N_,
    _,
    choose_language,
    language_asked,
    set_language,
    speak_to_argparse,
)
from client.model.lobby_commands import PASSWORD_ENV
from client.model.state import ClientState
from client.model.table import LEVEL_CHOICES, parse_control
from client.model.table_form import CreateForm
from client.screens.screen import color_depth_for, not_a_terminal
from protocol.fields import DEFAULT_PORT, PROTOCOL_VERSION
from protocol.messages import CreateTable, ServerMessage, Welcome

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


class AddressError(ValueError):
    """A server address that can never work: a bad scheme, host or port."""


_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.%A-Za-z]+\]")


def server_url(text: str | None) -> str:
    """'host', 'host:port' or a ws:// / wss:// URL, as a URL; AddressError when it is none."""
    if not text:
        return f"ws://127.0.0.1:{DEFAULT_PORT}"
    text = text.strip()
    if "://" in text:
        url = text
    elif text.count(":") > 1 and not text.startswith("["):
        url = f"ws://[{text}]:{DEFAULT_PORT}"  # a bare IPv6 address
    else:
        host, sep, port = text.rpartition(":")
        url = f"ws://{host}:{port}" if sep else f"ws://{text}:{DEFAULT_PORT}"
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss"):
        raise AddressError(
            _(
                "{text}: the server's address is HOST, HOST:PORT, ws://HOST:PORT or"
                " wss://HOST:PORT (not {scheme}://)"
            ).format(text=repr(text), scheme=parts.scheme)
        )
    host = parts.netloc.rpartition("@")[2]
    host = host.rpartition(":")[0] if not host.endswith("]") and ":" in host else host
    if not host or not _HOST.fullmatch(host):
        raise AddressError(
            _("{text}: {host} is not a host name or an address").format(
                text=repr(text), host=repr(host) if host else _("no host")
            )
        )
    try:
        number = parts.port
    except ValueError:
        number = -1
    if number is None:
        return url  # a URL without a port: its scheme's (80 or 443)
    if not 1 <= number <= 65535:
        given = parts.netloc.rpartition(":")[2]
        raise AddressError(
            _("{text}: the port {port} is not a number from 1 to 65535").format(
                text=repr(text), port=repr(given)
            )
        )
    return url


def server_urls(texts: Sequence[str] | None) -> list[str]:
    """The addresses given, each as server_url makes it (this machine's when none is given);
    AddressError for the first that is none."""
    return [server_url(text) for text in texts] if texts else [server_url(None)]


def tls_contexts(args: argparse.Namespace, urls: Sequence[str]) -> ssl.SSLContext | None:
    """The TLS settings for the wss:// addresses among urls (a ws:// one does without); --ca-file
    is refused only when none of them is wss://."""
    secure = [url for url in urls if url.startswith("wss://")]
    return tls_context(args, secure[0] if secure else urls[0])


def tls_context(args: argparse.Namespace, url: str) -> ssl.SSLContext | None:
    """The TLS settings for a wss:// server: the system's authorities, or --ca-file's."""
    if not url.startswith("wss://"):
        if args.ca_file:
            raise AddressError(_("--ca-file is for a wss:// server (TLS); this address is ws://"))
        return None
    try:
        return ssl.create_default_context(cafile=args.ca_file)
    except (OSError, ssl.SSLError) as exc:
        raise AddressError(
            _("--ca-file {file}: not a PEM certificate ({reason})").format(
                file=args.ca_file, reason=exc
            )
        ) from None


def theme_from_env(environ: Mapping[str, str]) -> str:
    """'light' or 'dark' from COLORFGBG ("15;0": white on black), which many terminals set;
    dark when it says nothing."""
    bg = environ.get("COLORFGBG", "").rpartition(";")[2]
    return "light" if bg.isdigit() and int(bg) in (7, 9, 10, 11, 12, 13, 14, 15) else "dark"


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


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kahuna-client",
        description=_(DESCRIPTION).format(port=DEFAULT_PORT),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "urls",
        nargs="*",
        metavar="SERVER",
        help=_(
            "HOST, HOST:PORT, ws://HOST:PORT or wss://HOST:PORT (default: this machine,"
            " port {port}; when nothing answers there, a list of the LAN's servers to"
            " choose from). Several may be given: the other addresses of the same server, a standby"
            " that takes over when the first dies; the client goes to whichever serves, and the"
            " first address names the server for the seats and login kept"
        ).format(port=DEFAULT_PORT),
    )
    p.add_argument(
        "--version",
        action="version",
        version=f"kahuna-client {client_version()} (protocol version {PROTOCOL_VERSION})",
        help=_("show the version and exit"),
    )
    p.add_argument(
        "--name", default=default_name(), help=_("your name at the table (default: %(default)s)")
    )
    p.add_argument("--spectate", metavar="TABLE", help=_("watch this table instead of the lobby"))
    p.add_argument(
        "--local",
        action="store_true",
        help=_("start a server inside this program on a free loopback port and play the computer"),
    )
    g = p.add_argument_group(
        _("the game --local starts (in the lobby, press n for the same choices)")
    )
    g.add_argument("--seat", choices=["white", "black"], default="white", help=_("your colour"))
    g.add_argument(
        "--first", choices=["white", "black", "random"], default="white", help=_("who moves first")
    )
    g.add_argument(
        "--variant1",
        action="store_true",
        help=_("Variant 1: no bridges at the opponent's islands, free rebuild"),
    )
    g.add_argument(
        "--variant2",
        action="store_true",
        help=_("Variant 2: cards drawn from the face-up row lie open"),
    )
    g.add_argument(
        "--handicap",
        metavar="SEAT:N",
        help=_(
            "handicap play: SEAT (white or black) places N (1-3) free bridges first, e.g. white:2"
        ),
    )
    g.add_argument(
        "--level",
        choices=LEVEL_CHOICES,
        default="normal",
        help=_(
            "the computer's strength (default: %(default)s; strong thinks about a second a move)"
        ),
    )
    g.add_argument(
        "--clock",
        metavar="CONTROL",
        default="none",
        help=_(
            "a time control: MINUTES+SECONDS, e.g. 5+3 (5 minutes each, 3 seconds more after"
            " each turn), 10+5, 30+0; or SECONDS/turn, e.g. 60/turn; default: none"
        ),
    )
    g.add_argument(
        "--no-hints",
        action="store_true",
        help=_("play without the 'hint' command (a courtesy: the client refuses it)"),
    )
    g.add_argument(
        "--computer-delay",
        type=float,
        default=0.8,
        help=_("seconds the computer waits before each action"),
    )
    p.add_argument(
        "--ca-file",
        metavar="PEM",
        help=_(
            "trust the certificate(s) in PEM for a wss:// server, e.g. the self-signed"
            " certificate of a server on a LAN"
        ),
    )
    p.add_argument(
        "--no-color", action="store_true", help=_("no colours (also when NO_COLOR is set)")
    )
    p.add_argument(
        "--theme",
        choices=["light", "dark"],
        help=_(
            "colours for a light or a dark terminal background (default: from COLORFGBG, else dark)"
        ),
    )
    p.add_argument(
        "--find",
        action="store_true",
        help=_("list the Kahuna servers on the LAN that answer within a few seconds, and exit"),
    )
    p.add_argument(
        "--lan-interface",
        metavar="ADDR",
        action="append",
        help=_(
            "with --find and the list of the LAN's servers: look on the interface with this"
            " address only (e.g. 192.168.1.5)"
        ),
    )
    p.add_argument(
        "--replay",
        metavar="FILE",
        help=_(
            "step through a game record (saved by 'save' or a server's --records, or a"
            " position) on the board, every card shown: arrows, Home, End, 1 2 3; q quits"
        ),
    )
    p.add_argument(
        "--analyse",
        metavar="FILE",
        help=_(
            "analyse a game record: each turn's chance of winning from its player's own view,"
            " what it cost, the better turn, a chart; printed, then the program ends"
        ),
    )
    p.add_argument(
        "--plain",
        action="store_true",
        help=_("with --analyse: the analysis alone, no progress bar (for scripts, screen readers)"),
    )
    p.add_argument(
        "--deep",
        action="store_true",
        help=_("with --analyse: four times the samples a position (slower, steadier)"),
    )
    p.add_argument(
        "--tutorial",
        action="store_true",
        help=_("learn the game on the board: short lessons where you type the moves"),
    )
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        help=_(
            "the client's language: en (English), de (Deutsch), it (Italiano); default: from"
            " the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English. The game's notation"
            " (place BARI-DUDA) works in every language"
        ),
    )
    a = p.add_argument_group(
        _(
            "accounts (on a server that keeps them; the password is asked without echo, or taken"
            " from KAHUNA_PASSWORD)"
        )
    )
    who = a.add_mutually_exclusive_group()
    who.add_argument(
        "--register", metavar="NAME", help=_("make an account of this name and log in")
    )
    who.add_argument(
        "--login",
        metavar="NAME",
        help=_("log in to your account (once per machine: the client keeps a login token)"),
    )
    a.add_argument(
        "--quiet",
        action="store_true",
        help=_(
            "no terminal bell and no window title when a game wants you (your move in a game"
            " of days, a challenge, time running out)"
        ),
    )
    p.add_argument("--log", metavar="FILE", help=_("write a debug log to FILE"))
    return p


def parse_handicap(text: str | None) -> tuple[str | None, int]:
    if not text:
        return None, 0
    seat, _colon, count = text.partition(":")
    seat = seat.strip().lower()
    if seat not in ("white", "black") or not count.strip().isdigit() or not 1 <= int(count) <= 3:
        raise argparse.ArgumentTypeError(_("--handicap is SEAT:N, like white:2 (N from 1 to 3)"))
    return seat, int(count)


def local_table(args: argparse.Namespace) -> CreateTable:
    seat, bridges = parse_handicap(args.handicap)
    form = CreateForm(
        vs_computer=True,
        seat=args.seat,
        first=args.first,
        variant1=args.variant1,
        variant2=args.variant2,
        handicap_seat="white" if seat == "white" else "black" if seat == "black" else None,
        handicap_bridges=bridges,
        clock=parse_control(args.clock),
        level=args.level,
        hints=not args.no_hints,
    )
    return form.message()


async def run_client(
    args: argparse.Namespace,
    *,
    input: Input | None = None,
    output: Output | None = None,
    state: ClientState | None = None,
) -> int:
    state = state or ClientState()
    state.name = args.name
    server = None
    urls = server_urls(args.urls)
    people = state.accounts
    color = color_depth_for(args.no_color)
    if not args.urls and not args.local:
        # no address: the server on this machine, else one picked from the LAN's
        from client.screens import picker

        picked = await picker.choose_server(
            urls[0],
            args.lan_interface,
            server_url,
            input=input,
            output=output,
            color_depth=color,
            theme=args.theme or theme_from_env(os.environ),
        )
        if isinstance(picked, int):
            return picked  # the player quit
        urls = [picked]
    ssl_context = tls_contexts(args, urls)
    if args.local:
        from client.net.local_server import LocalServer  # the server's code only when it is run

        server = LocalServer(args.computer_delay)
        urls = [await server.start()]
    # what the login token is kept under: the server's first address, whichever serves
    key = urls[0]
    known = ServiceAddresses()
    if not args.local:  # the addresses the server named last time (a standby's) join the round
        urls = [*urls, *(u for u in known.get(key) if u not in urls)]
    if args.spectate:
        state.table_id, state.role, state.screen = args.spectate, "spectator", "game"
    if not args.local:
        state.form = load_form()
        state.keep_form = keep_form
        tokens = LoginTokens()
        kept = tokens.get(key)
        account = getattr(args, "register", None) or getattr(args, "login", None)
        if account:
            people.login_name, people.register = account, bool(getattr(args, "register", None))
            people.login_password = getattr(args, "password", None)
            state.name = account
        elif kept is not None:
            people.login_name, people.login_token = kept
            state.name = kept[0]

        def keep_token(name: str, token: str | None) -> None:
            tokens.keep(key, name, token)

        people.keep_token = keep_token
    auto_create = local_table(args) if args.local else None

    def on_message(msg: ServerMessage) -> None:
        nonlocal auto_create
        if isinstance(msg, Welcome) and not args.local and msg.servers:
            known.keep(key, [u for u in msg.servers if u.startswith(("ws://", "wss://"))])
        if isinstance(msg, Welcome) and auto_create is not None and state.table_id is None:
            client.send(auto_create)
            auto_create = None
            state.say("Starting a game against the computer...")

    client = Client(
        urls,
        state,
        input=input,
        output=output,
        color_depth=color,
        on_message=on_message,
        save_dir=Path.cwd(),
        seats=None if args.local else SeatStore(),
        theme=args.theme or theme_from_env(os.environ),
        ssl_context=ssl_context,
        quiet=getattr(args, "quiet", False),
    )
    # SIGTERM and SIGHUP (the terminal closed) end the program the way Ctrl-Q does: the
    # application leaves the alternate screen and shows the cursor again on its way out
    loop = asyncio.get_running_loop()
    signalled: list[int] = []

    def on_signal(signum: int) -> None:
        signalled.append(signum)
        client.ui.quit()

    handled = []
    for signum in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, on_signal, signum)
            handled.append(signum)
    try:
        await client.run()
    finally:
        for signum in handled:
            loop.remove_signal_handler(signum)
        if server is not None:
            await server.stop()
    session = client.session
    if session.fatal:
        print(f"kahuna-client: {session.fatal}", file=sys.stderr)
        return 1
    if signalled:
        return 128 + signalled[0]
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    # the language first: the parser's help and errors are said in it
    set_language(choose_language(language_asked(given)))
    speak_to_argparse()
    parser = build_parser()
    args = parser.parse_args(given)
    if args.find:
        from client.net.discovery import find_main

        return find_main(args.lan_interface)
    if args.analyse:
        from client.screens.analysis_view import analyse_main

        return analyse_main(args.analyse, args.plain, args.deep)
    if args.replay or args.tutorial:
        from client.screens.replay import replay_main
        from client.screens.tutorial import tutorial_main

        theme = args.theme or theme_from_env(os.environ)
        if args.replay:
            return replay_main(args.replay, no_color=args.no_color, theme=theme)
        return tutorial_main(no_color=args.no_color, theme=theme)
    try:
        parse_handicap(args.handicap)
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    try:
        parse_control(args.clock)
    except ValueError as exc:
        parser.error(f"--clock: {exc}")
    args.name = args.name.strip()
    if not 1 <= len(args.name) <= 32 or not args.name.isprintable():
        parser.error(_("--name takes 1 to 32 printable characters"))
    try:
        tls_contexts(args, server_urls(args.urls))
    except AddressError as exc:
        parser.error(str(exc))
    if args.register or args.login:
        args.password = os.environ.get(PASSWORD_ENV)
        if args.password is None:
            try:
                args.password = getpass.getpass(
                    _("Password for {name}: ").format(name=args.register or args.login)
                )
                if args.register and getpass.getpass(_("Again: ")) != args.password:
                    parser.error(_("the two passwords differ"))
            except (EOFError, KeyboardInterrupt):
                return 130
    if not_a_terminal():
        return 2
    root = logging.getLogger()
    if args.log:
        logging.basicConfig(filename=args.log, level=logging.DEBUG)
    else:
        root.addHandler(logging.NullHandler())  # nothing may write over the full-screen display
        root.setLevel(logging.CRITICAL)
    try:
        return asyncio.run(run_client(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
