"""The client's languages: every message of the code (the client's, the catalogue package's and
the page's, as `make pot` extracts them) has a German and an Italian translation,
the compiled catalogs are those of the .po files, the language is chosen by --lang or the locale,
command words are understood in each language, and the screens at 80x24 show whole words."""

from __future__ import annotations

import ast
import io
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from client.cli.options import build_parser
from client.language import i18n
from client.language.command_words import local_words
from client.language.eventlog import describe_events
from client.language.i18n import LANGUAGES, LOCALE_DIR, _, choose_language, set_language
from client.language.words import level_word, rules_words, status_word
from client.model.commands import complete, interpret
from client.screens.board_map import island_count, map_legend
from client.screens.canvas import fit_keys
from client.screens.help_screen import HELP_CLIENT, HELP_KEYS, RULES_PAGES, help_pages, render_help
from client.screens.lobby_screen import ACCOUNT_KEYS, LOBBY_KEYS, render_lobby
from client.screens.render import KEY_HINTS, map_size, render_game
from protocol.fields import LevelName, PlayerInfo, Players, StatusName, TableInfo, TableOptions
from shared.actions import parse_action
from shared.board import ISLANDS
from shared.events import BridgePlaced, GameOver, TokenPlaced, TurnEnded, event_to_dict
from shared.legality import legal_actions, why_illegal
from shared.types import Seat, Termination
from shared.views import seat_view
from tests.client.test_render import known_state, over
from tests.extracted import Key, messages
from tests.positions import game

TRANSLATED = ("de", "it")
# Files whose messages are not checked yet (a screen being written: add its file name here
# until its texts settle; then remove it, `make pot`, translate, `make locale`).
PENDING: frozenset[str] = frozenset()


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    set_language("en")


CLIENT_DIR = Path(i18n.__file__).resolve().parent.parent  # client/, its subpackages too
CATALOGUE_DIR = LOCALE_DIR.parent


def entries(catalog: Catalog) -> dict[Key, list[str]]:
    """The messages of a catalog, (msgctxt, msgid, msgid_plural) -> the msgstr(s); no header."""
    found: dict[Key, list[str]] = {}
    for message in catalog:
        if not message.id:
            continue
        # a plural's id and strings are a tuple (a list when read from a .mo)
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strs = [message.string] if isinstance(message.string, str) else list(message.string or ())
        found[(message.context, ids[0], ids[1] if len(ids) > 1 else None)] = strs
    return found


def catalog(lang: str) -> dict[Key, list[str]]:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "kahuna.po").open("rb") as po:
        return entries(read_po(po))


def code_messages() -> dict[Key, list[str]]:
    """Every message of the code with where it is ("client/language/words.py:12"): what `make pot`
    finds in the client, the catalogue package and the page (catalogue/babel.cfg)."""
    found: dict[Key, list[str]] = {}
    for key, where in messages():
        found.setdefault(key, []).append(where)
    return found


def compiled(mo: io.BufferedIOBase) -> tuple[str, dict[Key, list[str]]]:
    """What gettext reads from a .mo: its plural rule and its messages (Babel's read_mo leaves
    a context as bytes: compare only with another .mo)."""
    read = read_mo(mo)
    return read.plural_forms, entries(read)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_mo_is_compiled_from_its_po(lang: str) -> None:
    po = LOCALE_DIR / lang / "LC_MESSAGES" / "kahuna.po"
    mo = po.with_suffix(".mo")
    fresh = io.BytesIO()
    with po.open("rb") as source:
        write_mo(fresh, read_po(source))
    fresh.seek(0)
    with mo.open("rb") as committed:
        assert compiled(committed) == compiled(fresh), (
            f"{mo} is out of date with {po.name}: run `make locale`"
        )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_of_the_code_is_translated(lang: str) -> None:
    translated = catalog(lang)
    missing = []
    for key, where in code_messages().items():
        if all(Path(w.split(":")[0]).name in PENDING for w in where):
            continue
        if not all(translated.get(key, [""])):
            missing.append(f"{where[0]}: {key[1]!r}")
    assert not missing, f"{lang}: untranslated (`make pot`, then the .po):\n" + "\n".join(missing)


def is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def builds_a_string(arg: ast.expr) -> bool:
    """An f-string, or an operation or a call on a string (a sum, a % or a format)."""
    if isinstance(arg, ast.JoinedStr):
        return True
    return isinstance(arg, ast.BinOp | ast.Call) and any(is_text(n) for n in ast.walk(arg))


def test_every_message_is_whole_in_the_code() -> None:
    """A message built at run time (an f-string, a sum, a format) is one a translator never
    sees whole; and in an f-string's braces a call is hidden from the extraction (Python 3.11
    reads an f-string as one token): both would be shown untranslated."""
    wrong = []
    for path in sorted([*CLIENT_DIR.rglob("*.py"), *CATALOGUE_DIR.rglob("*.py")]):
        tree = ast.parse(path.read_text("utf-8"))
        in_fstrings = {
            id(n) for f in ast.walk(tree) if isinstance(f, ast.JoinedStr) for n in ast.walk(f)
        }
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in DEFAULT_KEYWORDS
            ):
                continue
            where = f"{path.name}:{node.lineno}: {node.func.id}()"
            if id(node) in in_fstrings:
                wrong.append(f"{where} inside an f-string: call it before")
            elif any(builds_a_string(arg) for arg in node.args):
                wrong.append(f"{where} of a string built at run time: translate, then format")
    assert not wrong, "\n".join(wrong)


def fields(text: str) -> set[str]:
    return {name for _t, name, _f, _c in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang: str) -> None:
    for (_ctx, msgid, plural), strs in catalog(lang).items():
        if not msgid or not all(strs):
            continue
        for text in strs:
            assert fields(text) <= fields(msgid) | fields(plural or ""), (msgid, text)
            if plural is None:
                assert fields(text) == fields(msgid), (msgid, text)


def test_the_compiler_writes_what_gettext_reads(tmp_path: Path) -> None:
    import gettext

    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "White"\nmsgstr "Weiß"\n\n'
        'msgctxt "command"\nmsgid "place"\nmsgstr "setze"\n\n'
        'msgid "{n} card"\nmsgid_plural "{n} cards"\nmsgstr[0] "{n} Karte"\n'
        'msgstr[1] "{n} Karten"\n\nmsgid "untranslated"\nmsgstr ""\n',
        encoding="utf-8",
    )
    mo = tmp_path / "x.mo"
    with po.open("rb") as source, mo.open("wb") as target:
        write_mo(target, read_po(source))
    with mo.open("rb") as f:
        tr = gettext.GNUTranslations(f)
    assert tr.gettext("White") == "Weiß"
    assert tr.pgettext("command", "place") == "setze"
    assert tr.ngettext("{n} card", "{n} cards", 1) == "{n} Karte"
    assert tr.ngettext("{n} card", "{n} cards", 3) == "{n} Karten"
    assert tr.gettext("untranslated") == "untranslated"


# ----- choosing the language ------------------------------------------------------------------


def test_lang_flag_and_locale_choose_the_language() -> None:
    args = build_parser().parse_args(["--lang", "de"])
    assert choose_language(args.lang, {"LANG": "it_IT.UTF-8"}) == "de"
    args = build_parser().parse_args([])
    assert choose_language(args.lang, {"LANG": "it_IT.UTF-8"}) == "it"
    assert choose_language(None, {"LANGUAGE": "fr:de", "LANG": "it_IT.UTF-8"}) == "de"
    assert choose_language(None, {"LC_ALL": "C", "LANG": "de_DE.UTF-8"}) == "en"
    assert choose_language(None, {}) == "en"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--lang", "fr"])


@pytest.mark.parametrize(("lang", "white"), [("en", "White"), ("de", "Weiß"), ("it", "Bianco")])
def test_the_catalogs_load(lang: str, white: str) -> None:
    set_language(lang)
    assert i18n.language() == lang
    assert _("White") == white


# ----- command words --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_command_words_are_distinct_and_never_another_commands_word(lang: str) -> None:
    set_language(lang)
    words = local_words()
    firsts = {k: v for k, v in words.items() if k not in ("turn", "rebuild", "yes")}
    assert len(set(firsts.values())) == len(firsts), firsts
    english = set(words)
    for key, local in firsts.items():
        assert local not in english or local == key, (key, local)


@pytest.mark.parametrize(
    ("lang", "typed"),
    [
        ("de", "setze BARI-DUDA"),
        ("it", "piazza BARI-DUDA"),
        ("en", "place BARI-DUDA"),
        ("de", "place BARI-DUDA"),  # the notation works in every language
    ],
)
def test_a_command_in_the_language_is_the_notation(lang: str, typed: str) -> None:
    set_language(lang)
    g = game(white="", black="", white_hand="BARI", black_hand="", face_up="COCO DUDA FAAA")
    view = seat_view(g, Seat.WHITE)
    outcome = interpret(typed, view, view.public)
    assert (outcome.kind, outcome.text) == ("action", "place BARI-DUDA")
    taken = interpret(
        {"de": "nimm COCO", "it": "prendi COCO"}.get(lang, "take COCO"), view, view.public
    )
    assert taken.text == "take COCO"


def test_tab_offers_the_words_of_the_language() -> None:
    set_language("de")
    g = game(white="", black="", white_hand="BARI", black_hand="", face_up="COCO DUDA FAAA")
    view = seat_view(g, Seat.WHITE)
    first = [c.text for c in complete("", view)]
    assert "setze" in first and "nimm" in first and "ziehe" in first and "place" not in first
    assert [c.text for c in complete("pl", view)] == ["place"]  # the notation once typed
    assert "BARI-DUDA" in [c.text for c in complete("setze ", view)]
    assert [c.text for c in complete("biete ", None)] == ["remis"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_reason_of_the_rules_is_translated(lang: str) -> None:
    """Random positions and every action of the notation: each reason the engine gives is
    read back into the language (a new reason in shared.legality needs a pattern in words)."""
    import random

    from shared.game import Game
    from shared.randomness import SeededSource

    set_language(lang)
    rng = random.Random(7)
    every = [
        parse_action(text)
        for text in (
            ["draw", "abstain", "end", "undo", "undo turn", "handicap ALOA-BARI"]
            + [f"discard {n}" for n in ISLANDS]
            + [f"take {n}" for n in ISLANDS]
            + ["place BARI-DUDA", "place DUDA-BARI", "place ALOA-BARI", "place COCO-BARI"]
            + ["remove HUNA-ELAI HUNA+ELAI", "remove HUNA-ELAI HUNA+HUNA rebuild"]
            + ["remove ALOA-BARI ALOA+HUNA", "place HUNA-ELAI"]
        )
    ]
    seen: set[str] = set()
    for seed in range(6):
        g = Game.new(SeededSource(seed))
        for _step in range(150):
            if g.is_over:
                break
            ctx = g.turn_context()
            for action in every:
                reason = why_illegal(ctx, action)
                if reason is not None and reason not in seen:
                    seen.add(reason)
                    assert rules_words(reason) != reason, reason
            g.apply(rng.choice(legal_actions(ctx)))
    assert len(seen) > 10
    for bad in ("place", "take", "remove HUNA-ELAI HUNA", "fly BARI", "place XXXX-BARI"):
        outcome = interpret(bad, None, None)
        assert outcome.kind == "refused"


# ----- the screens at 80x24, whole words ----------------------------------------------------------

WORD = re.compile(r"[^\W\d_]+")


def vocabulary(lang: str) -> set[str]:
    """Every word the client may show in this language: its messages, the islands, the names."""
    texts: list[str] = [*ISLANDS, "Ann", "Computer", "KAHUNA", "of", "AI"]
    texts += [key for key, _text in HELP_KEYS] + [rest for _w, rest, _t in HELP_CLIENT]
    translated = catalog(lang if lang != "en" else "de")
    for (_ctx, msgid, plural), strs in translated.items():
        texts += [msgid, plural or ""]
        if lang != "en":
            texts += strs
    return {w for text in texts for w in WORD.findall(text)}


def assert_whole_words(lines: list[str], words: set[str], lang: str) -> None:
    for line in lines:
        assert len(line) <= 80, line
        for word in WORD.findall(line):
            assert word in words, f"{lang}: {word!r} cut or unknown in {line!r}"


STATUSES_AND_LEVELS: tuple[tuple[StatusName, LevelName], ...] = (
    ("playing", "normal"), ("waiting", "strong"), ("over", "easy"),
)  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_screens_fit_80x24_without_cut_words(lang: str) -> None:
    set_language(lang)
    height = 22  # 24 less the command line and the key line
    state = known_state()
    events = [
        event_to_dict(BridgePlaced(Seat.BLACK, 0, 0)),
        event_to_dict(TokenPlaced(Seat.BLACK, 0)),
        event_to_dict(TurnEnded(Seat.BLACK, Seat.WHITE)),
    ]
    state.log = []
    for line in describe_events(events):
        state.add_log(line)
    screens = [render_game(state, 80, height).lines()]
    # a refusal
    assert state.seat_view is not None
    refused = interpret(f"{local_words()['place']} COCO-BARI", state.seat_view, state.public)
    assert refused.kind == "refused"
    state.say(_("Not sent: {reason}").format(reason=refused.text), "error")
    screens.append(render_game(state, 80, height).lines())
    # the help, every page
    pages = len(help_pages(height - 2, 80))
    assert pages > RULES_PAGES
    screens += [render_help(80, height - 2, page).lines() for page in range(pages)]
    rules = render_help(80, height - 2, 0).text()
    assert rules.count("•") == 6  # the rules in brief, whole on the first page
    # the game over
    for kind in (Termination.POINTS, Termination.RESIGNED, Termination.FINAL):
        over(state, kind)
        over_events = [event_to_dict(GameOver(Seat.WHITE, kind, (4, 2)))]
        for line in describe_events(over_events):
            state.add_log(line)
        state.say("")
        screens.append(render_game(state, 80, height).lines())
    # the lobby, its tables whole (a computer's seat, each status), and the new-table form
    ann, computer = PlayerInfo("Ann", False, False), PlayerInfo("Computer", True, True)
    state.tables = [
        TableInfo("1a2b3c4d", TableOptions(), True, Players(ann, computer), 12, status, level=level)
        for status, level in STATUSES_AND_LEVELS
    ]
    state.screen, state.form_open = "lobby", False
    lobby = render_lobby(state, 80, height).lines()
    for table in state.tables:
        assert table.level is not None
        seat = f"Computer ({level_word(table.level)})"
        row = next(line for line in lobby if f" {status_word(table.status)} " in line)
        assert seat in row and row.rstrip().endswith(" 12"), (lang, row)
    screens.append(lobby)
    state.form_open = True
    form = render_lobby(state, 80, height).lines()
    screens.append(form)
    # no handicap and no clock, each word agreeing with its own (Italian: nessuno, not nessuna)
    none = {"en": ("Handicap: none", "Time control: none"),
            "de": ("Vorgabe: keine", "Bedenkzeit: keine"),
            "it": ("Handicap: nessuno", "Tempo di gioco: nessuno")}[lang]  # fmt: skip
    for said in none:
        assert any(said in line for line in form), (said, form)
    words = vocabulary(lang)
    for lines in screens:
        assert_whole_words(lines, words, lang)
    legend = map_legend()
    assert sum(len(text) for _style, text in legend) <= map_size(80, height - 2)[0]
    # the islands' counts in the language too, on the map and in its legend
    label = island_count(3, 5)
    assert label == {"en": "3of5", "de": "3/5", "it": "3su5"}[lang]
    assert any(label in line for line in screens[0][1:-2])
    assert any(text == label for _style, text in legend)
    if lang != "en":
        assert not any(re.search(r"\dof\d", line) for line in screens[0]), lang
    assert len(legend) == len(map_legend(200))  # the whole legend fits at 80x24
    for bar in (_(KEY_HINTS), _(LOBBY_KEYS)):
        assert len(" " + bar) <= 80, bar
    # a longer key line loses items from its middle, never help and quit at its end
    whole = " " + _(ACCOUNT_KEYS)
    fitted = fit_keys(whole, 80)
    assert len(fitted) <= 80 and fitted.split("  ")[-2:] == whole.split("  ")[-2:], fitted
    assert fit_keys(whole, 200) == whole


# ----- the tutorial and the replay in each language -------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tutorial_speaks_the_language_and_its_messages_fit(lang: str) -> None:
    """Every lesson played through: each message at the bottom fits its 3 lines at 80 columns
    (never cut with '...'), the keys line fits, the words of the language are understood."""
    from client.screens.replay import _message_lines
    from client.screens.tutorial import Tutorial
    from client.screens.tutorial import keys_line as tutorial_keys

    set_language(lang)
    tutorial = Tutorial()
    assert len(tutorial_keys()) <= 80
    for index, lesson in enumerate(tutorial.lessons):
        tutorial.open(index)
        said = [tutorial.message]
        for step in lesson.steps:
            said.append(
                _("A legal move, but not the one this lesson means. {why}").format(why=step.why)
            )
            assert tutorial.submit(step.action)
            said.append(tutorial.message)
        for text in said:
            assert not _message_lines(text, 80)[-1].endswith("..."), (lang, text)
    words = {"de": ("tipp", "weiter", "vorige"), "it": ("suggerisci", "avanti", "indietro")}
    hint, forward, backward = words.get(lang, ("hint", "next", "back"))
    tutorial.open(0)
    assert tutorial.submit(hint)
    assert tutorial.message == _("Type: {move}").format(
        move={"de": "setze", "it": "piazza"}.get(lang, "place") + " BARI-COCO"
    )
    assert tutorial.submit(forward) and tutorial.index == 1
    assert tutorial.submit(backward) and tutorial.index == 0
    assert tutorial.submit("next") and tutorial.index == 1  # the English words work too


@pytest.mark.parametrize(
    ("lang", "words"),
    [("de", ("Fehler", "keine Zahl von 1 bis 65535")), ("it", ("errore", "non è un numero"))],
)
def test_the_command_line_speaks_the_language(
    lang: str, words: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Its errors (argparse's own words too) and its --help, in the language of --lang."""
    from client.cli.play import main

    try:
        with pytest.raises(SystemExit) as exit_:
            main(["--lang", lang, "127.0.0.1:99999"])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert all(word in err for word in words), err
        with pytest.raises(SystemExit):
            main([f"--lang={lang}", "--help"])
        out = capsys.readouterr().out
        usage, options = {"de": ("Aufruf:", "\nOptionen:\n"), "it": ("uso:", "\nOpzioni:\n")}[lang]
        assert out.startswith(usage) and options in out, out[:200]
        assert "--local" in out and "kahuna-client --local" in out
    finally:
        set_language("en")


def test_every_reason_of_a_broken_record_has_its_words() -> None:
    """Each code shared/record.py gives a RecordError is said by record_problem in each
    language (not left in the engine's English)."""
    import ast

    from client.language.words import record_problem
    from shared.record import RecordError

    source = (Path(__file__).parent.parent.parent / "shared" / "record.py").read_text()
    codes: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RecordError":
            given = node.args[2] if len(node.args) > 2 else None
            if isinstance(given, ast.Constant) and isinstance(given.value, str):
                codes.add(given.value)
    codes |= {"chance-missing", "chance-stray", "chance-impossible"}  # a log error's kinds
    assert len(codes) > 20
    try:
        for lang in ("de", "it"):
            set_language(lang)
            for code in sorted(codes):
                problem = RecordError(3, "english", code, {"word": "w", "detail": "d"})
                said = record_problem(problem)
                assert said != "english" and "{" not in said, (lang, code)
    finally:
        set_language("en")


def test_a_broken_record_is_said_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    from client.cli.play import main

    path = Path(__file__).parent.parent.parent / "README.md"  # not a record
    try:
        assert main(["--lang", "de", "--replay", str(path)]) == 1
        assert "keine Partieaufzeichnung" in capsys.readouterr().err
    finally:
        set_language("en")
