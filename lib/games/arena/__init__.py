"""The Arena: AI-vs-AI matches and tournaments, summary statistics, scaling out.

One job per module:

* :mod:`~lib.games.arena.match`: a match's settings (:class:`MatchConfig`), one
  game played (:func:`play_game`) and its :class:`GameRecord`;
* :mod:`~lib.games.arena.executors`: in-process, process-pool and Dask executors
  (:func:`open_executor`) and :func:`run_tasks`;
* :mod:`~lib.games.arena.tournament`: :func:`run_tournament` and the study builders;
* :mod:`~lib.games.arena.stats`: the per-game table and the summary (Wilson interval);
* :mod:`~lib.games.arena.ladder`: the strength ladder (a round robin at an equal time per
  move, ranked by :mod:`~lib.games.arena.rating`'s Bradley–Terry fit on the Elo scale);
* :mod:`~lib.games.arena.preset`: the studies the games declare (:func:`presets`);
* :mod:`~lib.games.arena.links`: replay links;
* :mod:`~lib.games.arena.options`: game options (hashable form, defaults, parsing);
* :mod:`~lib.games.arena.limits`: the caps of a hosted server and the checks of a study;
* ``__main__``: the command line (``python -m lib.games.arena --help``).

The Arena names no game: games, their options and their presets come from the
discovered :class:`~lib.games.core.GameSpec` objects.

>>> from lib.games.arena import MatchConfig, run_tournament  # doctest: +SKIP
>>> result = run_tournament([MatchConfig("othello", ("alphabeta:depth=3", "random"),
...                                      games=10, options={"size": 6})])  # doctest: +SKIP
>>> result.summary()  # doctest: +SKIP
"""

from lib.games.arena.executors import (
    EXECUTOR_KINDS,
    InlineExecutor,
    default_in_flight,
    open_executor,
    process_pool,
    run_tasks,
)
from lib.games.arena.ladder import LadderConfig, ladder_players, ladder_table, run_ladder
from lib.games.arena.links import (
    MAX_LINK_GAME,
    REPLAY_LINK_PARAMS,
    replay_blocker,
    replay_from_link,
    replay_label,
    replay_link_params,
)
from lib.games.arena.match import (
    MAX_PLIES,
    TIMING_FIELDS,
    GameRecord,
    MatchConfig,
    game_seed,
    play_game,
    play_task,
    spec_depth,
    start_state,
)
from lib.games.arena.options import options_tuple
from lib.games.arena.preset import Preset, presets
from lib.games.arena.rating import Ratings, fit_ratings
from lib.games.arena.stats import (
    GAME_COLUMNS,
    SUMMARY_COLUMNS,
    games_table,
    summarize,
    wilson_interval,
)
from lib.games.arena.tournament import (
    TournamentResult,
    grid_matches,
    pair_matches,
    partition_matches,
    player_pairs,
    run_tournament,
    tournament_tasks,
)

__all__ = [
    "EXECUTOR_KINDS",
    "GAME_COLUMNS",
    "MAX_LINK_GAME",
    "MAX_PLIES",
    "REPLAY_LINK_PARAMS",
    "SUMMARY_COLUMNS",
    "TIMING_FIELDS",
    "GameRecord",
    "InlineExecutor",
    "LadderConfig",
    "MatchConfig",
    "Preset",
    "Ratings",
    "TournamentResult",
    "default_in_flight",
    "fit_ratings",
    "game_seed",
    "games_table",
    "grid_matches",
    "ladder_players",
    "ladder_table",
    "open_executor",
    "options_tuple",
    "pair_matches",
    "partition_matches",
    "play_game",
    "play_task",
    "player_pairs",
    "presets",
    "process_pool",
    "replay_blocker",
    "replay_from_link",
    "replay_label",
    "replay_link_params",
    "run_ladder",
    "run_tasks",
    "run_tournament",
    "spec_depth",
    "start_state",
    "summarize",
    "tournament_tasks",
    "wilson_interval",
]
