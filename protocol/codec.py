"""The one msgpack codec for every message.

encode(msg, version) -> bytes. decode_client / decode_server / decode(data, version) -> message,
or raise ProtocolError with a stable code; no other exception ever leaves the decoders. Decoding
is strict: the frame must be binary, within the size limit, one msgpack map with a known "type"
and exactly the message's fields, each of its declared type. Every version-1 field is required on
the wire; "or nil" fields must be present and may be nil.

Versions: a field added in a version (messages.since) is left out when encoding for an older
peer and refused from one as an extra field; from a peer of that version or newer it may be
absent (its default). A message type added in a version (messages.MESSAGE_SINCE) is unknown to
older ones. A value a later version added to a field (fields.VALUES_SINCE) is refused from an
older peer, and encoding it for one is a ValueError, as a newer message type is: the sender
leaves such a message out for that peer.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Any, Literal

import attrs
import msgpack

from protocol.compat import for_version
from protocol.errors import ErrorCode, ProtocolError
from protocol.fields import PROTOCOL_VERSION, SINCE, VALUES_SINCE
from protocol.messages import (
    ALL_TYPES,
    CLIENT_TYPES,
    MESSAGE_SINCE,
    SERVER_TYPES,
    ClientMessage,
    Message,
    ServerMessage,
)

DEFAULT_MAX_FRAME = 16 * 1024  # what a server accepts from a client: client messages are small
CLIENT_MAX_FRAME = 4 * 1024 * 1024  # what a client should accept from a server

Checker = Callable[[Any, str, int], Any]
_NOT_GIVEN = object()
# per message class: (name, check, the version that added it, its default)
_SPECS: dict[type[Any], tuple[tuple[str, Checker, int, Any], ...]] = {}
_NAMES: dict[tuple[type[Any], int], frozenset[str]] = {}  # the fields a version has


def _bad(path: str, expected: str, value: Any) -> ProtocolError:
    got = "nil" if value is None else type(value).__name__
    return ProtocolError(ErrorCode.BAD_FIELD, f"{path} must be {expected}, not {got}")


def _check_int(value: Any, path: str, version: int) -> int:
    if type(value) is not int:
        raise _bad(path, "an integer", value)
    return value


def _check_str(value: Any, path: str, version: int) -> str:
    if type(value) is not str:
        raise _bad(path, "a string", value)
    return value


def _check_float(value: Any, path: str, version: int) -> float:
    # msgpack gives an integer for a float with no fraction from some encoders
    if type(value) is int:
        return float(value)
    if type(value) is not float:
        raise _bad(path, "a number", value)
    return value


def _check_bool(value: Any, path: str, version: int) -> bool:
    if type(value) is not bool:
        raise _bad(path, "true or false", value)
    return value


def _check_map(value: Any, path: str, version: int) -> dict[str, Any]:
    if type(value) is not dict or not all(type(k) is str for k in value):
        raise _bad(path, "a map with string keys", value)
    return value


def _checker(tp: Any) -> Checker:
    """A function that checks (and for nested records, builds) a value of this type."""
    if tp is int:
        return _check_int
    if tp is str:
        return _check_str
    if tp is bool:
        return _check_bool
    if tp is float:
        return _check_float
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is dict:
        return _check_map
    if origin is Literal:
        allowed = args

        def check_literal(value: Any, path: str, version: int) -> Any:
            if type(value) is not str or value not in allowed:
                choices = ", ".join(repr(a) for a in allowed)
                raise ProtocolError(ErrorCode.BAD_FIELD, f"{path} must be one of {choices}")
            return value

        return check_literal
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1 or len(args) != 2:
            raise TypeError(f"unsupported union {tp!r}")
        inner = _checker(rest[0])

        def check_optional(value: Any, path: str, version: int) -> Any:
            return None if value is None else inner(value, path, version)

        return check_optional
    if origin is list:
        item = _checker(args[0])

        def check_list(value: Any, path: str, version: int) -> list[Any]:
            if type(value) is not list:
                raise _bad(path, "an array", value)
            return [item(v, f"{path}[{i}]", version) for i, v in enumerate(value)]

        return check_list
    if isinstance(tp, type) and attrs.has(tp):
        record = tp

        def check_record(value: Any, path: str, version: int) -> Any:
            if type(value) is not dict:
                raise _bad(path, f"a map ({record.__name__})", value)
            return _build(record, value, path + ".", version)

        return check_record
    raise TypeError(f"unsupported field type {tp!r}")


def _spec(cls: type[Any]) -> tuple[tuple[str, Checker, int, Any], ...]:
    spec = _SPECS.get(cls)
    if spec is None:
        hints = typing.get_type_hints(cls)
        spec = tuple(
            (
                f.name,
                _versioned_values(_checker(hints[f.name]), hints[f.name], f.metadata),
                f.metadata.get(SINCE, 1),
                _NOT_GIVEN if f.default is attrs.NOTHING else f.default,
            )
            for f in attrs.fields(cls)
        )
        _SPECS[cls] = spec
    return spec


def _versioned_values(check: Checker, tp: Any, metadata: Any) -> Checker:
    """The check, refusing from an older peer a value its version does not have."""
    newer: dict[str, int] | None = metadata.get(VALUES_SINCE)
    if not newer:
        return check

    def check_version(value: Any, path: str, version: int) -> Any:
        value = check(value, path, version)
        if newer.get(value, 1) > version:
            known = [a for a in typing.get_args(tp) if newer.get(a, 1) <= version]
            choices = ", ".join(repr(a) for a in known)
            raise ProtocolError(ErrorCode.BAD_FIELD, f"{path} must be one of {choices}")
        return value

    return check_version


def _build(
    cls: type[Any], data: dict[Any, Any], prefix: str, version: int, skip: str | None = None
) -> Any:
    spec = _spec(cls)
    names = _NAMES.get((cls, version))
    if names is None:
        names = _NAMES[cls, version] = frozenset(n for n, _, since, _ in spec if since <= version)
    for key in data:
        if key != skip and key not in names:
            shown = key if type(key) is str else repr(key)
            raise ProtocolError(ErrorCode.EXTRA_FIELD, f"{prefix}{shown} is not a field here")
    values: dict[str, Any] = {}
    for name, check, since, default in spec:
        if since > version:
            continue  # the peer's version does not have it: the default
        if name not in data:
            if since > 1 and default is not _NOT_GIVEN:
                continue
            raise ProtocolError(ErrorCode.MISSING_FIELD, f"{prefix}{name} is missing")
        values[name] = check(data[name], prefix + name, version)
    return cls(**values)


# ----- encoding -----------------------------------------------------------------------------


def _plain(value: Any, version: int) -> Any:
    if attrs.has(type(value)):
        return {
            f.name: _plain(getattr(value, f.name), version)
            for f in attrs.fields(type(value))
            if f.metadata.get(SINCE, 1) <= version
        }
    if type(value) is list or type(value) is tuple:
        return [_plain(v, version) for v in value]
    return value


_PLAIN_FIELDS: dict[type[Any], tuple[tuple[str, bool, int], ...]] = {}


def _fields(cls: type[Any]) -> tuple[tuple[str, bool, int], ...]:
    """The field names of a message, each with whether it may hold records (needs a walk) and
    the version that added it."""
    fields = _PLAIN_FIELDS.get(cls)
    if fields is None:
        hints = typing.get_type_hints(cls)
        fields = tuple(
            (f.name, _holds_records(hints[f.name]), f.metadata.get(SINCE, 1))
            for f in attrs.fields(cls)
        )
        _PLAIN_FIELDS[cls] = fields
    return fields


def _holds_records(tp: Any) -> bool:
    if isinstance(tp, type) and attrs.has(tp):
        return True
    return any(_holds_records(arg) for arg in typing.get_args(tp))


_VALUE_MARKS: dict[type[Any], tuple[tuple[str, dict[str, int]], ...]] = {}


def _value_marks(cls: type[Any]) -> tuple[tuple[str, dict[str, int]], ...]:
    """The fields of a message with values newer than the field, and their versions."""
    marks = _VALUE_MARKS.get(cls)
    if marks is None:
        marks = _VALUE_MARKS[cls] = tuple(
            (f.name, f.metadata[VALUES_SINCE])
            for f in attrs.fields(cls)
            if f.metadata.get(VALUES_SINCE)
        )
    return marks


def to_wire(message: Message, version: int = PROTOCOL_VERSION) -> dict[str, Any]:
    """The plain map a message is sent as to a peer of this protocol version."""
    if MESSAGE_SINCE.get(message.TYPE, 1) > version:
        raise ValueError(f"{message.TYPE} does not exist in protocol version {version}")
    for name, newer in _value_marks(type(message)):
        value = getattr(message, name)
        if newer.get(value, 1) > version:
            raise ValueError(f"{message.TYPE} {name} {value!r} is not in version {version}")
    message = for_version(message, version)
    out: dict[str, Any] = {"type": message.TYPE}
    for name, walk, since in _fields(type(message)):
        if since > version:
            continue
        value = getattr(message, name)
        out[name] = _plain(value, version) if walk else value
    return out


def encode(message: Message, version: int = PROTOCOL_VERSION) -> bytes:
    """The bytes of one binary frame for a peer of this protocol version."""
    packed: bytes = msgpack.packb(to_wire(message, version), use_bin_type=True)
    return packed


# ----- decoding -----------------------------------------------------------------------------


def _decode(data: Any, max_size: int | None, accepted: dict[str, type[Any]], version: int) -> Any:
    try:
        if isinstance(data, str):
            raise ProtocolError(ErrorCode.TEXT_FRAME, "send binary frames holding msgpack")
        if not isinstance(data, bytes | bytearray | memoryview):
            raise ProtocolError(ErrorCode.BAD_MSGPACK, "a frame is bytes")
        if max_size is not None and len(data) > max_size:
            raise ProtocolError(
                ErrorCode.FRAME_TOO_LARGE, f"{len(data)} bytes; at most {max_size} are accepted"
            )
        try:
            raw = msgpack.unpackb(bytes(data), raw=False, strict_map_key=False, use_list=True)
        except Exception as exc:
            reason = type(exc).__name__
            raise ProtocolError(ErrorCode.BAD_MSGPACK, f"not msgpack: {reason}") from None
        if type(raw) is not dict:
            raise ProtocolError(ErrorCode.NOT_A_MAP, "a message is a msgpack map")
        kind = raw.get("type")
        if type(kind) is not str:
            raise ProtocolError(ErrorCode.MISSING_TYPE, "a message has a string 'type'")
        cls = accepted.get(kind)
        if cls is None or MESSAGE_SINCE.get(kind, 1) > version:
            shown = kind if len(kind) <= 40 else kind[:40] + "..."
            raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"no message type {shown!r}")
        return _build(cls, raw, "", version, skip="type")
    except ProtocolError:
        raise
    except Exception as exc:  # a bug in the checks must not become a crash of the caller
        raise ProtocolError(ErrorCode.BAD_FIELD, f"undecodable message: {exc!r}") from None


def decode_client(
    data: Any, max_size: int | None = DEFAULT_MAX_FRAME, version: int = PROTOCOL_VERSION
) -> ClientMessage:
    """A message a client of this protocol version may send (what the server decodes); raises
    only ProtocolError."""
    message: ClientMessage = _decode(data, max_size, CLIENT_TYPES, version)
    return message


def decode_server(
    data: Any, max_size: int | None = CLIENT_MAX_FRAME, version: int = PROTOCOL_VERSION
) -> ServerMessage:
    """A message the server may send to a client of this version; raises only ProtocolError."""
    message: ServerMessage = _decode(data, max_size, SERVER_TYPES, version)
    return message


def decode(data: Any, max_size: int | None = None, version: int = PROTOCOL_VERSION) -> Message:
    """Any message of either direction; raises only ProtocolError."""
    message: Message = _decode(data, max_size, ALL_TYPES, version)
    return message


def peek_type(data: Any) -> str | None:
    """The 'type' of a frame if it has one, for error replies; never raises."""
    try:
        raw = msgpack.unpackb(bytes(data), raw=False, strict_map_key=False)
        kind = raw.get("type") if type(raw) is dict else None
        return kind if type(kind) is str and len(kind) <= 40 else None
    except Exception:
        return None
