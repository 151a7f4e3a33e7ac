"""Agent files in the Arena: the examples play, every kind of failure loses its game with
the reason recorded while the tournament goes on, the clock is kept, and nothing of it
runs off a local install."""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games.agent_runner import move_json
from lib.games.arena import MatchConfig, play_game, replay_blocker, run_tournament
from lib.games.arena.agents import (
    GRACE_SECONDS,
    MAX_AGENT_BYTES,
    AgentFault,
    AgentPlayer,
    agent_file,
    agent_spec,
    arena_player,
    refuse_remote_agents,
)
from lib.games.core import available_games, get_game
from lib.games.search.players import PlayerConfig, parse_player_spec
from lib.settings import LOCAL

ROOT = Path(__file__).resolve().parents[3]
GREEDY = ROOT / "examples" / "greedy_agent.py"
TIMED = ROOT / "examples" / "timed_agent.py"

REASONS = ("bad file: ", "crash: ", "timeout: ", "illegal move: ")
"""How every forfeit reason starts."""

BAD_AGENTS = {
    "raises": (
        "def choose_move(state, seconds_left):\n    return 1 / 0\n",
        "crash: ZeroDivisionError",
    ),
    "sleeps": (
        "import time\n\ndef choose_move(state, seconds_left):\n    time.sleep(60)\n",
        "timeout: no move within 0.5 s",
    ),
    "illegal": ("def choose_move(state, seconds_left):\n    return 99\n", "illegal move: 99 "),
    "syntax": ("def choose_move(state, seconds_left)\n    return 0\n", "bad file: "),
    "sys_exit": (
        "import sys\n\ndef choose_move(state, seconds_left):\n    sys.exit(3)\n",
        "crash: called sys.exit(3)",
    ),
    "os_exit": (
        "import os\n\ndef choose_move(state, seconds_left):\n    os._exit(4)\n",
        "crash: its process ended (exit code 4)",
    ),
    "no_function": ("print('hello')\n", "bad file: could not load the file: the file defines no"),
    "import_error": ("import no_such_module_here\n", "bad file: could not load the file: Module"),
    "not_a_move": (
        "def choose_move(state, seconds_left):\n    return 'a1'\n",
        "crash: TypeError: choose_move returned 'a1' (str), which is not a move",
    ),
}
"""Agent files that cannot play: their source and how their forfeit reason starts."""


@pytest.fixture(autouse=True)
def local(monkeypatch):
    monkeypatch.setenv(LOCAL, "1")


def write_agent(folder: Path, name: str, source: str | bytes) -> str:
    path = folder / f"{name}.py"
    if isinstance(source, bytes):
        path.write_bytes(source)
    else:
        path.write_text(source, encoding="utf-8")
    return str(path)


def replay(game: str, moves: str) -> list:
    """The positions of a recorded game, each move parsed (so each was legal)."""
    spec = get_game(game)
    states = [spec.initial_state()]
    for text in moves.split():
        states.append(states[-1].play(spec.parse_move(text, states[-1])))
    return states


def test_the_greedy_example_plays_whole_games_and_its_own_moves():
    spec = f"agent:path={GREEDY}"
    result = run_tournament([MatchConfig("tictactoe", (spec, "random"), games=2, seed=3)])
    assert len(result.records) == 2
    example = importlib.util.spec_from_file_location("greedy_example", GREEDY)
    module = importlib.util.module_from_spec(example)
    example.loader.exec_module(module)
    for record in result.records:
        assert record.forfeit == "" and record.winner in ("A", "draw")  # never loses to random
        states = replay("tictactoe", record.moves)
        assert states[-1].is_terminal()
        agent_side = 0 if record.a_first else 1
        for before, after in itertools.pairwise(states):
            if before.to_move == agent_side:  # the agent's move is the example's own choice
                assert before.play(module.choose_move(before, 1.0)) == after


def test_the_timed_example_plays_on_its_clock_without_losing_a_game_to_it():
    spec = f"agent:path={TIMED},time=0.3"
    record = play_game(MatchConfig("connect_four", (spec, "greedy"), games=1), 0)
    assert record.forfeit == ""
    assert record.plies > 0 and replay("connect_four", record.moves)[-1].is_terminal()
    assert record.seconds_a / record.moves_a < 0.3 + GRACE_SECONDS


def test_each_failure_loses_its_games_with_the_reason_and_the_tournament_goes_on(tmp_path):
    matches = [
        MatchConfig(
            "tictactoe",
            (f"agent:path={write_agent(tmp_path, name, source)},time=0.5", "random"),
            games=2,
        )
        for name, (source, _) in BAD_AGENTS.items()
    ]
    matches.append(MatchConfig("tictactoe", (f"agent:path={GREEDY}", "random"), games=2))
    result = run_tournament(matches)
    assert len(result.records) == 2 * len(matches)
    for record in result.records:
        if record.match == len(BAD_AGENTS):  # the good agent after them all still plays
            assert record.forfeit == "" and record.plies >= 5
            continue
        expected = list(BAD_AGENTS.values())[record.match][1]
        assert record.winner == "B" and record.result_a == 0.0
        assert record.forfeit.startswith(f"A: {expected}"), record.forfeit
        assert record.plies == (0 if record.a_first else 1)  # lost at its first move
    table = result.games_table()
    assert table["forfeit"].str.startswith("A: ").sum() == 2 * len(BAD_AGENTS)


def test_a_syntax_error_names_its_line(tmp_path):
    path = write_agent(tmp_path, "syntax", "x = 1\n\ndef choose_move(state seconds_left):\n")
    record = play_game(MatchConfig("tictactoe", ("random", f"agent:path={path}"), games=1), 0)
    assert record.winner == "A"
    assert record.forfeit.startswith("B: bad file: could not load the file: SyntaxError at line 3")


def test_a_sleeping_agent_is_stopped_on_time(tmp_path):
    path = write_agent(tmp_path, "sleeps", BAD_AGENTS["sleeps"][0])
    player = arena_player(parse_player_spec(f"agent:path={path},time=0.5"), get_game("tictactoe"))
    state = get_game("tictactoe").initial_state()
    player.start()  # loading is not on the move's clock
    start = time.perf_counter()
    with pytest.raises(AgentFault, match=r"timeout: no move within 0\.5 s"):
        player.choose(state, None)
    elapsed = time.perf_counter() - start
    assert 0.5 <= elapsed < 0.5 + 3
    assert not player.running


def test_the_agent_gets_the_game_s_own_state_and_the_seconds_left(tmp_path):
    source = (
        "from lib.games.core import game_of\n\n"
        "def choose_move(state, seconds_left):\n"
        "    raise ValueError(f'{type(state).__name__} {game_of(state).name} {seconds_left}')\n"
    )
    path = write_agent(tmp_path, "tells", source)
    record = play_game(
        MatchConfig(
            "othello", (f"agent:path={path},time=2", "random"), games=1, options={"size": 6}
        ),
        0,
    )
    words = record.forfeit.split(": ")[-1].split()  # "OthelloState othello 1.99 (line 4)"
    assert words[:2] == [type(get_game("othello").initial_state()).__name__, "othello"]
    assert 0 < float(words[2]) <= 2


def test_an_agent_process_lives_for_its_game_only():
    player = AgentPlayer(PlayerConfig("agent", path=str(GREEDY)), "tictactoe")
    assert not player.running
    state = get_game("tictactoe").initial_state()
    move = player.choose(state, None).move
    assert move in state.legal_moves() and player.running
    player.close()
    assert not player.running


@pytest.mark.parametrize("game", sorted(available_games()))
def test_every_game_s_state_and_moves_cross_the_process_boundary(game):
    state = get_game(game).initial_state()
    assert pickle.loads(pickle.dumps(state)) == state
    keys = [repr(move_json(move)) for move in state.legal_moves()]
    assert len(set(keys)) == len(keys)  # distinct moves stay distinct as JSON


def test_agent_files_are_checked_before_they_play(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        agent_file(str(tmp_path / "missing.py"))
    text = tmp_path / "agent.txt"
    text.write_text("def choose_move(s, t): pass\n")
    with pytest.raises(InputError, match=r"ending in \.py"):
        agent_file(str(text))
    big = write_agent(tmp_path, "big", "#" * (MAX_AGENT_BYTES + 1))
    with pytest.raises(InputError, match="at most 100,000"):
        agent_spec(big)
    with pytest.raises(InputError, match="no such file"):
        MatchConfig("tictactoe", (f"agent:path={tmp_path / 'gone.py'}", "random")).validate()
    assert agent_spec(str(GREEDY), 0.5) == f"agent:path={GREEDY},time=0.5"


def test_agents_are_refused_off_a_local_install(monkeypatch):
    monkeypatch.delenv(LOCAL)
    for attempt in (
        lambda: parse_player_spec(f"agent:path={GREEDY}"),
        lambda: agent_spec(str(GREEDY)),
        lambda: MatchConfig("tictactoe", (f"agent:path={GREEDY}", "random")).validate(),
    ):
        with pytest.raises(InputError, match=f"{LOCAL}=1"):
            attempt()


def test_agents_are_refused_on_a_dask_cluster():
    matches = [MatchConfig("tictactoe", (f"agent:path={GREEDY}", "random"))]
    with pytest.raises(InputError, match="not on a Dask cluster"):
        refuse_remote_agents("dask", matches)
    refuse_remote_agents("process", matches)  # a local pool is this machine


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(source=st.one_of(st.text(max_size=300), st.binary(max_size=300)))
def test_any_text_as_an_agent_file_loses_with_a_named_reason(tmp_path, source):
    path = write_agent(tmp_path, "random_text", source)
    record = play_game(MatchConfig("tictactoe", (f"agent:path={path}", "random"), games=1), 0)
    assert record.winner == "B"
    assert record.forfeit.startswith(tuple(f"A: {reason}" for reason in REASONS)), record.forfeit


def test_an_agent_s_games_are_not_offered_as_replay_links():
    match = MatchConfig("tictactoe", (f"agent:path={GREEDY}", "random"))
    assert "cannot be replayed from a link" in replay_blocker(match)


FORKS = """
import os, random, time

def choose_move(state, seconds_left):
    child = os.fork()
    if child == 0:  # a child that would outlive its parent
        time.sleep(10**6)
        os._exit(0)
    with open({record!r}, "a") as f:
        f.write(f"{{os.getpgid(0)}} {{child}}\\n")
    {ending}
"""
"""An agent that forks a sleeping child at each move, records its process group, then
plays a legal move (or crashes: ``ending``)."""


def _group_is_gone(pgid: int) -> bool:
    """Whether no process of group ``pgid`` is alive (zombies left for a reaper count as gone)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(stat.parent.name)
    return not members


@pytest.mark.parametrize(
    "ending, forfeit",
    [("return random.choice(state.legal_moves())", ""), ("raise ValueError('boom')", "A: crash")],
)
def test_no_process_an_agent_forks_outlives_its_game(tmp_path, ending, forfeit):
    record_file = tmp_path / "groups.txt"
    path = write_agent(tmp_path, "forks", FORKS.format(record=str(record_file), ending=ending))
    start = time.perf_counter()
    try:
        record = play_game(MatchConfig("tictactoe", (f"agent:path={path}", "random")), 0)
        assert time.perf_counter() - start < 20
        assert record.forfeit.startswith(forfeit) and (forfeit or record.plies >= 5)
        groups = {int(line.split()[0]) for line in record_file.read_text().splitlines()}
        assert len(groups) == 1 and os.getpgid(0) not in groups  # a group of its own
        deadline = time.monotonic() + 5  # killed at once; a reaper may take a moment
        while not _group_is_gone(next(iter(groups))) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _group_is_gone(next(iter(groups)))
    finally:  # should the test fail, its sleeping children do not outlive it
        for line in record_file.read_text().splitlines() if record_file.exists() else ():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(line.split()[1]), signal.SIGKILL)


def test_an_agent_that_stops_itself_times_out_on_the_wall_clock(tmp_path):
    source = (
        "import os, signal\n\ndef choose_move(state, seconds_left):\n"
        "    os.kill(os.getpid(), signal.SIGSTOP)\n    return 0\n"
    )
    path = write_agent(tmp_path, "stops", source)
    player = arena_player(parse_player_spec(f"agent:path={path},time=0.5"), get_game("tictactoe"))
    player.start()
    pid = player._process.pid
    start = time.perf_counter()
    with pytest.raises(AgentFault, match=r"timeout: no move within 0\.5 s"):
        player.choose(get_game("tictactoe").initial_state(), None)
    assert time.perf_counter() - start < 0.5 + GRACE_SECONDS + 3
    assert not player.running and _group_is_gone(pid)


def test_an_agent_over_its_memory_cap_loses_with_a_message_saying_memory(tmp_path):
    source = (
        "def choose_move(state, seconds_left):\n"
        "    block = bytes(2 * 1024**3)  # 2 GB (zero pages: nothing is touched if allowed)\n"
        "    return state.legal_moves()[len(block) % 1]\n"
    )
    path = write_agent(tmp_path, "greedy_for_memory", source)
    record = play_game(MatchConfig("tictactoe", (f"agent:path={path}", "random"), games=1), 0)
    from lib.games.arena.agents import AGENT_MEMORY_MB

    assert record.winner == "B", record.forfeit
    assert record.forfeit.startswith("A: crash: out of memory"), record.forfeit
    assert f"{AGENT_MEMORY_MB:,} MB" in record.forfeit and "line 2" in record.forfeit


def test_an_agent_that_stops_its_whole_process_group_stops_only_itself(tmp_path):
    source = (
        "import os, signal\n\ndef choose_move(state, seconds_left):\n"
        "    os.kill(0, signal.SIGSTOP)  # every process of its group\n    return 0\n"
    )
    path = write_agent(tmp_path, "stops_group", source)
    script = (
        "from lib.games.arena import MatchConfig, play_game\n"
        f"match = MatchConfig('tictactoe', ('agent:path={path},time=0.5', 'random'))\n"
        "print(play_game(match, 0).forfeit)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # the Arena in a group of its own, so that before the fix the agent froze it, not pytest
    arena = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, env=env, start_new_session=True
    )
    try:
        out, _ = arena.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("the Arena froze with its agent")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(arena.pid, signal.SIGKILL)
        arena.wait()
    assert out.decode().startswith("A: timeout: no move within 0.5 s")


def test_an_agent_using_numpy_pandas_and_the_lab_s_search_plays_under_the_memory_cap(tmp_path):
    source = (
        "import numpy as np\nimport pandas as pd\n"
        "from lib.games.search.fast import choose_move as search\n\n"
        "def choose_move(state, seconds_left):\n"
        "    table = pd.DataFrame(np.ones((1000, 100)))  # about 1 MB\n"
        "    return search(state, algorithm='alphabeta', depth=2).move\n"
    )
    path = write_agent(tmp_path, "uses_libraries", source)
    player = arena_player(parse_player_spec(f"agent:path={path},time=20"), get_game("othello"))
    try:
        state = get_game("othello").initial_state()
        assert player.choose(state, None).move in state.legal_moves()
    finally:
        player.close()
