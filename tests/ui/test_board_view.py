"""The board's view for a state: the legal-move dots are for the person to move, so they are
hidden while an AI is to move (and thinks), and shown again when it is the person's turn."""

from __future__ import annotations

from lib.games import othello
from lib.games.othello.plots import othello_figure
from lib.games.search.players import parse_player_spec
from lib.games.session import GameSession
from lib.ui.game_board import board_view
from lib.ui.game_sidebar import PageSettings

LEGAL_DOT = "rgba(255,255,255,0.6)"
HUMAN, AI = parse_player_spec("human"), parse_player_spec("alphabeta:depth=1")


def _settings(black, white, *, show_legal: bool = True) -> PageSettings:
    return PageSettings({}, (black, white), show_legal, False, 400, False, False)


def _dots(fig) -> int:
    """The legal-move dots drawn on an Othello board (small translucent white circles)."""
    return sum(s.type == "circle" and s.fillcolor == LEGAL_DOT for s in fig.layout.shapes)


def _figure(session: GameSession, settings: PageSettings):
    view = board_view(session, settings, settings.human_sides, pixels=400)
    return view, othello_figure(session.state, show_legal=view.show_legal)


def test_the_legal_dots_show_for_the_person_to_move_and_hide_while_the_ai_thinks():
    session = GameSession.new(othello.GAME, {})
    person_first = _settings(HUMAN, AI)  # Black (to move) is the person
    view, fig = _figure(session, person_first)
    assert view.show_legal and _dots(fig) == len(session.state.legal_moves()) == 4
    session.play(session.state.legal_moves()[0], None, "human", at_ply=0)  # White (AI) to move
    view, fig = _figure(session, person_first)
    assert not view.show_legal and _dots(fig) == 0
    # AI against AI: never dots; person against person: always, if the sidebar asks
    assert not _figure(GameSession.new(othello.GAME, {}), _settings(AI, AI))[0].show_legal
    assert _figure(session, _settings(HUMAN, HUMAN))[0].show_legal
    assert not _figure(session, _settings(HUMAN, HUMAN, show_legal=False))[0].show_legal
