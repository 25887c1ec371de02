"""Names by Unicode Technical Standard #39 (server/core/names.py): every look-alike of a registered
name is reserved, checked against the standard's own confusables data (ICU's, through PyICU);
format characters, look-alike letters outside its identifier profile and misleading mixes of
scripts are refused; names people use in one script are welcome; accounts stored under an
older skeleton are found under today's."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import attrs
import pytest

from protocol.messages import Hello, Welcome
from protocol.player_messages import LoggedIn, Login, Register
from server.core.accounts import Accounts
from server.core.names import account_name_problem, name_key, skeleton
from server.core.store import AccountOp, AccountRow, StoredPlayers
from server.storage.sqlite_store import SqliteStorage
from tests.server.test_accounts_cli import run as run_accounts
from tests.server.test_core import codes, of, the
from tests.server.test_logins import SECRET
from tests.server.test_logins import Accounts as Harness

# the audit's look-alikes that the hand-written table missed, each in a name beside the real one
AUDIT_LOOK_ALIKES = [
    ("M\u0251ria", "Maria"),  # ɑ LATIN SMALL LETTER ALPHA
    ("Al\u0269ce", "Alice"),  # ɩ LATIN SMALL LETTER IOTA
    ("Pa\u01c0", "Pal"),  # ǀ LATIN LETTER DENTAL CLICK
    ("Lu\u1d04a", "Luca"),  # ᴄ LATIN LETTER SMALL CAPITAL C
    ("\u13aanna", "Anna"),  # Ꭺ CHEROKEE LETTER GO
    ("\ua4eenna", "Anna"),  # ꓮ LISU LETTER A
    ("J\u0585hn", "John"),  # օ ARMENIAN SMALL LETTER OH
    ("\u0555scar", "Oscar"),  # Օ ARMENIAN CAPITAL LETTER OH
    ("Al\ua647ce", "Alice"),  # ꙇ CYRILLIC SMALL LETTER IOTA
]


def reserved_for(impostor: str, registered: str) -> bool:
    """Whether `impostor` cannot be registered beside `registered`: refused by the name rules,
    or the same name."""
    return account_name_problem(impostor) is not None or name_key(impostor) == name_key(registered)


@pytest.mark.parametrize(("impostor", "real"), AUDIT_LOOK_ALIKES)
def test_the_audits_look_alikes_are_refused(impostor: str, real: str) -> None:
    assert account_name_problem(real) is None
    assert reserved_for(impostor, real)
    h = Harness()
    h.account(real)
    taker = h.guest("Someone")
    effects = h.send(taker, Register(impostor, SECRET))
    assert codes(effects, taker) in (["bad_account_name"], ["name_registered"])
    assert not of(effects, taker, LoggedIn)


def test_armenian_oh_reserves_john_the_other_way_round_too() -> None:
    # Latin with Armenian is allowed at UTS #39's moderately restrictive level: such a name is
    # registered, and it reserves the Latin spelling for itself
    h = Harness()
    h.account("J\u0585hn")
    taker = h.guest("Someone")
    assert codes(h.send(taker, Register("John", SECRET)), taker) == ["name_registered"]


def latin_look_alikes() -> list[tuple[str, str]]:
    """Every character that UTS #39's confusables data (ICU's) maps to Latin letters or digits:
    (the character, its prototype)."""
    found = []
    for code_point in range(0x20000):  # the confusables lie in the first two planes
        char = chr(code_point)
        if unicodedata.category(char) in ("Cn", "Cs", "Co"):
            continue
        prototype = skeleton(char)
        if prototype != char and prototype.isascii() and prototype.isalnum():
            found.append((char, prototype))
    return found


def test_every_look_alike_of_uts39_is_reserved_in_every_case() -> None:
    pairs = latin_look_alikes()
    assert len(pairs) > 1000  # the data is there: ɑ, Cyrillic а, 𝐚, ... (1454 in ICU 72)
    judged = accepted = 0
    for char, prototype in pairs:
        impostor = f"Ka{char}ra"
        real = f"Ka{prototype}ra"
        for spelling in (real, real.upper(), real.lower(), real.swapcase()):
            if account_name_problem(spelling) is not None:
                continue
            judged += 1
            assert reserved_for(impostor, spelling), (hex(ord(char)), spelling)
            if account_name_problem(impostor) is None:
                accepted += 1
    # most look-alikes are refused outright; those in the profile (0 for O, Armenian օ, ...)
    # are one name with the Latin one
    assert judged > 4000 and accepted > 100


@pytest.mark.parametrize(
    "name",
    [
        "Jürgen", "Zoë", "José", "Ümit", "Åsa", "Nguyễn", "Αλέξανδρος", "Дмитрий", "Жанна",
        "山田", "Mary-Jane", "Ann Lee", "Zoë_99", "J\u0585hn",
    ],
)  # fmt: skip
def test_names_people_use_are_accepted(name: str) -> None:
    assert account_name_problem(name) is None


def test_accents_make_another_name_and_case_does_not() -> None:
    assert name_key("Åsa") != name_key("Asa")
    assert name_key("Zoë") == name_key("Zoe\u0308") == name_key("ZOË")  # NFD or NFC, any case
    assert name_key("ian") == name_key("Ian") == name_key("lan")  # case, then I drawn like l
    assert name_key("\u03bdictor") == name_key("Victor")  # Greek ν is drawn like v


@pytest.mark.parametrize(
    "name",
    [
        "\u202eAnn",  # RIGHT-TO-LEFT OVERRIDE: shown reversed
        "Ann\u202d",  # LEFT-TO-RIGHT OVERRIDE
        "An\u2067n",  # RIGHT-TO-LEFT ISOLATE
        "A\u200bnn",  # ZERO WIDTH SPACE
        "A\u200dnn",  # ZERO WIDTH JOINER
        "An\u00adn",  # SOFT HYPHEN
        "\ufeffAnn",  # BYTE ORDER MARK
        "Ann\u0007",  # a control character
        "Ann\u3164",  # HANGUL FILLER: a letter that shows nothing
        "Ann\u0307\u0307",  # a mark, twice on one letter: marks come precomposed or not at all
    ],
)
def test_format_and_invisible_characters_are_refused(name: str) -> None:
    assert account_name_problem(name) == "bad_characters"


def test_a_right_to_left_override_is_refused_not_dropped() -> None:
    h = Harness()
    taker = h.guest("Someone")
    assert codes(h.send(taker, Register("\u202enhoJ", SECRET)), taker) == ["bad_account_name"]


@pytest.mark.parametrize(
    "name",
    [
        "J\u043ehn",  # Cyrillic о among Latin letters
        "\u0392ob",  # Greek Β
        "P\u0430ypal",  # Cyrillic а
        "Ann 1\u0661",  # two numbering systems' digits
    ],
)
def test_misleading_mixes_are_refused(name: str) -> None:
    assert account_name_problem(name) == "mixed_scripts"


def row(key: str, name: str, created: float) -> AccountRow:
    return AccountRow(key, name, "hash", 1500, 350, 0.06, created, created, False)


def test_accounts_stored_under_an_older_key_are_found_under_todays() -> None:
    accounts = Accounts()
    old_ann = row("ann (old)", "Ann", 1.0)  # the key an older skeleton gave
    younger = row("4nn (old)", "\u0410nn", 2.0)  # one that now has the same key
    accounts.load([younger, old_ann], [])
    found = accounts.get(name_key("ANN"))
    assert found is not None and found.key == "ann (old)"  # the oldest keeps the name
    assert accounts.get("4nn (old)") is not None  # every account by its stored key still


def test_a_restart_finds_an_account_stored_under_an_older_key() -> None:
    h = Harness()
    _, token = h.account("Ann")
    rows, tokens = h.written_accounts()
    # as a database written before today's skeleton would hold it
    stored = [attrs.evolve(rows[-1], key="ann-of-old")]
    tokens = [(token_hash, "ann-of-old") for token_hash, _key in tokens]
    again = Harness()
    again.took(again.core.restore_players(StoredPlayers(stored, tokens), 0.0, 0.0))
    guest = again.connect()
    welcome = the(again.send(guest, Hello(3, "\u0410NN")), guest, Welcome)
    assert welcome.name_note == "name_registered"
    logged = the(again.send(guest, Login("ann", SECRET, None)), guest, LoggedIn)
    assert logged.name == "Ann"
    other = again.guest("Other")
    assert codes(again.send(other, Register("Ann", SECRET)), other) == ["name_registered"]
    third = again.guest("x")
    assert the(again.send(third, Login("Ann", None, token)), third, LoggedIn).name == "Ann"


def test_the_operator_finds_an_account_stored_under_an_older_key(tmp_path: Path) -> None:
    db = tmp_path / "server.sqlite3"
    storage = SqliteStorage(db)
    old = AccountRow("4nn (an older key)", "Ann", "hash", 1500, 350, 0.06, 1.0, 1.0, False)
    storage.write([AccountOp(old)])
    storage.close()
    disabled = run_accounts("disable", "ANN", "--db", str(db))
    assert disabled.returncode == 0, disabled.stderr
    storage = SqliteStorage(db)
    (ann,) = storage.load_accounts()
    storage.close()
    assert (ann.key, ann.disabled) == ("4nn (an older key)", True)
