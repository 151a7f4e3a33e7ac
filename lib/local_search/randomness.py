"""One stream of uniform random numbers that the textbook code and the compiled code both read.

Every random choice of a local search is made from the next number ``u`` in
``[0, 1)`` of a :class:`Uniforms` stream: a choice among ``k`` things is
``int(u * k)``. The textbook algorithms take one number at a time
(:meth:`Uniforms.uniform`); the compiled fast paths are handed the buffer and
the position of the next unused number, and hand back the new position. So a
readable run and a fast run from the same seed make the same choices and end
in the same state, which the tests check.

>>> first, second = Uniforms(1), Uniforms(1)
>>> [first.below(8) for _ in range(5)] == [second.below(8) for _ in range(5)]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")

CHUNK = 4096
"""Numbers drawn from the generator at a time."""


class Uniforms:
    """A stream of uniform numbers in ``[0, 1)`` from a seed or a NumPy ``Generator``."""

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self.generator = (
            seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        )
        self.buffer = self.generator.random(CHUNK)
        self.position = 0

    def ensure(self, count: int) -> None:
        """Make at least ``count`` unused numbers wait in :attr:`buffer` (the stream unchanged)."""
        left = len(self.buffer) - self.position
        if left < count:
            fresh = self.generator.random(max(CHUNK, count - left))
            self.buffer = np.concatenate((self.buffer[self.position :], fresh))
            self.position = 0

    def uniform(self) -> float:
        """The next number of the stream."""
        self.ensure(1)
        value = float(self.buffer[self.position])
        self.position += 1
        return value

    def below(self, k: int) -> int:
        """A whole number from 0 to ``k - 1``, each equally likely (``int(u * k)``)."""
        return min(int(self.uniform() * k), k - 1)

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items``, each equally likely."""
        return items[self.below(len(items))]

    def weighted(self, items: Sequence[T], weights: Sequence[float]) -> T:
        """One of ``items`` with probability proportional to its weight (roulette wheel)."""
        target = self.uniform() * sum(weights)
        total = 0.0
        for item, weight in zip(items, weights, strict=True):
            total += weight
            if target < total:
                return item
        return items[-1]

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
