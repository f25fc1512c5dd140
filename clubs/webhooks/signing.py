"""The signature of a webhook delivery: HMAC-SHA256 of the timestamp and the body.

Responsible for: ``signature_header`` (what Amarrako sends in ``X-Amarrako-Signature``) and
``signature_valid`` (what a receiver runs to trust a delivery), pure functions of bytes and
numbers. The header reads ``t=<unix seconds>,v1=<hex>``, where ``<hex>`` is the HMAC-SHA256,
keyed with the webhook's secret, of ``<unix seconds>.`` followed by the exact body. Signing
the timestamp with the body lets a receiver refuse a replay: a captured delivery sent again
later carries its old time, and changing the time breaks the signature.

Must not: import Django or anything of the service (a receiver may copy this file as it is).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: how old (or how far in the future) a delivery's timestamp may be, in seconds
TOLERANCE_SECONDS = 300


def new_secret() -> str:
    """A webhook's secret: 32 random bytes, URL-safe text."""
    return "whsec_" + secrets.token_urlsafe(32)


def signature(secret: str, timestamp: int, body: bytes) -> str:
    message = str(int(timestamp)).encode() + b"." + body
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={int(timestamp)},v1={signature(secret, timestamp, body)}"


def signature_valid(
    secret: str, header: str, body: bytes, now: float, tolerance: int = TOLERANCE_SECONDS
) -> bool:
    """True if ``header`` signs ``body`` with ``secret`` at a time within ``tolerance`` of
    ``now`` (unix seconds). Compares in constant time."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > tolerance:
        return False
    return hmac.compare_digest(parts.get("v1", ""), signature(secret, timestamp, body))
