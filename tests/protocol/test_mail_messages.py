"""Version 4's e-mail messages (protocol/mail_messages.py): samples for the codec's round trips
(tests/protocol/test_codec.py takes them), and that they exist in version 4 only."""

from __future__ import annotations

from typing import Any

import pytest

from protocol.codec import decode_client, encode
from protocol.errors import ErrorCode, ProtocolError
from protocol.mail_messages import (
    ConfirmEmail,
    ForgotPassword,
    GetMailSettings,
    MailNote,
    MailSettings,
    ResetPassword,
    SetEmail,
    SetMailSettings,
)

MAIL_CLIENT_SAMPLES: list[Any] = [
    SetEmail("ann@example.org"),
    SetEmail(None),
    ConfirmEmail("abc"),
    GetMailSettings(),
    SetMailSettings("de", ["turn", "challenge"], ["clock"]),
    SetMailSettings(),
    ForgotPassword("Ann"),
    ResetPassword("abc", "correct horse battery"),
]
MAIL_SERVER_SAMPLES: list[Any] = [
    MailSettings("ann@example.org", None, "en", ["turn", "clock"]),
    MailSettings(None, "new@example.org", "it", []),
    MailNote("reset_sent"),
    MailNote("password_reset"),
]


@pytest.mark.parametrize("message", MAIL_CLIENT_SAMPLES[:1] + MAIL_CLIENT_SAMPLES[4:5])
@pytest.mark.parametrize("version", [1, 2, 3])
def test_older_versions_know_no_mail_message(message: Any, version: int) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_client(encode(message), version=version)
    assert refused.value.code is ErrorCode.UNKNOWN_TYPE
    with pytest.raises(ValueError):
        encode(MAIL_SERVER_SAMPLES[0], version)


def test_a_reset_password_keeps_its_password_out_of_its_repr() -> None:
    assert "battery" not in repr(ResetPassword("abc", "correct horse battery"))


@pytest.mark.parametrize("bad", [{"language": "fr"}, {"on": ["spam"]}, {"off": "turn"}])
def test_a_language_or_kind_the_server_has_not_is_refused(bad: dict[str, Any]) -> None:
    import msgpack

    frame = msgpack.packb({"type": "set_mail_settings", **bad})
    with pytest.raises(ProtocolError) as refused:
        decode_client(frame)
    assert refused.value.code is ErrorCode.BAD_FIELD
