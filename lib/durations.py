"""Durations written for readers: milliseconds below a second, seconds above."""

from __future__ import annotations


def duration_text(seconds: float) -> str:
    """Seconds in words a reader can compare: milliseconds below a second, since most solves
    take a few (``"0.00 s"`` said nothing), e.g. ``"0.2 ms"``, ``"35 ms"``, ``"1.50 s"``.

    >>> duration_text(0.000196), duration_text(0.0347), duration_text(1.5)
    ('0.2 ms', '35 ms', '1.50 s')
    """
    if seconds >= 1:
        return f"{seconds:.2f} s"
    milliseconds = seconds * 1000
    return f"{milliseconds:.1f} ms" if milliseconds < 9.95 else f"{milliseconds:.0f} ms"
