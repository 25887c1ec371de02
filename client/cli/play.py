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
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from prompt_toolkit.input import Input
from prompt_toolkit.output import ColorDepth, Output

from client.cli.options import build_parser, default_name
from client.cli.pipes import until_the_reader_leaves
from client.cli.run import Client
from client.files.form_store import keep_form, load_form
from client.files.login_tokens import LoginTokens
from client.files.seats import SeatStore
from client.files.service_addresses import ServiceAddresses
from client.language.i18n import (
    _,
    choose_language,
    language_asked,
    set_language,
    speak_to_argparse,
)
from client.model.lobby_commands import PASSWORD_ENV
from client.model.state import ClientState
from client.model.table import parse_control
from client.model.table_form import CreateForm
from client.screens.screen import color_depth_for, not_a_terminal
from protocol.fields import DEFAULT_PORT
from protocol.messages import CreateTable, ServerMessage, Welcome


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


def log_in(args: argparse.Namespace, state: ClientState, key: str) -> None:
    """The account to log in to: --register's or --login's, else the one whose token this
    machine keeps for the server (key: its first address); and where a new token is kept."""
    people = state.accounts
    tokens = LoginTokens()
    kept = tokens.get(key)
    account = getattr(args, "register", None) or getattr(args, "login", None)
    if account:
        people.login_name, people.register = account, bool(getattr(args, "register", None))
        people.login_password = getattr(args, "password", None)
        state.name = account
    elif kept is not None:
        people.login_name, people.login_token = kept
        if args.name != default_name():  # a --name given: the kept account's login says so
            people.name_asked = args.name
        state.name = kept[0]

    def keep_token(name: str, token: str | None) -> None:
        tokens.keep(key, name, token)

    people.keep_token = keep_token


async def server_addresses(
    args: argparse.Namespace,
    input: Input | None,
    output: Output | None,
    color: ColorDepth | None,
) -> list[str] | int:
    """The addresses given; with none (and no --local), this machine's server, else one the
    player picks from the LAN's (an exit status: the player quit the picker)."""
    urls = server_urls(args.urls)
    if args.urls or args.local:
        return urls
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
    return picked if isinstance(picked, int) else [picked]


@contextlib.contextmanager
def quit_on_signals(quit: Callable[[], None]) -> Iterator[list[int]]:
    """SIGTERM and SIGHUP (the terminal closed) end the program the way Ctrl-Q does (quit): the
    application leaves the alternate screen and shows the cursor again on its way out. Gives
    the list of the signals received."""
    loop = asyncio.get_running_loop()
    signalled: list[int] = []

    def on_signal(signum: int) -> None:
        signalled.append(signum)
        quit()

    handled = []
    for signum in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, on_signal, signum)
            handled.append(signum)
    try:
        yield signalled
    finally:
        for signum in handled:
            loop.remove_signal_handler(signum)


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
    color = color_depth_for(args.no_color)
    urls = await server_addresses(args, input, output, color)
    if isinstance(urls, int):
        return urls  # the player quit the picker
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
        log_in(args, state, key)
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
    try:
        with quit_on_signals(lambda: client.ui.quit()) as signalled:
            await client.run()
    finally:
        if server is not None:
            await server.stop()
    session = client.session
    if session.fatal:
        print(f"kahuna-client: {session.fatal}", file=sys.stderr)
        return 1
    if signalled:
        return 128 + signalled[0]
    return 0


# The options that connect to no server: an address given beside them is a mistake (a second
# record after --analyse's first was once taken for a server's address and silently left out)
OFFLINE = ("--analyse", "--replay", "--tutorial", "--find")


def left_over(option: str, text: str) -> str:
    """The refusal of an address given with an option of OFFLINE."""
    if option == "--analyse":
        return _(
            "--analyse connects to no server, so {text} is not an address: give every record"
            " right after --analyse, e.g. --analyse A.kahuna B.kahuna"
        ).format(text=repr(text))
    return _("{option} connects to no server: {text} is one argument too many").format(
        option=option, text=repr(text)
    )


def analyse_all(paths: Sequence[str], plain: bool, deep: bool) -> int:
    """Each record analysed in turn, under its name when there are several (as head and tail
    name their files); 1 when any of them could not be read."""
    from client.screens.analysis_view import analyse_main

    status = 0
    for number, path in enumerate(paths):
        if len(paths) > 1:
            if number:
                print()
            print(f"==> {path} <==", flush=True)  # before a refusal on stderr, or the bar
        status = max(status, analyse_main(path, plain, deep))
    return status


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    # the language first: the parser's help and errors are said in it
    set_language(choose_language(language_asked(given)))
    speak_to_argparse()
    parser = build_parser()
    args = parser.parse_args(given)
    offline = next((flag for flag in OFFLINE if getattr(args, flag.removeprefix("--"))), None)
    if offline is not None and args.urls:
        parser.error(left_over(offline, args.urls[0]))
    if args.find:
        from client.net.discovery import find_main

        return until_the_reader_leaves(lambda: find_main(args.lan_interface))
    if args.analyse:
        return until_the_reader_leaves(lambda: analyse_all(args.analyse, args.plain, args.deep))
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
