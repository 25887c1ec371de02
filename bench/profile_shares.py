"""Where the server's time goes, from a py-spy profile: a script, not a test.

    .venv/bin/python bench/load_bench.py --runs 2000:0.5 --seconds 10 --py-spy /tmp/prof
    .venv/bin/python bench/profile_shares.py /tmp/prof/server-2000x0.5.speedscope.json

bench/core_bench.py measures the core, the encoding and the storage without sockets; the whole
server under bench/load_bench.py costs more an action (2.05 times, then 1.6 after the sockets'
fast paths: docs/architecture.md). This splits a profile of the
whole server (py-spy's speedscope JSON, as `load_bench.py --py-spy` writes it) into those parts
and the rest (reading and writing the sockets, websockets' framing, the event loop, the server's
glue between them), so that the difference can be read off. Each sample goes to the first
part, from the innermost frame out, whose pattern matches a frame: a sample in msgpack under
protocol.codec.encode is the encoding's, one in shared/ under the core the core's. Printed per
thread: the parts' shares of its samples, and the functions of most own time.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

# (part, pattern on "file:function"), tried in this order on each frame from the innermost out
PARTS = [
    ("encoding per recipient (codec.encode: version cut, to_wire, msgpack)",
     r"protocol/codec\.py:encode$"),
    ("storage (SQLite, its checkpoint thread)", r"server/storage/|sqlite3"),
    ("core (server/core, shared; the frame's decoding)", r"server/core/|(^|/)shared/"),
    ("framing a message sent (websockets, or connection.py's binary_frame)",
     r"websockets/.*(serialize|send_binary|send_frame|send_data)|connection\.py:binary_frame$"),
    ("parsing the frames received (websockets, or FrameConnection's fast path)",
     r"websockets/|sockets\.py:FrameConnection\.(_whole_frames|_parser_idle)$"),
    ("socket send (transport.write and the kernel's send)",
     r"selector_events\.py:_SelectorSocketTransport\.write"),
    ("socket receive (_read_ready and the kernel's recv)", r"selector_events\.py:.*_read_ready"),
    ("server/net: each connection's send queue", r"server/net/connection\.py"),
    ("server/net: the app's glue (carry_out, deliver, held writes)", r"server/net/"),
    ("logging", r"/logging/"),
    ("the event loop (asyncio, selectors, callbacks' own time)",
     r"asyncio/|selectors|runners|runpy|__main__|server/cli/"),
]  # fmt: skip


def shares(profile: dict[str, Any], labels: list[str]) -> tuple[Counter[str], Counter[str], float]:
    """A thread's samples by part and by innermost function, and their total weight."""
    parts: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0.0
    for stack, weight in zip(profile["samples"], profile["weights"], strict=True):
        total += weight
        if not stack:
            continue
        own[labels[stack[-1]]] += weight
        for index in reversed(stack):
            part = next(
                (name for name, pattern in PARTS if re.search(pattern, labels[index])), None
            )
            if part is not None:
                parts[part] += weight
                break
        else:
            parts["other"] += weight
    return parts, own, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("profile", type=Path, help="py-spy's speedscope JSON")
    parser.add_argument("--top", type=int, default=15, help="functions of most own time shown")
    args = parser.parse_args()
    doc = json.loads(args.profile.read_text())
    labels = [f"{frame.get('file', '')}:{frame['name']}" for frame in doc["shared"]["frames"]]
    threads = [(profile, *shares(profile, labels)) for profile in doc["profiles"]]
    everything = sum(total for *_, total in threads) or 1.0
    for profile, parts, own, total in threads:
        print(f"{profile['name']}: {total / everything:.1%} of the samples")
        for part, weight in parts.most_common():
            print(f"  {weight / total:6.1%}  {part}")
        print("  functions of most own time:")
        for label, weight in own.most_common(args.top):
            print(f"    {weight / total:6.1%}  {label}")


if __name__ == "__main__":
    main()
