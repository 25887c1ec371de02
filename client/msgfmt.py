"""The client's catalogs: .po (what translators edit) compiled to .mo (what gettext reads), and
the messages of the code, found in its `_()`, `ngettext()` and `pgettext()` calls.

    python -m client.msgfmt          # compile every client/locale/*/LC_MESSAGES/kahuna.po
    python -m client.msgfmt --pot    # write client/locale/kahuna.pot from client/*.py

The standard library reads .mo files but has no compiler; this one writes the format Python's
Tools/i18n/msgfmt.py writes: a header, the tables of (length, offset), then the strings.
"""

from __future__ import annotations

import ast
import struct
import sys
from pathlib import Path

CLIENT_DIR = Path(__file__).resolve().parent
LOCALE_DIR = CLIENT_DIR / "locale"
Key = tuple[str | None, str, str | None]  # (msgctxt, msgid, msgid_plural)


def parse_po(text: str) -> dict[Key, list[str]]:
    """The entries of a .po file: (msgctxt, msgid, msgid_plural) -> the msgstr(s)."""
    entries: dict[Key, list[str]] = {}
    fields: dict[str, str] = {}
    last = ""

    def done() -> None:
        if "msgid" in fields:
            strs = [fields[k] for k in sorted(k for k in fields if k.startswith("msgstr"))]
            key = (fields.get("msgctxt"), fields["msgid"], fields.get("msgid_plural"))
            entries[key] = strs
        fields.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            fields[last] += ast.literal_eval(line)
            continue
        word, _sep, value = line.partition(" ")
        if word in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in fields):
            done()  # a new entry begins
        last = word
        fields[word] = ast.literal_eval(value.strip())
    done()
    return entries


def make_mo(entries: dict[Key, list[str]]) -> bytes:
    """The .mo bytes of these entries; untranslated ones (an empty msgstr) are left out."""
    pairs: dict[bytes, bytes] = {}
    for (ctxt, msgid, plural), strs in entries.items():
        if msgid and not all(strs):
            continue
        key = msgid if plural is None else f"{msgid}\0{plural}"
        key = key if ctxt is None else f"{ctxt}\x04{key}"
        pairs[key.encode()] = "\0".join(strs).encode()
    keys = sorted(pairs)
    start = 28 + 16 * len(keys)  # after the header and both tables
    table: list[int] = []
    blob = b""
    for strings in (keys, [pairs[k] for k in keys]):
        for s in strings:
            table += [len(s), start + len(blob)]
            blob += s + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, len(keys), 28, 28 + 8 * len(keys), 0, 0)
    return header + struct.pack(f"<{len(table)}I", *table) + blob


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile each kahuna.po into the kahuna.mo beside it; the files written."""
    written = []
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/kahuna.po")):
        mo = po.with_suffix(".mo")
        mo.write_bytes(make_mo(parse_po(po.read_text(encoding="utf-8"))))
        written.append(mo)
    return written


# ----- the messages of the code -----------------------------------------------------------

FUNCTIONS = {"_": 1, "N_": 1, "ngettext": 2, "pgettext": 2}


def extract(paths: list[Path]) -> dict[Key, list[str]]:
    """Every message the code translates, with where it is ("file:line"). An f-string (or a
    sum) given to one raises ValueError: a translator could never see it whole."""
    found: dict[Key, list[str]] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            count = FUNCTIONS.get(node.func.id)
            if count is None:
                continue
            args = node.args[:count]
            where = f"{path.name}:{node.lineno}"
            if any(isinstance(a, ast.JoinedStr | ast.BinOp) for a in args):
                raise ValueError(f"{where}: {node.func.id}() of an f-string or a sum: use format")
            if len(args) < count or not all(
                isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args
            ):
                continue  # _(NAME): a message marked with N_() where it is defined
            texts = [str(a.value) for a in args if isinstance(a, ast.Constant)]
            if node.func.id == "pgettext":
                key: Key = (texts[0], texts[1], None)
            elif node.func.id == "ngettext":
                key = (None, texts[0], texts[1])
            else:
                key = (None, texts[0], None)
            found.setdefault(key, []).append(where)
    return found


def client_messages() -> dict[Key, list[str]]:
    return extract(sorted(CLIENT_DIR.glob("*.py")))


def _quote(text: str) -> str:
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{body}"'


def make_pot(messages: dict[Key, list[str]]) -> str:
    out = [
        'msgid ""',
        'msgstr ""',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
        "",
    ]
    for (ctxt, msgid, plural), where in messages.items():
        out.append("#: " + " ".join(where))
        if ctxt is not None:
            out.append(f"msgctxt {_quote(ctxt)}")
        out.append(f"msgid {_quote(msgid)}")
        if plural is None:
            out.append('msgstr ""')
        else:
            out += [f"msgid_plural {_quote(plural)}", 'msgstr[0] ""', 'msgstr[1] ""']
        out.append("")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if "--pot" in argv:
        (LOCALE_DIR / "kahuna.pot").write_text(make_pot(client_messages()), encoding="utf-8")
        print(LOCALE_DIR / "kahuna.pot")
        return 0
    for path in compile_all():
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
