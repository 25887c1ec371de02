"""A computer player that sits at a table like anyone else.

It receives the same messages a connection would (its seat's State and Update), decides from its
own SeatView with shared.ai.choose_action, and submits its action as a Command through the same
path as a person, after a short, human-like delay (zero in tests).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

from protocol.messages import Command, PlayersChanged, ServerMessage, State, StatusName, Update
from shared.ai import choose_action
from shared.views import ViewFormatError, seat_view_from_dict

log = logging.getLogger(__name__)

Submit = Callable[[int, Command], Awaitable[None]]


class ComputerPlayer:
    def __init__(
        self,
        member: int,
        table_id: str,
        submit: Submit,
        *,
        delay: float = 0.8,
        rng: random.Random | None = None,
    ) -> None:
        self.member = member
        self.table_id = table_id
        self.submit = submit
        self.delay = delay
        self.rng = rng or random.Random()
        self.status: StatusName = "waiting"
        self._task: asyncio.Task[None] | None = None
        self._last: tuple[int, dict[str, Any]] | None = None

    def receive(self, message: ServerMessage) -> None:
        """A message addressed to this player."""
        if isinstance(message, State | PlayersChanged):
            self.status = message.status
        if isinstance(message, State | Update):
            self._last = (message.version, message.view)
        if isinstance(message, State | Update | PlayersChanged) and self._last is not None:
            self._consider(*self._last)

    def _consider(self, version: int, view_data: dict[str, Any]) -> None:
        if self.status != "playing":
            return
        try:
            view = seat_view_from_dict(view_data)
        except ViewFormatError:
            log.exception("computer at %s got a malformed view", self.table_id)
            return
        if view.turn_context() is None or view.public.result is not None:
            return
        self.cancel()
        self._task = asyncio.get_running_loop().create_task(self._play(version, view_data))

    async def _play(self, version: int, view_data: dict[str, Any]) -> None:
        if self.delay > 0:
            await asyncio.sleep(self.delay * (0.6 + 0.8 * self.rng.random()))
        else:
            await asyncio.sleep(0)
        try:
            view = seat_view_from_dict(view_data)
            action = choose_action(view, self.rng)
        except Exception:
            log.exception("the computer found no action at %s", self.table_id)
            return
        self._task = None  # from here on the command is on its way: no cancelling it
        await self.submit(self.member, Command(self.table_id, version, str(action)))

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None
