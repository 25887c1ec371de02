"""A setting is declared once: as a field of an attrs record whose metadata holds its Option
(made with `option` or `limit`). The field gives the name, the type and the default; the Option
gives the flag, the help and how a value's text reads. server/cli/command_line.py makes the command
line, --help and the --config file's keys from these declarations; nothing here parses a command
line, so that the core, which reads the config, has no argparse (nor urllib) in its imports."""

from __future__ import annotations

import ipaddress
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar

import attrs

T = TypeVar("T")

# What a setting's value is, in a --config file as on the command line: a flag takes no value,
# a list is a repeatable option.
Kind = Literal["flag", "list", "int", "float", "str"]

_METADATA_KEY = "kahuna.option"


@attrs.frozen
class Option:
    """How a field is set from outside the program."""

    help: str
    parse: Callable[[str], Any] | None = None  # a value from its text; SettingError if not
    flag: str | None = None  # default: --NAME, dashes for underscores (a bool field: --no-NAME)
    metavar: str | None = None  # default: the flag's name in capitals
    choices: tuple[str, ...] | None = None
    group: str | None = None  # the section of --help; None: the first


def option(default: T, help: str, parse: Callable[[str], Any] | None = None, **how: Any) -> T:
    """A field that is also an option (see Option for `how`)."""
    return attrs.field(default=default, metadata={_METADATA_KEY: Option(help, parse, **how)})


def limit(default: T, parse: Callable[[str], Any], help: str) -> T:
    """A field that is an option in the "limits" section of --help."""
    return option(default, help, parse, group="limits")


@attrs.frozen
class Setting:
    """A declared field as the command line and a --config file see it. A bool field is on when
    the program runs and its flag, --no-NAME, turns it off; a field that may be None is None
    when given 0 or "" (--ping-interval 0: no pings)."""

    name: str  # the field's, and the argparse destination
    option: Option
    kind: Kind
    optional: bool
    default: object  # the field's

    def program_default(self, given: Mapping[str, Callable[[], object]]) -> object:
        """Its value when the program is given none: the program's own default for it, from
        `given` (by field name), else the field's."""
        if self.kind == "flag":
            return True
        if self.name in given:
            return given[self.name]()
        return self.default

    @property
    def flag(self) -> str:
        if self.option.flag is not None:
            return self.option.flag
        dashed = self.name.replace("_", "-")
        return f"--no-{dashed}" if self.kind == "flag" else f"--{dashed}"

    @property
    def key(self) -> str:
        """Its key in a --config file (where underscores do as well as dashes)."""
        return self.flag.removeprefix("--")

    def value(self, given: Any) -> object:
        """The field's value for the value given as an option."""
        if self.optional and not given:
            return None
        if self.kind == "list":
            return tuple(given or ())
        return given


def settings_of(record: type) -> tuple[Setting, ...]:
    """The settings an attrs record declares, in the order of its fields."""
    hints = typing.get_type_hints(record)
    found = []
    for field in attrs.fields(record):
        declared = field.metadata.get(_METADATA_KEY)
        if isinstance(declared, Option):
            kind, optional = _kind(hints[field.name])
            found.append(Setting(field.name, declared, kind, optional, field.default))
    return tuple(found)


def _kind(hint: Any) -> tuple[Kind, bool]:
    """A field type's Kind, and whether it may be None."""
    optional = False
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        parts = [part for part in typing.get_args(hint) if part is not type(None)]
        optional, hint = len(parts) < len(typing.get_args(hint)), parts[0]
    base = typing.get_origin(hint) or hint
    kinds: dict[Any, Kind] = {bool: "flag", int: "int", float: "float", tuple: "list"}
    return kinds.get(base, "str"), optional


class SettingError(ValueError):
    """A value's text that is no value of its setting; the message says what one is. The
    command line (server/cli/command_line.py) and a --config file's reader show it."""


# How options' values read. Each takes the text given and raises SettingError when it is no
# such value.


def port_number(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise SettingError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise SettingError("a port is a number from 0 to 65535")
    return port


def _number(kind: type[float] | type[int], least: float, what: str) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            noun = "a whole number" if kind is int else "a number"
            raise SettingError(f"{text!r} is not {noun}") from None
        if value != value or value in (float("inf"), float("-inf")) or value < least:
            raise SettingError(f"{text!r}: {what}")
        return value

    return parse


positive_int = _number(int, 1, "must be 1 or more")
natural_int = _number(int, 0, "must be 0 or more")
positive_float = _number(float, 1e-9, "must be more than 0")
natural_float = _number(float, 0, "must be 0 or more")


def ip_address(text: str) -> str:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        raise SettingError(f"{text!r} is not an IP address") from None


@attrs.frozen
class UrlParts:
    """What urllib.parse.urlsplit makes of SCHEME://[USER@]HOST[:PORT][PATH][?QUERY][#FRAGMENT],
    for the two settings that are URLs."""

    scheme: str  # lower-case
    username: str | None
    hostname: str | None  # lower-case; an IPv6 address without its brackets
    port: int | None
    path: str
    query: str
    fragment: str


_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?\Z", re.S)


def url_parts(text: str) -> UrlParts:
    """The parts of a URL with an authority, as urlsplit gives them (written out here, since
    urllib is not among the core's imports). ValueError for a text that is no such URL, a bad
    port, an unpaired bracket or a bracketed host that is no IPv6 address."""
    found = _URL.match(text)
    if found is None:
        raise ValueError(f"{text!r} is not a URL")
    scheme, netloc, path, query, fragment = found.groups()
    user, at, hostport = netloc.rpartition("@")
    if hostport.startswith("["):
        host, bracket, rest = hostport[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            raise ValueError(f"{text!r}: a bracket without its pair")
        ipaddress.IPv6Address(host)  # ValueError
        port_text = rest[1:]
    else:
        if "[" in hostport or "]" in hostport:
            raise ValueError(f"{text!r}: a bracket without its pair")
        host, _, port_text = hostport.partition(":")
    if not host.isprintable() or " " in host:
        raise ValueError(f"{text!r}: the host is no host's name")
    port = None
    if port_text:
        if not (port_text.isascii() and port_text.isdigit()) or int(port_text) > 65535:
            raise ValueError(f"{text!r}: no port")
        port = int(port_text)
    username = user.partition(":")[0] if at else None
    hostname = host.lower() or None
    return UrlParts(scheme.lower(), username, hostname, port, path, query or "", fragment or "")


def service_address(text: str) -> str:
    """An address clients reach the service at: ws://HOST:PORT or wss://HOST:PORT."""
    url = text.strip()
    try:
        parts = url_parts(url)
        port = parts.port
    except ValueError:
        parts, port = None, None
    if parts is None or parts.scheme not in ("ws", "wss") or not parts.hostname or port is None:
        raise SettingError(
            f"{text!r} is not an address clients can reach: ws://HOST:PORT or wss://HOST:PORT"
        )
    return url


def web_origin(text: str) -> str:
    """A web site's origin as a browser names it in the Origin header: http(s)://HOST[:PORT],
    lower-cased, without a default port."""
    try:
        parts: UrlParts | None = url_parts(text.strip())
    except ValueError:  # not a URL, a bad port, a bracket without its pair
        parts = None
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username is not None
    ):
        raise SettingError(
            f"{text!r} is not a web site's origin: http://HOST[:PORT] or https://HOST[:PORT]"
        )
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    default = {"http": 80, "https": 443}[parts.scheme]
    port = parts.port
    return f"{parts.scheme}://{host}" + ("" if port in (None, default) else f":{port}")


NAME_MAX = 63  # bytes of UTF-8: the name is also the server's DNS-SD instance name on the LAN


def instance_name(text: str) -> str:
    """A server's name."""
    name = text.strip()
    if not name or not name.isprintable() or len(name.encode()) > NAME_MAX:
        raise SettingError(f"{text!r}: a name is 1 to {NAME_MAX} printable bytes")
    return name


# An e-mail address as the server takes it: one @, a local part and a domain, no
# spaces or controls, 254 characters at most (RFC 5321's limit of a path). It is not a full
# RFC 5322 parser on purpose: a confirmation mail is the real test.
_MAIL = re.compile(r"[^@\s]{1,64}@[^@\s.]+(\.[^@\s.]+)*\Z")


def mail_address(text: str) -> str:
    """An e-mail address (see _MAIL)."""
    address = text.strip()
    if len(address) > 254 or not address.isprintable() or _MAIL.match(address) is None:
        raise SettingError(f"{text!r} is not an e-mail address")
    return address
