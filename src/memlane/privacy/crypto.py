"""Field-level encryption of sensitive originals: AES-256-GCM under a data key, with a key id.

A memory whose sensitive category is set to ``"encrypt"`` is stored and indexed as its masked
sentence (``我的手机号是[已隐藏:手机号]``); the sentence with the value in it is sealed here and kept
beside the row, readable only with the key. Each sealed text carries the id of the key that sealed
it, and is bound to its user and memory id (associated data), so a ciphertext copied onto another
row does not open::

    key = DataKey.generate()
    body = key.seal("my phone is +44 20 7946 0958", context="u1/m1")
    key.open(body, context="u1/m1")     # 'my phone is +44 20 7946 0958'

Keys come from ``Settings.data_key`` (``MEMLANE_DATA_KEY``: 32 bytes, base64) or from a
``key_provider`` callable given to ``Memory``; ``Memory.rotate_data_key(old, new)`` re-seals every
sealed text under a new key.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from memlane.errors import ConfigurationError
from memlane.extras import optional

_NONCE = 12
_KEY_BYTES = 32

KeyProvider = Callable[[], "str | bytes | DataKey"]
"""Returns the current data key: a :class:`DataKey`, 32 raw bytes, or their base64 text."""


@dataclass(frozen=True)
class DataKey:
    """A 256-bit key for sealing sensitive originals; its id is a fingerprint safe to store."""

    secret: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.secret) != _KEY_BYTES:
            raise ConfigurationError(f"a data key is {_KEY_BYTES} bytes, not {len(self.secret)}")

    @classmethod
    def generate(cls) -> DataKey:
        """A new random key."""
        return cls(os.urandom(_KEY_BYTES))

    @classmethod
    def parse(cls, value: str | bytes | DataKey) -> DataKey:
        """A key from its base64 text (standard or URL-safe), its raw bytes, or a key."""
        if isinstance(value, DataKey):
            return value
        if isinstance(value, bytes) and len(value) == _KEY_BYTES:
            return cls(value)
        text = value.decode("ascii", "replace") if isinstance(value, bytes) else value
        try:
            raw = base64.b64decode(text.strip().replace("-", "+").replace("_", "/"), validate=True)
        except (binascii.Error, ValueError):
            raise ConfigurationError("a data key must be 32 bytes in base64 (memlane data-key new)") from None
        return cls(raw)

    @property
    def key_id(self) -> str:
        """A short fingerprint of the key (not the key): stored with each text it seals."""
        return hashlib.sha256(b"memlane data key\x00" + self.secret).hexdigest()[:16]

    def encoded(self) -> str:
        """The key as base64 text, the form ``MEMLANE_DATA_KEY`` takes."""
        return base64.b64encode(self.secret).decode("ascii")

    def seal(self, plaintext: str, context: str) -> str:
        """``plaintext`` encrypted and authenticated, bound to ``context``, as base64 text."""
        with optional("an encrypted memory"):
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        nonce = os.urandom(_NONCE)
        sealed = AESGCM(self.secret).encrypt(nonce, plaintext.encode("utf-8"), context.encode("utf-8"))
        return base64.b64encode(nonce + sealed).decode("ascii")

    def open(self, body: str, context: str) -> str:
        """The plaintext :meth:`seal` sealed under ``context``; a wrong key or tampering is an error."""
        with optional("an encrypted memory"):
            from cryptography.exceptions import InvalidTag
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        raw = base64.b64decode(body)
        try:
            plain = AESGCM(self.secret).decrypt(raw[:_NONCE], raw[_NONCE:], context.encode("utf-8"))
        except InvalidTag:
            raise ConfigurationError(
                "a sealed memory does not open with this key: wrong key, or the data was altered"
            ) from None
        return plain.decode("utf-8")


def context_of(user_id: str, memory_id: str) -> str:
    """The associated data that binds a sealed text to its row."""
    return f"{user_id}\x00{memory_id}"
