"""The game screen's command line: Tab's candidates, the board lines a typed line names, what
Enter would do with it, and the answer to "resign?"."""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from client.language.command_words import local_words
from client.language.i18n import _
from client.model.commands import Outcome, complete
from client.model.state import ClientState
from shared.board import ISLAND_LINES, BoardNameError, parse_island, parse_line


class CommandCompleter(Completer):
    def __init__(self, state: ClientState) -> None:
        self.state = state

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        for cand in complete(document.text_before_cursor, self.state.seat_view):
            yield Completion(cand.text + " ", cand.start, display=cand.text, display_meta=cand.meta)


def highlighted_lines(text: str) -> list[int]:
    """The board lines a command being typed names, to show them on the map."""
    out: list[int] = []
    for word in text.split()[1:]:
        with contextlib.suppress(BoardNameError):
            out.append(parse_line(word))
            continue
        with contextlib.suppress(BoardNameError):  # an island alone: all its lines
            out.extend(ISLAND_LINES[parse_island(word.split("-")[0].split("+")[0])])
    return out


def preview(outcome: Outcome) -> tuple[str, str] | None:
    """What Enter would do with the line, (style, text) for the message line: play it, or
    nothing, because the rules refuse it; None when there is nothing to say."""
    if outcome.kind == "action":
        return ("class:msg.ok", _("Enter plays: {command}").format(command=outcome.text))
    if outcome.kind == "refused" and outcome.action is not None:
        return ("class:msg.error", _("Not allowed: {reason}").format(reason=outcome.text))
    return None


def _ascii(word: str) -> str:
    """The word without its accents ('sì': 'si'), as a keyboard without them types it."""
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode()


def confirms_resign(text: str) -> bool:
    """Whether the line answers "resign and lose?" with yes (in English or the language)."""
    words = local_words()
    said = text.strip().lower()
    return said in ("yes", "y", "resign", words["yes"], words["resign"], _ascii(words["yes"]))


def declines_resign(text: str) -> bool:
    return text.strip().lower() in ("no", "n", _("no"))
