"""Names, join codes and secrets: what a person types or holds, checked and normalised.

* A display name is at most :data:`MAX_NAME` characters after NFKC normalisation and
  trimming, has no control characters, and is compared by its *key*: NFKC, casefolded,
  with confusable look-alikes folded (:data:`CONFUSABLES`) and spaces and separators
  dropped, so ``"Ada"``, ``"ＡＤＡ"``, ``"ada "`` and Cyrillic ``"Аda"`` are one name.
* A join code is :data:`CODE_LENGTH` letters and digits from an alphabet without
  look-alikes (no 0/O, 1/I/L), read case-insensitively with spaces and dashes ignored.
* An entry's author token is ``secrets.token_urlsafe``; the database keeps only its
  SHA-256, and tokens and the instructor's key are compared with ``hmac.compare_digest``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

from lib.errors import InputError

MAX_NAME = 40
"""The longest display name (characters, after normalisation)."""

MAX_TYPED = 10_000
"""Longer text is refused before any other work is done on it."""

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Join-code characters: no 0/O, 1/I/L look-alikes."""

CODE_LENGTH = 6
"""Characters in a join code (31⁶ ≈ 900 million codes)."""

TOKEN_BYTES = 24
"""Random bytes in an author token (32 URL-safe characters)."""

CONFUSABLES = str.maketrans(
    {
        # Cyrillic and Greek letters drawn like Latin ones (after casefolding)
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
        "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
        "τ": "t", "υ": "u", "χ": "x",
        # digits and signs read as letters
        "0": "o", "1": "l", "|": "l", "5": "s", "$": "s", "@": "a",
    }
)  # fmt: skip
"""Characters folded into the Latin letter they look like when names are compared."""


def _check_typed(text: object, what: str) -> str:
    """``text`` as a string, refused when it is not one or is over :data:`MAX_TYPED`."""
    if not isinstance(text, str):
        raise InputError(f"{what} must be text.")
    if len(text) > MAX_TYPED:
        raise InputError(f"{what} is {len(text):,} characters long; that is far too long.")
    return text


def clean_name(text: object) -> str:
    """The display name to keep: NFKC-normalised, inner spaces collapsed, checked.

    Raises :class:`InputError` for an empty name, one over :data:`MAX_NAME` characters, or
    one with control or invisible characters (named by position).
    """
    name = " ".join(unicodedata.normalize("NFKC", _check_typed(text, "A name")).split())
    if not name:
        raise InputError("Type a display name (letters, digits, spaces).")
    if len(name) > MAX_NAME:
        raise InputError(f"A display name may have at most {MAX_NAME} characters, not {len(name)}.")
    for position, char in enumerate(name, start=1):
        if unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs", "Cn"):
            raise InputError(
                f"Character {position} of the name (U+{ord(char):04X}) is invisible or a "
                "control character; use letters, digits, spaces and punctuation."
            )
    return name


def name_key(name: str) -> str:
    """The key two look-alike names share (see the module docstring).

    >>> name_key("Ada Lovelace") == name_key("ＡＤＡ lovelace") == name_key("Аda-Lovelace")
    True
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    folded = folded.translate(CONFUSABLES)
    kept = [
        char
        for char in unicodedata.normalize("NFKD", folded)
        if not unicodedata.category(char).startswith(("M", "Z", "P", "C"))
    ]
    return "".join(kept) or folded


def new_code() -> str:
    """A random join code (:data:`CODE_LENGTH` characters of :data:`CODE_ALPHABET`)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_code(text: object) -> str:
    """A typed join code, upper-cased with spaces and dashes dropped, checked.

    Raises :class:`InputError` naming what is wrong (length, a character not in codes).
    """
    code = _check_typed(text, "A join code").upper().replace("-", "").replace(" ", "")
    if len(code) != CODE_LENGTH:
        raise InputError(
            f"A join code has {CODE_LENGTH} letters and digits (like K7QM2R); "
            f"this one has {len(code)}."
        )
    for position, char in enumerate(code, start=1):
        if char not in CODE_ALPHABET:
            raise InputError(
                f"Character {position} of the join code is not used in codes "
                "(codes have no 0, O, 1, I or L)."
            )
    return code


def new_token() -> str:
    """A fresh author token (URL-safe, :data:`TOKEN_BYTES` random bytes)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of ``token``: what the database keeps."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def same_secret(given: object, expected: str) -> bool:
    """Whether ``given`` equals ``expected``, compared in constant time (non-text: False)."""
    if not isinstance(given, str) or not expected:
        return False
    return hmac.compare_digest(
        hashlib.sha256(given.encode("utf-8", "replace")).digest(),
        hashlib.sha256(expected.encode("utf-8", "replace")).digest(),
    )
