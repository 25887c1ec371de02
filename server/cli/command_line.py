"""kahuna-server's command line, made from the settings its records declare (see
server/core/settings.py): the argument parser, --help, and --config FILE, a TOML file whose keys are
the settings' long options."""

from __future__ import annotations

import argparse
import textwrap
import tomllib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from server.core.settings import Kind, Setting, SettingError, settings_of

T = TypeVar("T")


class AppendReplacing(argparse.Action):
    """Like action="append", except that the values given on the command line replace the
    default (the one the --config file gave) instead of adding to it."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        given = f"_{self.dest}_given"
        items = (
            list(getattr(namespace, self.dest) or []) if getattr(namespace, given, False) else []
        )
        setattr(namespace, self.dest, [*items, values])
        setattr(namespace, given, True)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Each option's default, when it has one that says something, and the description and
    epilog as they are written."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.nargs == 0 or action.default in (None, ()):
            return action.help
        return super()._get_help_string(action)


class SettingsParser(argparse.ArgumentParser):
    """An argument parser with an option for each setting of the records given, in their order
    (those of a group in that section of --help), and --config FILE."""

    def __init__(
        self,
        *records: type,
        program_defaults: Mapping[str, Callable[[], object]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(formatter_class=HelpFormatter, **kwargs)
        defaults = program_defaults or {}
        self.add_argument(
            "--config",
            metavar="FILE",
            help="read the options from FILE, a TOML file (its keys are below); flags given as"
            " well override it",
        )
        self.settings: dict[str, Setting] = {}  # by --config key
        groups: dict[str, argparse._ArgumentGroup] = {}
        for record in records:
            for setting in settings_of(record):
                group = setting.option.group
                if group is not None and group not in groups:
                    groups[group] = self.add_argument_group(group)
                _add_option(self if group is None else groups[group], setting, defaults)
                self.settings[setting.key] = setting
        self.epilog = config_help(list(self.settings))

    def parse_with_config(self, argv: Sequence[str] | None = None) -> argparse.Namespace:
        """The options: --config FILE's, with the flags given over them."""
        pre = argparse.ArgumentParser(add_help=False)
        pre.add_argument("--config")
        known, _ = pre.parse_known_args(argv)
        if known.config:
            try:
                self.set_defaults(**read_config(known.config, self.settings))
            except ValueError as exc:
                self.error(str(exc))
        return self.parse_args(argv)


def _add_option(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    setting: Setting,
    program_defaults: Mapping[str, Callable[[], object]],
) -> None:
    how = setting.option
    given: dict[str, Any] = {"dest": setting.name, "help": how.help}
    if setting.kind == "flag":
        parser.add_argument(setting.flag, action="store_false", default=True, **given)
        return
    if how.parse is not None:
        given["type"] = _shown(how.parse)
    parser.add_argument(
        setting.flag,
        choices=how.choices,
        metavar=how.metavar or _metavar(setting),
        action=AppendReplacing if setting.kind == "list" else "store",
        default=setting.program_default(program_defaults),
        **given,
    )


def _metavar(setting: Setting) -> str | None:
    """The flag's name in capitals (argparse would take the field's), or the choices."""
    if setting.option.choices is not None:
        return None
    return setting.key.replace("-", "_").upper()


CONFIG_EXAMPLE = """\
    name = "Kahuna club"
    port = 8765
    db = "/var/lib/kahuna/server.sqlite3"
    records = "/var/lib/kahuna/records"
    lan-interface = ["192.168.1.20"]
    max-tables = 200

    [mail]
    host = "smtp.example.org"
    user = "kahuna"
    password-file = "/etc/kahuna/smtp-password"
    from = "kahuna@example.org"
    url = "https://kahuna.example.org"
"""


def config_help(keys: list[str]) -> str:
    return (
        "--config FILE reads the options from a TOML file; flags given as well override it.\n"
        "Each key is a long option's name, with dashes or underscores (max-tables or\n"
        "max_tables), and takes the option's value: a string, a number, true for a flag\n"
        "without a value, a list of addresses for lan-interface; the mail options go in a\n"
        "[mail] table, without their mail- prefix. For example:\n\n"
        f"{CONFIG_EXAMPLE}\n"
        + textwrap.fill(f"The keys: {', '.join(keys)}.", 80, break_on_hyphens=False)
        + "\n"
    )


KIND_WORDS: dict[Kind, str] = {
    "flag": "true or false",
    "list": "a list of strings",
    "int": "a whole number",
    "float": "a number",
    "str": "a string",
}
TOML_TYPES = {
    bool: "a boolean",
    int: "a whole number",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "a table",
}


def _toml_type(value: object) -> str:
    return TOML_TYPES.get(type(value), type(value).__name__)


def _fits(kind: Kind, value: object) -> bool:
    if kind == "flag":
        return isinstance(value, bool)
    if kind == "list":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, str)


def _convert(setting: Setting, value: object) -> object:
    """The option's value for a TOML value; ValueError says why it cannot be."""
    if not _fits(setting.kind, value):
        raise ValueError(f"must be {KIND_WORDS[setting.kind]}, not {_toml_type(value)} ({value!r})")
    if setting.kind == "flag":
        return not value  # the key is the flag's name: no-announce = true turns it off
    how = setting.option
    converted = []
    for item in value if isinstance(value, list) else [value]:
        if how.choices is not None and item not in how.choices:
            raise ValueError(f"{item!r} is not one of {', '.join(map(repr, how.choices))}")
        if how.parse is not None:
            try:
                item = how.parse(str(item))
            except ValueError as exc:  # a SettingError among them
                raise ValueError(str(exc)) from None
        converted.append(item)
    return converted if setting.kind == "list" else converted[0]


def read_config(path: str, settings: dict[str, Setting]) -> dict[str, object]:
    """The settings a TOML file gives, by name. ValueError names the file and, for a key that
    is no setting's or a value the setting does not take, the key."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise ValueError(f"--config {path}: cannot read it: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"--config {path}: not a TOML file: {exc}") from None
    values: dict[str, object] = {}
    for key, value in _sections(data):
        setting = settings.get(key.replace("_", "-"))
        if setting is None:
            raise ValueError(
                f"--config {path}: unknown key {key!r}; the keys are the long options' names"
                " (kahuna-server --help lists them)"
            )
        if setting.name in values:
            raise ValueError(f"--config {path}: {key!r} is given twice")
        try:
            values[setting.name] = _convert(setting, value)
        except ValueError as exc:
            joint = " " if str(exc).startswith("must ") else ": "
            raise ValueError(f"--config {path}: {key!r}{joint}{exc}") from None
    return values


# The tables a --config file may hold: [mail] host = "..." is mail-host = "...".
SECTIONS = ("mail",)


def _sections(data: dict[str, object]) -> list[tuple[str, object]]:
    """The file's keys and values, a section's keys named with its prefix."""
    found: list[tuple[str, object]] = []
    for key, value in data.items():
        if key in SECTIONS and isinstance(value, dict):
            found.extend((f"{key}-{inner}", inner_value) for inner, inner_value in value.items())
        else:  # another table is an unknown key
            found.append((key, value))
    return found


def _shown(parse: Callable[[str], object]) -> Callable[[str], object]:
    """The parse of a setting as argparse's `type`: its SettingError's message is shown (a
    plain ValueError would be said as "invalid value")."""

    def parsed(text: str) -> object:
        try:
            return parse(text)
        except SettingError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parsed.__name__ = getattr(parse, "__name__", "value")
    return parsed


def record_from(record: type[T], args: argparse.Namespace) -> T:
    """The record with the values of its settings in args (the others keep their defaults)."""
    values = {s.name: s.value(getattr(args, s.name)) for s in settings_of(record)}
    return record(**values)
