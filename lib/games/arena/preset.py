"""Presets: the ready-made studies the games offer (the course's tables).

Each game declares its studies in its spec (``GameSpec.presets``, a tuple of
:class:`~lib.games.core.ArenaPreset`); :func:`presets` collects them from every
discovered game when called, so a new game's studies appear in the Arena page
and the CLI without editing this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lib.games.arena.match import MatchConfig, spec_depth
from lib.games.core import ArenaPreset, GameSpec, available_games


@dataclass(frozen=True)
class Preset:
    """A game's ready-made study: an :class:`ArenaPreset` with the name of its game.

    ``pairs`` are ``(label, spec A, spec B)``; ``games`` is the course's number
    of games per match. In the pruning studies "without pruning" is minimax and
    "with pruning" is plain alpha-beta (no move ordering, no transposition
    table) so that only pruning differs.
    """

    key: str
    title: str
    description: str
    game: str
    options: tuple[tuple[str, Any], ...]
    pairs: tuple[tuple[str, str, str], ...]
    games: int

    @classmethod
    def of(cls, game: str, study: ArenaPreset) -> Preset:
        """``study`` as offered by the game called ``game``."""
        return cls(
            key=study.key,
            title=study.title,
            description=study.description,
            game=game,
            options=tuple(study.options),
            pairs=tuple(study.pairs),
            games=study.games,
        )

    def matches(
        self, games: int | None = None, seed: int = 0, max_depth: int | None = None
    ) -> list[MatchConfig]:
        """The preset's matches, ``games`` each, without players deeper than ``max_depth``."""
        chosen = []
        for label, a, b in self.pairs:
            depths = [d for d in (spec_depth(a), spec_depth(b)) if d is not None]
            if max_depth is not None and any(d > max_depth for d in depths):
                continue
            chosen.append(
                MatchConfig(
                    self.game,
                    (a, b),
                    games=games or self.games,
                    seed=seed,
                    options=self.options,
                    label=label,
                )
            )
        return chosen


def collect_presets(games: dict[str, GameSpec]) -> dict[str, Preset]:
    """The studies of ``games`` by key, in the games' order, each game's in its own order.

    Raises ``ValueError`` when two studies share a key (a key names one study
    in links and on the command line).
    """
    found: dict[str, Preset] = {}
    for name, spec in games.items():
        for study in spec.presets:
            if study.key in found:
                raise ValueError(
                    f"Preset key {study.key!r} of {name} is already used by "
                    f"{found[study.key].game}; preset keys must be unique across games."
                )
            found[study.key] = Preset.of(name, study)
    return found


def presets() -> dict[str, Preset]:
    """Every discovered game's studies by key (see :func:`collect_presets`).

    Built when called, from :func:`lib.games.core.available_games`.
    """
    return collect_presets(available_games())
