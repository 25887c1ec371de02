"""Version 1 as released, for peers that say hello with version 1; and what versions 1 and 2 see
of a game of days (version 3's), which their time controls cannot say; and that versions 1 to 3
do not see a tournament's table as one (version 4's `table.tournament`).

The views and events inside `state` and `update` are free-form maps, so the codec's per-field
versioning cannot see into them: this module cuts them back to what docs/protocol.md version 1
describes. Keys added later are dropped, event types added later are left out (the new view
still says where the game stands), and a result carries its English reason, not its code.
"""

from __future__ import annotations

from typing import Any

import attrs

from protocol.messages import Lobby, Message, State, Update
from shared.results import Result, english_reason

V1_PUBLIC_KEYS = (
    "options", "phase", "to_move", "round", "round_points", "bridges", "tokens", "hand_sizes",
    "open_cards", "face_up", "pile_size", "played", "face_down_count", "opponent_abstained",
    "final_turns_left", "handicap_left", "result",
)  # fmt: skip
V1_SEAT_KEYS = ("seat", "public", "hand")
DAY = 86400  # seconds: a clock of days shown to version 2 as the seconds of each turn
V1_EVENT_TYPES = frozenset(
    {
        "BridgePlaced", "BridgeRemoved", "TokenPlaced", "TokenRemoved", "CardDiscarded",
        "CardTaken", "CardDrawn", "Abstained", "TurnEnded", "RoundScored", "Reshuffled",
        "FinalTurnsBegan", "GameOver",
    }
)  # fmt: skip


def for_version(message: Message, version: int) -> Message:
    """The message as a peer of this version expects it (the same object when nothing
    changes)."""
    if version >= 4:
        return message
    if version == 3:
        if type(message) is State or type(message) is Update:
            view = without_tournament(message.view)
            if view is not message.view:
                return attrs.evolve(message, view=view)
        return message
    if type(message) is Lobby:
        return _without_days(message)
    if version == 2:
        if isinstance(message, State | Update):
            view = v2_view(without_tournament(message.view))
            if view is not message.view:
                return attrs.evolve(message, view=view)
        return message
    # Built field by field, not with attrs.evolve, which looks the fields up on every call:
    # an update's cut-back comes before it reaches its version-1 player.
    if type(message) is Update:
        return Update(
            message.table_id, message.version, v1_events(message.events), v1_view(message.view)
        )
    if type(message) is State:
        return State(
            message.table_id, message.version, message.role, message.status,
            v1_view(message.view), message.players, message.chat,
        )  # fmt: skip
    if isinstance(message, State):
        return attrs.evolve(message, view=v1_view(message.view))
    if isinstance(message, Update):
        return attrs.evolve(message, view=v1_view(message.view), events=v1_events(message.events))
    return message


def _without_days(lobby: Lobby) -> Lobby:
    """Versions 1 and 2 do not list a game of days: version 2's time control has no valid way to
    say one (a listing's clock is a time_control a client may send back), and version 1 would
    show it as a game without a clock, its deadline unseen."""
    kept = [t for t in lobby.tables if t.clock is None or not t.clock.days]
    return lobby if len(kept) == len(lobby.tables) else Lobby(kept)


def without_tournament(view: dict[str, Any]) -> dict[str, Any]:
    """The view without version 4's `table.tournament` (a tournament's table: its name and
    round); any other view as it is (the same object)."""
    table = view.get("table")
    if not isinstance(table, dict) or "tournament" not in table:
        return view
    return {**view, "table": {k: v for k, v in table.items() if k != "tournament"}}


def v2_view(view: dict[str, Any]) -> dict[str, Any]:
    """The view's clock of a game of days as version 2 has clocks: the time of each turn in
    `per_turn` (days × 86400 seconds), without the keys `days` and `deadline` of version 3;
    any other view as it is (the same object)."""
    table = view.get("table")
    if not isinstance(table, dict):
        return view
    clock = table.get("clock")
    if not isinstance(clock, dict) or "days" not in clock:
        return view
    shown = {key: value for key, value in clock.items() if key not in ("days", "deadline")}
    shown["per_turn"] = clock["days"] * DAY
    return {**view, "table": {**table, "clock": shown}}


def v1_view(view: dict[str, Any]) -> dict[str, Any]:
    if "public" in view:  # a seat's view
        out = {key: view[key] for key in V1_SEAT_KEYS if key in view}
        out["public"] = _v1_public(view["public"])
        return out
    return _v1_public(view)


def _v1_public(public: dict[str, Any]) -> dict[str, Any]:
    out = {key: public[key] for key in V1_PUBLIC_KEYS if key in public}
    result = out.get("result")
    if isinstance(result, dict):
        out["result"] = {"winner": result.get("winner"), "reason": _reason(result)}
    return out


def v1_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for event in events:
        kind = event.get("type")
        if kind not in V1_EVENT_TYPES:
            continue
        if kind == "GameOver" and "reason" not in event:
            event = {
                "type": "GameOver",
                "winner": event.get("winner"),
                "reason": _reason(event),
                "scores": event.get("scores"),
            }
        out.append(event)
    return out


def _reason(result: dict[str, Any]) -> str:
    """The English sentence version 1 sends for a result given by its code."""
    if "reason" in result:
        return str(result["reason"])
    return english_reason(Result.from_dict(result))
