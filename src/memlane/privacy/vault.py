"""Encrypted originals of memories: sealing them as they are written, opening them for the owner who
asks, and re-sealing every one under a new key.

The memory row keeps the masked sentence (what every index, stage and default read sees); the vault
keeps the sentence with its values, sealed under the data key with the key's id beside it::

    vault = Vault(stores, lambda: os.environ["MEMLANE_DATA_KEY"])
    vault.seal(item, original_message)          # after the write path stored ``item``
    vault.open("u1", [item])[0].text            # the sentence with the phone number, for its owner
    vault.rotate(old_key, new_key)              # every sealed text, under the new key
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from memlane.domain import MemoryItem
from memlane.errors import ConfigurationError, InvalidInput
from memlane.privacy import sensitive
from memlane.privacy.crypto import DataKey, KeyProvider, context_of
from memlane.store import SealedUnderKey, Stores
from memlane.vocabulary import SealedText


class Vault:
    """Seals and opens the encrypted originals of one store's memories."""

    def __init__(self, stores: Stores, keys: KeyProvider | None) -> None:
        self.stores = stores
        self._keys = keys

    @property
    def configured(self) -> bool:
        """Whether a data key can be had."""
        return self._keys is not None

    def key(self) -> DataKey:
        """The current data key; :class:`ConfigurationError` when none is configured."""
        if self._keys is None:
            raise ConfigurationError(
                "encrypted memories need a data key: set MEMLANE_DATA_KEY (memlane data-key new) "
                "or pass Memory(key_provider=...)"
            )
        return DataKey.parse(self._keys())

    def seal(self, item: MemoryItem, original: str) -> bool:
        """Seal ``item``'s sentence with the values ``original`` (the message it came from) holds in
        place of its placeholders; False when there was nothing to restore.
        """
        sealed = self.sealed_text(item, original)
        if sealed is not None:
            self.stores.sealed.put(sealed)
        return sealed is not None

    def sealed_text(self, item: MemoryItem, original: str) -> SealedText | None:
        """What :meth:`seal` stores (nothing is stored here): ``item``'s sentence with the values of
        ``original`` restored, under the data key; None when there is nothing to restore.
        """
        plain = sensitive.reveal(item.text, original)
        key = self.key()
        if sensitive.PLACEHOLDER.search(plain):
            # a merged memory may hold values said earlier: its previous original still knows them
            before = self.stores.sealed.get(item.user_id, [item.id]).get(item.id)
            if before is not None and before.key_id == key.key_id:
                plain = sensitive.reveal(plain, key.open(before.body, context_of(item.user_id, item.id)))
        if plain == item.text:
            return None
        body = key.seal(plain, context_of(item.user_id, item.id))
        return SealedText(item.user_id, item.id, key.key_id, body)

    def open(self, user_id: str, items: Sequence[MemoryItem]) -> list[MemoryItem]:
        """``items`` with the text of each sealed one replaced by its original (copies, in order)."""
        found = self.stores.sealed.get(user_id, [m.id for m in items]) if items else {}
        if not found:
            return list(items)
        key = self.key()
        out = []
        for item in items:
            sealed = found.get(item.id)
            if sealed is None:
                out.append(item)
                continue
            if sealed.key_id != key.key_id:
                raise ConfigurationError(
                    f"memory {item.id!r} is sealed under key {sealed.key_id}, not the configured key "
                    f"{key.key_id}: rotate the data key (memlane data-key rotate) or configure the old one"
                )
            out.append(replace(item, text=key.open(sealed.body, context_of(user_id, item.id))))
        return out

    def rotate(self, old: DataKey, new: DataKey) -> int:
        """Re-seal every text sealed under ``old`` with ``new``; returns how many. Safe to run again
        after an interruption: what is already under ``new`` is not touched.
        """
        if old.key_id == new.key_id:
            raise InvalidInput("the new data key is the old one")
        sealed = self.stores.sealed
        if not isinstance(sealed, SealedUnderKey):
            raise ConfigurationError(
                f"{type(sealed).__name__} cannot list originals by key, so it cannot rotate them"
            )
        done = 0
        while True:
            batch = sealed.sealed_under(old.key_id)
            if not batch:
                return done
            for s in batch:
                context = context_of(s.user_id, s.memory_id)
                body = new.seal(old.open(s.body, context), context)
                self.stores.sealed.put(replace(s, key_id=new.key_id, body=body))
            done += len(batch)
