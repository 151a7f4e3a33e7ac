"""Replay links: naming a finished game, and the URL parameters that play it again.

A link carries no moves: the players, the seed and the game's number decide
every move (see :func:`lib.games.arena.match.play_game`), so
:func:`replay_from_link` rebuilds the match and the game is played again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lib.errors import InputError
from lib.games.arena.match import MAX_PLIES, GameRecord, MatchConfig
from lib.games.arena.options import option_from_text
from lib.games.core import available_games


def replay_label(record: GameRecord) -> str:
    """How a finished game is named in the list of games to replay.

    The game number is the record's own (from 0), as in the per-game table and CSV.
    """
    return f"{record.label} · game {record.game} · winner {record.winner}"


REPLAY_LINK_PARAMS = ("replay", "r_a", "r_b", "r_seed", "r_game", "r_first", "r_plies", "r_label")
"""URL parameters of a shared replay; game options add ``o_<option>`` (e.g. ``o_size``).

The ``r_`` prefix keeps them apart from the Arena study form's own ``seed`` / ``games``.
"""

MAX_LINK_GAME = 10**9
"""Highest game number a replay link may name."""


def replay_blocker(match: MatchConfig) -> str | None:
    """Why the games of ``match`` cannot be reproduced from a link (None if they can).

    A player with a time budget searches as deep as the clock allows, so its
    moves depend on the machine's speed and load, not only on the seed.
    """
    from lib.games.search.players import AGENT_KIND, parse_player_spec

    for spec in match.players:
        if parse_player_spec(spec).kind == AGENT_KIND:  # on this machine only, on a clock
            return f"{spec} is an agent file: its games cannot be replayed from a link."
        if parse_player_spec(spec).time_limit is not None:
            return (
                f"{spec} plays with a time budget, so its moves depend on the machine's "
                "speed: the game cannot be replayed from a link."
            )
    return None


def replay_link_params(record: GameRecord, match: MatchConfig) -> dict[str, str]:
    """URL parameters from which :func:`replay_from_link` reproduces ``record``.

    The game is reproduced from the players, the seed and the game's number
    (which decide the colours, a coin toss for the first move and every random choice);
    ``r_first`` is the player who moved first, checked on arrival. No moves are
    stored in the link. Raises :class:`InputError` for a match with a time
    budget (see :func:`replay_blocker`).
    """
    blocker = replay_blocker(match)
    if blocker:
        raise InputError(blocker)
    params = {
        "replay": match.game,
        "r_a": match.players[0],
        "r_b": match.players[1],
        "r_seed": str(match.seed),
        "r_game": str(record.game),
        "r_first": str(record.first_player),
    }
    params.update({f"o_{name}": str(value) for name, value in match.options})
    if match.max_plies != MAX_PLIES:
        params["r_plies"] = str(match.max_plies)
    if match.label != f"{match.players[0]} vs {match.players[1]}":
        params["r_label"] = match.label
    return params


def _link_int(params: Mapping[str, str], name: str, low: int, high: int) -> int | None:
    text = params.get(name)
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"The replay link's {name}={text!r} is not a whole number.") from None
    if not low <= value <= high:
        raise InputError(f"The replay link's {name}={value} is outside {low}–{high}.")
    return value


def replay_from_link(params: Mapping[str, str]) -> tuple[MatchConfig, int, int | None]:
    """The match, the game number and the recorded first player of a replay link.

    ``params`` are the URL parameters written by :func:`replay_link_params`.
    Raises :class:`InputError` naming the parameter that is missing or wrong
    (unknown game or option value, invalid player spec, number out of range).
    """
    game = params.get("replay", "")
    games = available_games()
    if game not in games:
        raise InputError(f"The replay link's game {game!r} is not one of {', '.join(games)}.")
    spec = games[game]
    missing = [name for name in ("r_a", "r_b", "r_seed", "r_game") if not params.get(name)]
    if missing:
        raise InputError(f"The replay link lacks {', '.join(missing)}.")
    options: dict[str, Any] = {}
    for name in spec.options:
        text = params.get(f"o_{name}")
        if text is not None:
            options[name] = option_from_text(spec, name, text, f"The replay link's o_{name}")
    seed = _link_int(params, "r_seed", 0, 2**63 - 1)
    number = _link_int(params, "r_game", 0, MAX_LINK_GAME)
    plies = _link_int(params, "r_plies", 1, MAX_PLIES)
    starts = _link_int(params, "r_first", 0, 1)
    match = MatchConfig(
        game,
        (params["r_a"], params["r_b"]),
        games=1,
        seed=seed or 0,
        options=options,
        label=params.get("r_label", "")[:120],
        max_plies=plies or MAX_PLIES,
    )
    match.validate()
    blocker = replay_blocker(match)
    if blocker:
        raise InputError(blocker)
    return match, number or 0, starts
