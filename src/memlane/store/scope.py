"""Tenancy as a scope of user ids, applied where the stores build their queries.

The REST service serves many tenants from one database. Tenant ``acme``'s user ``u1`` and tenant
``globex``'s user ``u1`` are different people, so every user id is stored as ``"acme/u1"``. Each
store role takes a :class:`Scope` and maps user ids through it on the way in and out, so a
``Memory`` built on ``stores.within(Scope("acme"))`` cannot name, read, change or even detect another
tenant's rows, whatever its callers pass::

    acme = Memory(store=stores.within(Scope("acme")))

Tenant names are ``[a-z0-9][a-z0-9_-]*`` and never contain ``/``, so a scoped id splits back into its
tenant and user id in exactly one way, whatever the user id holds.

A scope can also hold one user of its tenant (a user-scoped API key's): ``Scope("acme", user="u1")``
maps ``u1`` alone, refuses every other user id with :class:`~memlane.errors.NotFound`, and sees no
other user's rows (``users()`` names ``u1`` only)::

    Memory(store=stores.within(Scope("acme", user="u1"))).search("tea", user_id="u2")  # NotFound
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from memlane.errors import InvalidInput, NotFound

TENANT_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")


class _Owned(Protocol):
    @property
    def user_id(self) -> str: ...


_T = TypeVar("_T", bound=_Owned)


def check_tenant(name: str) -> str:
    """``name`` if it is a valid tenant name, else :class:`InvalidInput`."""
    if not TENANT_PATTERN.fullmatch(name):
        raise InvalidInput(
            f"tenant {name!r} must be 1-63 characters of a-z, 0-9, '_' and '-', "
            "starting with a letter or digit"
        )
    return name


@dataclass(frozen=True)
class Scope:
    """The user ids one tenant may see (every user id when ``tenant`` is None), or only ``user``."""

    tenant: str | None = None
    user: str | None = None

    def __post_init__(self) -> None:
        if self.tenant is not None:
            check_tenant(self.tenant)
        if self.user is not None and self.tenant is None:
            raise InvalidInput("a scope of one user needs its tenant")

    @property
    def prefix(self) -> str:
        """What a stored user id of this tenant starts with (``""`` unscoped)."""
        return f"{self.tenant}/" if self.tenant is not None else ""

    def inward(self, user_id: str) -> str:
        """The stored id of the tenant's user ``user_id`` (:class:`NotFound` outside a one-user scope)."""
        if self.user is not None and user_id != self.user:
            raise NotFound(f"user {user_id!r} is outside this scope: it reaches user {self.user!r} only")
        return self.prefix + user_id

    def outward(self, stored: str) -> str:
        """The tenant's own id of a stored user id."""
        return stored.removeprefix(self.prefix)

    def mine(self, stored: str | None) -> bool:
        """Whether a stored user id belongs to this tenant (to its one user, when it has one)."""
        if stored is None:
            return False
        if self.user is not None:
            return stored == self.prefix + self.user
        return stored.startswith(self.prefix)

    def owner(self, stored: str | None) -> str | None:
        """The tenant's own id of a stored owner, None when it belongs to someone else (or no one)."""
        return self.outward(stored) if stored is not None and self.mine(stored) else None

    def put(self, obj: _T) -> _T:
        """A copy of ``obj`` under its stored user id (``obj`` itself when unscoped)."""
        if self.tenant is None:
            return obj
        return replace(obj, user_id=self.inward(obj.user_id))  # type: ignore[type-var]

    def got(self, obj: _T) -> _T:
        """A copy of ``obj``, read from the store, under the tenant's own user id (``obj`` unscoped)."""
        if self.tenant is None:
            return obj
        return replace(obj, user_id=self.outward(obj.user_id))  # type: ignore[type-var]


UNSCOPED = Scope()
