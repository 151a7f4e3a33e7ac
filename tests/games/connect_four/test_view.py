"""Connect Four's board adapter: the proved value of each move, cached only when complete."""

from __future__ import annotations

from lib.games import connect_four
from lib.games.connect_four import solver, view


def test_a_partial_answer_is_not_cached_and_a_complete_one_is(monkeypatch):
    # a busy machine may settle only some moves: a later ask must be able to settle them all
    state = connect_four.state_from_moves("dddddbbebbdgbgggbgeeeaae")
    legal = state.legal_moves()
    calls = []

    def verdicts(position, *, time_limit, book=None):
        calls.append(position)
        settled = legal[:1] if len(calls) == 1 else legal
        return {m: solver.MoveVerdict(m, 1, (m,), 24) for m in settled}

    monkeypatch.setattr(solver, "move_verdicts", verdicts)
    view.every_move_settled.cache_clear()
    try:
        assert list(view.move_insight(state)) == legal[:1]
        assert list(view.move_insight(state)) == legal  # asked again, not the partial answer
        assert view.move_insight(state) is view.move_insight(state)  # now cached
        assert len(calls) == 2
        words, line = view.move_insight(state)[legal[0]]
        # the stand-in's one-move line stops short of the win: marked as cut short
        assert words == "wins in 17 plies" and line == connect_four.format_move(legal[0]) + "…"
    finally:
        view.every_move_settled.cache_clear()
