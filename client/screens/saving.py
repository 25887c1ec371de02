"""`save`: the game written to a file. A finished game: its full record, asked of the server; a
game under way: the client's transcript (the commands sent and the log), since a record would
show the hidden cards."""

from __future__ import annotations

import time
from pathlib import Path

from client.language.i18n import _
from client.language.words import error_sentence, reason_words, seat_name, seat_word
from client.model.sending import Send
from client.model.state import ClientState
from protocol.messages import Error, GetRecord, Record, ServerMessage
from shared.types import Seat


class GameSaver:
    def __init__(self, state: ClientState, send: Send, save_dir: Path) -> None:
        self.state = state
        self.send = send
        self.save_dir = save_dir
        self.saving: tuple[str, Path] | None = None  # (table, file) waiting for its record

    def save(self, name: str) -> Path | None:
        """Write the game. A finished game: its full record, asked of the server (get_record)
        and written when it comes (see `received`); a game under way: the client's transcript
        (the commands sent and the log), since a record would show the hidden cards. Returns the
        file written now, None when nothing was written (yet)."""
        state = self.state
        if not state.transcript or state.table_id is None:
            state.say(_("Nothing to save yet."), "error")
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        over = state.public is not None and state.public.result is not None
        # a record (.kahuna, which --replay opens) and a transcript (which it cannot) are not
        # named alike
        kind = "kahuna" if over else "transcript.txt"
        path = Path(name) if name else self.save_dir / f"kahuna-{state.table_id}-{stamp}.{kind}"
        if not over:
            return self._write(path, self.transcript_text(), record=False)
        if self.send(GetRecord(state.table_id)):
            self.saving = (state.table_id, path)
            state.say(_("Asking the server for the game record..."))
            return None
        written = self._write(path, self.transcript_text(), record=False)
        if written is not None:
            state.say(
                _(
                    "Not connected: saved the transcript to {path};"
                    " 'save' again once connected writes the full record."
                ).format(path=path),
                "error",
            )
        return written

    def received(self, msg: ServerMessage) -> bool:
        """A message from the server, after the state has taken it: the record asked for is
        written (or, when the server has none, the transcript). True while one was awaited."""
        if self.saving is None:
            return False
        table_id, path = self.saving
        if isinstance(msg, Record) and msg.table_id == table_id:
            self.saving = None
            self._write(path, msg.text, record=True)
        elif isinstance(msg, Error) and msg.refused == GetRecord.TYPE:
            self.saving = None
            if self._write(path, self.transcript_text(), record=False) is not None:
                self.state.say(
                    _(
                        "The server gave no record ({reason}): saved the transcript to {path}"
                    ).format(reason=error_sentence(msg), path=path),
                    "error",
                )
        return True

    def _write(self, path: Path, text: str, record: bool) -> Path | None:
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            self.state.say(_("Could not save: {reason}").format(reason=exc), "error")
            return None
        if record:
            self.state.say(_("Saved the game record to {path}").format(path=path))
        else:
            self.state.say(_("Saved the game transcript to {path}").format(path=path))
        return path

    def transcript_text(self) -> str:
        state = self.state
        lines = [
            "# " + _("Kahuna game transcript (the client's log: commands sent and what happened)"),
            "# "
            + _("table {table}; you: {name} ({role})").format(
                table=state.table_id, name=state.name, role=seat_word(state.role or "")
            ),
        ]
        pub = state.public
        if pub is not None:
            for seat in Seat:
                lines.append(f"# {seat_name(seat)}: {state.player_name(seat)}")
            if pub.result is not None:
                lines.append(
                    "# "
                    + _("result: {reason}; points {white}:{black}").format(
                        reason=reason_words(pub.result), white=pub.scores[0], black=pub.scores[1]
                    )
                )
        return "\n".join(lines + state.transcript) + "\n"
