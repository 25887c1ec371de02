"""The client's tests share one process-wide language (client.language.i18n): each test starts
in English and leaves it so, whatever it switched to, so that no test's words depend on which
test ran before it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from client.language.i18n import set_language


@pytest.fixture(autouse=True)
def english_again() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")
