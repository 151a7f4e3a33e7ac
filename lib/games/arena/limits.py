"""What one visitor may run: the Arena's caps and the checks of a study or an evolution.

A hosted server (many sessions, one small CPU) gets :data:`HOSTED_CAPS`; a
local run with ``AI_SEARCH_LAB_LOCAL=1`` gets :data:`LOCAL_CAPS` and may use a
process pool or a Dask cluster. The checks raise :class:`InputError` with a
plain message naming the setting that is over a cap.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lib.errors import InputError
from lib.games.arena.ladder import LadderConfig, estimated_seconds
from lib.games.arena.match import MatchConfig, spec_depth
from lib.games.arena.preset import Preset
from lib.games.arena.tournament import partition_matches
from lib.settings import LOCAL, local_mode

LOCAL_ENV = LOCAL
"""Set this environment variable to 1 to lift the hosted caps (and allow pools and Dask)."""

NO_PRUNING_KINDS = ("minimax", "expectimax")
"""Search kinds that visit every node to their depth (capped lower than alpha-beta)."""


@dataclass(frozen=True)
class ArenaCaps:
    """Limits on what one visitor may run."""

    max_games_per_match: int
    max_total_games: int
    max_depth: int  # alpha-beta and the other pruning / non-search players
    max_depth_no_pruning: int  # minimax and expectimax (they search every node)
    max_population: int
    max_generations: int
    max_evolution_depth: int
    max_evolution_games: int
    max_endgame: int
    executors: tuple[str, ...]
    max_simulations: int = 5_000  # Monte Carlo tree search: simulations per move
    max_move_seconds: float = math.inf  # any player's time budget per move (``time=``)
    max_ladder_seconds: float = math.inf  # a ladder's estimated thinking time


HOSTED_CAPS = ArenaCaps(
    max_games_per_match=50,
    max_total_games=400,
    max_depth=7,
    max_depth_no_pruning=5,
    max_population=30,
    max_generations=30,
    max_evolution_depth=2,
    max_evolution_games=10_000,
    max_endgame=10,
    executors=("inline",),
    max_move_seconds=1.0,
    max_ladder_seconds=900.0,
)
LOCAL_CAPS = ArenaCaps(
    max_games_per_match=5000,
    max_total_games=100_000,
    max_depth=12,
    max_depth_no_pruning=12,
    max_population=200,
    max_generations=500,
    max_evolution_depth=6,
    max_evolution_games=10_000_000,
    max_endgame=64,
    executors=("inline", "process", "dask"),
    max_simulations=1_000_000,
)


def caps() -> ArenaCaps:
    """Hosted caps unless ``AI_SEARCH_LAB_LOCAL=1`` is set in the environment."""
    return LOCAL_CAPS if local_mode() else HOSTED_CAPS


def over_cap(spec: str, limits: ArenaCaps) -> str | None:
    """Why player ``spec`` searches deeper than ``limits`` allow (None if it does not).

    For Monte Carlo tree search: more simulations per move than ``limits`` allow;
    for any player: a longer time budget per move.
    """
    from lib.games.search.players import MCTS_KIND, parse_player_spec

    config = parse_player_spec(spec)
    if config.time_limit is not None and config.time_limit > limits.max_move_seconds:
        return (
            f"{spec}: {config.time_limit:g} s per move is above this server's limit of "
            f"{limits.max_move_seconds:g} s."
        )
    if config.kind == MCTS_KIND:
        if config.simulations is not None and config.simulations > limits.max_simulations:
            return (
                f"{spec}: {config.simulations:,} simulations per move is above this server's "
                f"limit of {limits.max_simulations:,}."
            )
        return None
    depth = spec_depth(spec)
    if depth is None:
        return None
    kind = config.kind
    cap = limits.max_depth_no_pruning if kind in NO_PRUNING_KINDS else limits.max_depth
    if depth > cap:
        return f"{spec}: depth {depth} is above this server's limit of {cap} for {kind}."
    return None


def within_caps(match: MatchConfig, limits: ArenaCaps) -> bool:
    """True if neither player of ``match`` searches deeper than ``limits`` allow."""
    return not any(over_cap(spec, limits) for spec in match.players)


def default_preset(
    presets: Mapping[str, Preset], limits: ArenaCaps, max_depth: int | None = None
) -> str | None:
    """The preset a first visit runs: the first whose players all fit ``limits`` and search
    no deeper than ``max_depth`` (the preset form's default), so none is left out (None: none).
    """
    for key, preset in presets.items():
        every = preset.matches(games=1)
        if len(preset.matches(games=1, max_depth=max_depth)) == len(every) and all(
            within_caps(match, limits) for match in every
        ):
            return key
    return None


def leave_out_over_caps(
    chosen: Sequence[MatchConfig], limits: ArenaCaps
) -> tuple[list[MatchConfig], str]:
    """The matches whose players are within the depth caps, and a note naming the others.

    The note is empty when nothing was left out. Raises :class:`InputError`
    (why) if no match is left, so a study is not silently empty.
    """
    matches, left_out = partition_matches(chosen, lambda m: within_caps(m, limits))
    if left_out and not matches:
        raise InputError(
            next(filter(None, (over_cap(s, limits) for m in left_out for s in m.players)))
        )
    if not left_out:
        return matches, ""
    return matches, (
        f"Left out (deeper than this server allows for minimax / expectimax, "
        f"{limits.max_depth_no_pruning}): {', '.join(m.label for m in left_out)}."
    )


def check_matches(matches: Sequence[MatchConfig], limits: ArenaCaps) -> None:
    """Raise :class:`InputError` if a study is invalid or exceeds ``limits``."""
    from lib.games.search.players import parse_player_spec

    total = sum(m.games for m in matches)
    if total > limits.max_total_games:
        raise InputError(
            f"This study plays {total} games; the limit here is {limits.max_total_games}. "
            "Use fewer games per match or fewer matches (or run it from the command line)."
        )
    for match in matches:
        match.validate()
        if match.games > limits.max_games_per_match:
            raise InputError(
                f"{match.label}: {match.games} games; the limit here is "
                f"{limits.max_games_per_match} per match."
            )
        for spec in match.players:
            problem = over_cap(spec, limits)
            if problem:
                raise InputError(problem)
            endgame = parse_player_spec(spec).endgame_exact
            if endgame is not None and endgame > limits.max_endgame:
                raise InputError(
                    f"{spec}: an exact endgame over {endgame} moves is above this server's "
                    f"limit of {limits.max_endgame}."
                )


def check_ladder(config: LadderConfig, limits: ArenaCaps) -> list[MatchConfig]:
    """The ladder's matches, or :class:`InputError` if it is invalid or exceeds ``limits``.

    Besides the checks of every study (:func:`check_matches`), a player's time
    per move must be within ``max_move_seconds`` and the ladder's estimated
    thinking time (:func:`~lib.games.arena.ladder.estimated_seconds`) within
    ``max_ladder_seconds``.
    """
    from lib.games.search.players import parse_player_spec

    matches = config.matches()
    check_matches(matches, limits)
    for spec in config.roster():
        budget = parse_player_spec(spec).time_limit
        if budget is not None and budget > limits.max_move_seconds:
            raise InputError(
                f"{spec}: {budget:g} s per move is above this server's limit of "
                f"{limits.max_move_seconds:g} s."
            )
    estimate = estimated_seconds(config)
    if estimate > limits.max_ladder_seconds:
        raise InputError(
            f"This ladder may think for about {estimate / 60:.0f} minutes "
            f"({sum(m.games for m in matches)} games at {config.time_per_move:g} s per move); "
            f"the limit here is {limits.max_ladder_seconds / 60:.0f}. Use fewer games per pair, "
            "less time per move or fewer players (or run it from the command line)."
        )
    return matches


def check_weight_range(low: float, high: float) -> None:
    """Raise :class:`InputError` unless ``low < high`` (the evolution form's weight range)."""
    if not low < high:
        raise InputError(
            f"Lowest weight ({low:g}) must be below Highest weight ({high:g}): the weights are "
            "drawn from that range. Swap the two values, or widen the range."
        )


def check_evolution(config: Any, limits: ArenaCaps) -> None:
    """Raise :class:`InputError` if an evolution run (an ``EvolutionConfig``) exceeds ``limits``."""
    from lib.games.arena.evolve import games_per_generation

    if config.population > limits.max_population:
        raise InputError(f"Population is limited to {limits.max_population} here.")
    if config.generations > limits.max_generations:
        raise InputError(f"Generations are limited to {limits.max_generations} here.")
    if config.depth > limits.max_evolution_depth:
        raise InputError(f"Search depth is limited to {limits.max_evolution_depth} here.")
    total = games_per_generation(config) * config.generations
    if total > limits.max_evolution_games:
        raise InputError(
            f"This evolution plays {total:,} games; the limit here is "
            f"{limits.max_evolution_games:,}. Use more leagues (smaller round robins), fewer "
            "games per pair or fewer generations."
        )
    check_matches(
        [MatchConfig(config.game, (config.benchmark, "random"), options=config.options)], limits
    )
