"""A class contest of the students' own evaluation functions, class polls, and their database.

Plain Python over one store (:mod:`lib.contest.store`: SQLAlchemy, an SQLite file by default,
PostgreSQL through a URL): contests, entries and their versions, games, ratings, polls and
their answers. Nothing here imports Streamlit (:mod:`lib.ui.contest_common` does the page
side), and :mod:`lib.games` knows nothing of contests: a contest plays its games with the
Arena's match code (:mod:`lib.games.arena.match`) and rates them with the ladder's model
(:mod:`lib.games.arena.rating`).
"""
