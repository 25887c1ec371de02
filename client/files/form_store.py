"""The new-table form's last choices, kept between runs: $XDG_STATE_HOME/kahuna/form.json (or
~/.local/state/kahuna/form.json). Nothing secret is in it; a file that cannot be read is the
default form."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from client.files.state_files import state_file
from client.model.table_form import CreateForm


def default_path() -> Path:
    return state_file("form.json")


def load_form(path: Path | None = None) -> CreateForm:
    try:
        data = json.loads((path or default_path()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return CreateForm()
    return CreateForm.from_dict(data)


def keep_form(form: CreateForm, path: Path | None = None) -> None:
    target = path or default_path()
    with contextlib.suppress(OSError):
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        target.write_text(json.dumps(form.to_dict(), indent=1), encoding="utf-8")
