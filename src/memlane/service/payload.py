"""What a write-back job carries, and what it keeps of what was said.

A queued job waits in a SQLite file or in Redis, possibly for a long time (workers down, an outage),
so its payload must hold no more than memlane would store: each message is masked before it is
queued exactly as the write path masks it (``我的身份证号是[已隐藏:身份证号]``), with the same
:mod:`memlane.privacy.sensitive` scan. The write path finds the same placeholders in the masked
text and takes the same decisions. Where the privacy policy *encrypts* a kind (``phone:
encrypt``), the memory keeps the value sealed under the data key, so the job needs the original:
that message carries it sealed under the same key (AES-GCM, bound to the message id), never in the
clear. A finished job drops its payload (:meth:`memlane.service.queue.JobQueue.complete`).

::

    payload = payload_of(body, now, "job-seed", settings)   # masked, ready to queue
    messages_of(payload, settings)                          # as Memory.add takes them
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from memlane.clock import aware
from memlane.errors import ConfigurationError
from memlane.privacy import sensitive
from memlane.privacy.crypto import DataKey
from memlane.privacy.policy import SensitivePolicy
from memlane.service.bodies import AddMessages
from memlane.settings import Settings

_CONTEXT = "memlane job message/"  # what a sealed original is bound to, with its message id


def payload_of(body: AddMessages, now: datetime, job_seed: str, settings: Settings) -> dict[str, Any]:
    """The JSON-ready job for ``body``: every message masked, with an id and a time fixed at arrival."""
    seed = body.idempotency_key or job_seed
    policy = SensitivePolicy.from_settings(settings)
    messages = []
    for i, m in enumerate(body.messages):
        derived = hashlib.sha256(f"{seed}\x1f{i}".encode("utf-8", "surrogatepass")).hexdigest()[:24]
        message_id = m.id or f"msg-{derived}"
        message: dict[str, Any] = {
            "role": m.role,
            "content": m.content,
            "name": m.name,
            "id": message_id,
            "at": aware(m.at).isoformat() if m.at else now.isoformat(),
        }
        findings = sensitive.scan(m.content)
        if findings:
            message["content"] = sensitive.redact(m.content, findings)
            if policy.encrypted(sorted({f.kind for f in findings})):
                message["sealed"] = _key(settings).seal(m.content, _CONTEXT + message_id)
        messages.append(message)
    return {"user_id": body.user_id, "session_id": body.session_id, "messages": messages}


def messages_of(payload: dict[str, Any], settings: Settings | None = None) -> list[dict[str, Any]]:
    """The payload's messages as :meth:`memlane.Memory.add` takes them: times parsed back, and the
    sealed original of a message whose sensitive kind the policy encrypts opened (which needs
    ``settings``, for the data key)."""
    out = []
    for raw in payload["messages"]:
        m = {k: v for k, v in raw.items() if v is not None and k != "sealed"}
        m["at"] = datetime.fromisoformat(m["at"])
        if raw.get("sealed"):
            if settings is None:
                raise ConfigurationError("a sealed message needs the settings that hold the data key")
            m["content"] = _key(settings).open(raw["sealed"], _CONTEXT + str(m["id"]))
        out.append(m)
    return out


def message_ids(payload: dict[str, Any]) -> list[str]:
    """The ids of the payload's messages (what withdrawing the job withdraws)."""
    return [str(m["id"]) for m in payload.get("messages", []) if isinstance(m, dict) and m.get("id")]


def _key(settings: Settings) -> DataKey:
    if settings.data_key is None:
        raise ConfigurationError(
            "the privacy policy encrypts this kind of data, and no data key is configured"
        )
    return DataKey.parse(settings.data_key.get_secret_value())
