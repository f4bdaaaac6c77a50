""":class:`AsyncMemory`: every :class:`~memlane.memory.Memory` method as a coroutine.

Each operation is written once, in :class:`Memory`; here it runs in a worker thread so that an
event loop is never blocked by the database or the embedder::

    mem = AsyncMemory(":memory:")
    await mem.add("I prefer email.", user_id="u1")
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

from memlane.memory import Memory

P = ParamSpec("P")
R = TypeVar("R")


def _in_thread(
    method: Callable[Concatenate[Memory, P], R],
) -> Callable[Concatenate[AsyncMemory, P], Awaitable[R]]:
    async def run(self: AsyncMemory, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(method, self.sync, *args, **kwargs)

    run.__name__, run.__qualname__, run.__doc__ = method.__name__, method.__name__, method.__doc__
    return run


class AsyncMemory:
    """The async twin of :class:`Memory`; takes the same constructor arguments."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.sync = Memory(*args, **kwargs)

    add = _in_thread(Memory.add)
    remember = _in_thread(Memory.remember)
    search = _in_thread(Memory.search)
    context = _in_thread(Memory.context)
    profile = _in_thread(Memory.profile)
    profile_history = _in_thread(Memory.profile_history)
    session = _in_thread(Memory.session)
    list = _in_thread(Memory.list)
    get = _in_thread(Memory.get)
    history = _in_thread(Memory.history)
    update = _in_thread(Memory.update)
    delete = _in_thread(Memory.delete)
    forget = _in_thread(Memory.forget)
    export = _in_thread(Memory.export)
    restore = _in_thread(Memory.restore)
    maintain = _in_thread(Memory.maintain)
    flush = _in_thread(Memory.flush)
    end_session = _in_thread(Memory.end_session)
    feedback = _in_thread(Memory.feedback)
    stale = _in_thread(Memory.stale)
    user_summary = _in_thread(Memory.user_summary)
    audit = _in_thread(Memory.audit)
    set_consent = _in_thread(Memory.set_consent)
    consent = _in_thread(Memory.consent)
    rotate_data_key = _in_thread(Memory.rotate_data_key)
    forget_session = _in_thread(Memory.forget_session)
    pop_turn = _in_thread(Memory.pop_turn)
    clear_session = _in_thread(Memory.clear_session)
    close = _in_thread(Memory.close)
    live_sessions = _in_thread(Memory.live_sessions)
    sources = _in_thread(Memory.sources)
    users = _in_thread(Memory.users)
    owner_of = _in_thread(Memory.owner_of)
    forget_messages = _in_thread(Memory.forget_messages)

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
