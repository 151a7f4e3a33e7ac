"""The Portfolio page's inputs: its link, its data (with a price history's window) and the
GA settings form.

Widget keys start with ``pf_w_``; the page's own state keys with ``pf_`` (and
never ``pf_w_``), so a widget cannot overwrite a result.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import streamlit as st

from lib.errors import InputError
from lib.links import LinkField
from lib.portfolio.data import StockData, hard_case_table, read_stock_data
from lib.portfolio.ga import CROSSOVERS, FITNESSES, SELECTIONS, GAConfig
from lib.ui.common import current, read_query

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
RUN_TIME_LIMIT = 60.0  # seconds per GA run on the shared server
STUDY_RUN_TIME_LIMIT = 10.0
STUDY_TIME_LIMIT = 120.0  # seconds per parameter study

SOURCES: dict[str, str] = {
    "sample": "Sample: 400 synthetic stocks (summary table)",
    "sp500": "S&P 500: daily prices of 20 stocks, 2020–2022",
    "hard": "Hard case: generated data that defeats the course's fitness",
    "upload": "Upload a CSV",
}
PRESETS: dict[str, dict[str, float]] = {
    # constraints that make sense for each bundled data set
    "sample": {"min_stocks": 30, "max_risk": 0.6, "min_return": 10.0},
    "hard": {"min_stocks": 30, "max_risk": 0.6, "min_return": 10.0},
    "sp500": {"min_stocks": 10, "max_risk": 0.3, "min_return": 1.0},
}


@dataclass(frozen=True)
class Field:
    """A GA setting: its widget key, URL name, type and bounds."""

    name: str  # GAConfig field
    query: str  # name in st.query_params
    kind: type
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()


FIELDS: tuple[Field, ...] = (
    Field("population_size", "pop", int, 20, 3000),
    Field("max_generations", "gens", int, 1, 5000),
    Field("elite_size", "elite", int, 0, 300),
    Field("p_crossover", "pc", float, 0.0, 1.0),
    Field("p_mutation", "pm", float, 0.0, 1.0),
    Field("crossover", "cx", str, choices=CROSSOVERS),
    Field("selection", "sel", str, choices=SELECTIONS),
    Field("fitness", "fit", str, choices=FITNESSES),
    Field("repair", "repair", bool),
    Field("stop_at_first_feasible", "stop", bool),
    Field("seed", "seed", int, 0, 1_000_000_000),
    Field("min_stocks", "stocks", int, 0, 20_000),
    Field("max_risk", "risk", float, 0.0, 1.0),
    Field("min_return", "ret", float, -1.0, 1000.0),
    Field("penalty_threshold", "pt", float, 0.0, 1.0),
    Field("penalty_factor", "pf", float, 0.0, 100.0),
)
DEFAULTS = GAConfig()
LABELS: dict[str, str] = {
    "min_stocks": "At least this many stocks",
    "max_risk": "Risk below",
    "min_return": "Return above",
    "population_size": "Population size",
    "max_generations": "Max generations",
    "elite_size": "Elite size",
    "p_crossover": "Crossover probability",
    "p_mutation": "Mutation probability",
    "seed": "Random seed",
    "crossover": "Crossover",
    "selection": "Selection",
    "fitness": "Fitness",
    "penalty_threshold": "Risk penalty threshold",
    "penalty_factor": "Risk penalty factor",
    "repair": "Repair",
    "stop_at_first_feasible": "Stop when feasible",
}
"""The settings form's label of each GA setting (messages quote them)."""


def key(name: str) -> str:
    """The widget key of a GA setting."""
    return f"pf_w_{name}"


def link_schema() -> tuple[LinkField, ...]:
    """The page's link settings: the data, a price history's window, every GA setting."""
    return (
        LinkField("data", str, None, choices=tuple(SOURCES)),
        LinkField("from", date, None, parse=date.fromisoformat, expected="a date (YYYY-MM-DD)"),
        LinkField("to", date, None, parse=date.fromisoformat, expected="a date (YYYY-MM-DD)"),
        LinkField("retdef", str, None, choices=("end", "peak")),
        *(
            LinkField(
                f.query,
                f.kind,
                getattr(DEFAULTS, f.name),
                low=f.low,
                high=f.high,
                choices=f.choices,
            )
            for f in FIELDS
        ),
    )


def init_from_query_params() -> list[str]:
    """Seed the widgets from ``st.query_params`` once per session.

    Returns one note per link value that could not be used as given (named in
    the same words as on every page: the value given and the value used).
    """
    if st.session_state.get("pf_query_loaded"):
        return []
    st.session_state["pf_query_loaded"] = True
    schema = link_schema()
    given = {f.name for f in schema if f.name in st.query_params}
    values, notes = read_query(schema)
    source = values["data"]
    if source is not None:
        st.session_state["pf_w_source"] = source
        for name, value in PRESETS.get(source, {}).items():
            st.session_state[key(name)] = value
    # a price history's date window and return definition, used once the file's span is known
    window = (values["from"], values["to"])
    if None not in window and window[0] <= window[1]:
        st.session_state["pf_query_window"] = window
    elif None not in window:
        notes.append(
            f"The link's window from {window[0]} to {window[1]} ends before it starts; "
            "using the whole file."
        )
    if values["retdef"] is not None:
        st.session_state["pf_query_definition"] = values["retdef"]
    for field in FIELDS:
        if field.query in given:
            st.session_state[key(field.name)] = values[field.query]
    if "pop" in given and "elite" not in given:
        notes.extend(_fit_elite(values["pop"]))
    return notes


def _fit_elite(population: int) -> list[str]:
    """Scale the default elite to a link's population when it would not fit (the elite must
    be smaller than the population): the default's share, said in a note."""
    elite = int(st.session_state.get(key("elite_size"), DEFAULTS.elite_size))
    if elite < population:
        return []
    share = DEFAULTS.elite_size / DEFAULTS.population_size
    fitted = min(max(round(population * share), 1), population - 1)
    st.session_state[key("elite_size")] = fitted
    return [
        f"The link sets {LABELS['population_size']} {population:,} but no elite size; using "
        f"an elite of {fitted:,} (the default's share, {share:.0%}; {elite:,} would not fit)."
    ]


def write_query_params(source: str, config: GAConfig) -> None:
    """Mirror the data source and the settings in the URL (a link reproduces the setup)."""
    values = {"data": source}
    for field in FIELDS:
        value = getattr(config, field.name)
        values[field.query] = str(int(value) if field.kind is bool else value)
    window = st.session_state.get("pf_window")  # set by load_data for a price history
    if window is not None and window[0] == source:
        values.update({"from": window[1], "to": window[2], "retdef": window[3]})
    else:
        for name in ("from", "to", "retdef"):
            if name in st.query_params:
                del st.query_params[name]
    for name, text in values.items():
        if st.query_params.get(name) != text:
            st.query_params[name] = text


def apply_preset() -> None:
    """``on_change`` of the data source: set the constraints that suit the bundled data."""
    for name, value in PRESETS.get(st.session_state.get("pf_w_source", "sample"), {}).items():
        st.session_state[key(name)] = value


# ---------------------------------------------------------------------------
# Data


@st.cache_data(max_entries=16, show_spinner=False)
def read_bundled(source: str, start: str | None, end: str | None, definition: str) -> StockData:
    """A bundled data set (``source``), a price history measured over ``start..end``."""
    if source == "hard":
        return StockData(table=hard_case_table(400, seed=0), kind="summary")
    path = DATA_DIR / ("sample_stocks.csv" if source == "sample" else "sp500_prices_2020_2022.csv")
    return read_stock_data(path, start=start, end=end, return_definition=definition)


@st.cache_data(max_entries=8, show_spinner=False)
def read_upload(
    content: bytes, name: str, start: str | None, end: str | None, definition: str
) -> StockData:
    """An uploaded file's data, a price history measured over ``start..end``."""
    return read_stock_data(
        io.BytesIO(content), name=name, start=start, end=end, return_definition=definition
    )


def load_data(source: str, upload: object | None) -> StockData | None:
    """Read the chosen data (and, for a price history, the window widgets).

    Raises :class:`InputError` for a bad file; returns ``None`` while no file
    has been uploaded.
    """
    if source == "upload":
        if upload is None:
            return None
        content, name = upload.getvalue(), upload.name

        def read(start=None, end=None, definition="end"):
            return read_upload(content, name, start, end, definition)

    else:

        def read(start=None, end=None, definition="end"):
            return read_bundled(source, start, end, definition)

    data = read()
    if not data.kind.startswith("prices"):
        st.session_state.pop("pf_window", None)
        return data
    first, last = data.first_date.date(), data.last_date.date()
    window_key = f"pf_w_window_{source}_{first}_{last}"  # a new file's span gets a new widget
    linked = st.session_state.pop("pf_query_window", None)  # from a shared link, used once
    if linked is not None and window_key not in st.session_state:
        st.session_state[window_key] = (max(linked[0], first), min(linked[1], last))
    linked_definition = st.session_state.pop("pf_query_definition", None)
    if linked_definition is not None:
        st.session_state[f"pf_w_definition_{source}"] = linked_definition
    # one widget a row: in half of the sidebar (about 300 px wide) the window's two dates
    # were cut ("2021 / 01 / 0")
    window = st.date_input(
        "Date window",
        value=current(window_key, (first, last)),
        min_value=first,
        max_value=last,
        key=window_key,
        help="Risk and return are measured over this window.",
    )
    definition = st.radio(
        "Return",
        ["end", "peak"],
        ["end", "peak"].index(current(f"pf_w_definition_{source}", "end")),
        format_func=lambda d: {
            "end": "end / start − 1",
            "peak": "peak / start − 1 (as the course's data)",
        }[d],
        horizontal=True,
        key=f"pf_w_definition_{source}",
    )
    start, end = (window[0], window[1]) if window and len(window) == 2 else (first, last)
    st.session_state["pf_window"] = (source, str(start), str(end), definition)
    return read(str(start), str(end), definition)


# ---------------------------------------------------------------------------
# Settings


# The form's numbers, (lowest, highest, step) under their heading, and which are sliders
# (the others are number boxes, typed: a count or a seed, a bound with a wide range).
CONSTRAINT_RANGES = {
    "min_stocks": (0, 20_000, 1),
    "max_risk": (0.0, 1.0, 0.01),
    "min_return": (-1.0, 1000.0, 0.5),
}
GA_RANGES = {
    "population_size": (20, 3000, 10),
    "max_generations": (1, 5000, 50),
    "elite_size": (0, 300, 5),
    "p_crossover": (0.0, 1.0, 0.05),
    "p_mutation": (0.0, 1.0, 0.01),
    "seed": (0, 1_000_000_000, 1),
}
PENALTY_RANGES = {"penalty_threshold": (0.0, 1.0, 0.05), "penalty_factor": (0.0, 100.0, 0.5)}
SLIDERS = {
    "max_risk",
    "population_size",
    "elite_size",
    "p_crossover",
    "p_mutation",
    "penalty_threshold",
}
CHOICES = {
    "crossover": (CROSSOVERS, {}),
    "selection": (SELECTIONS, {}),
    "fitness": (
        FITNESSES,
        {
            "format_func": {
                "constrained": "constraint-aware (robust)",
                "course": "course (objective only)",
            }.get,
            "help": "The course's fitness ignores the constraints; the constraint-aware one "
            "ranks feasible portfolios first and the rest by how far they miss.",
        },
    ),
}
SWITCHES = {
    "repair": "Give children that hold too few stocks the missing ones.",
    "stop_at_first_feasible": "Stop at the first feasible portfolio (the course's behaviour); "
    "otherwise keep improving until the maximum number of generations.",
}


def _numbers(ranges: dict[str, tuple]) -> None:
    """A slider or number box per GA setting of ``ranges``, its value as its default.

    (The value as default: see :func:`lib.ui.common.current`.)
    """
    for name, (low, high, step) in ranges.items():
        draw = st.slider if name in SLIDERS else st.number_input
        value = st.session_state[key(name)]
        draw(LABELS[name], low, high, value, step=step, key=key(name))


def settings_form() -> tuple[bool, dict[str, object]]:
    """The form with every GA constant; returns (submitted, settings)."""
    for field in FIELDS:
        st.session_state.setdefault(key(field.name), getattr(DEFAULTS, field.name))
    # one widget a row: the form lives in the sidebar (about 300 px wide), so no label or
    # choice is cut ("constraint-aware (ro" was, in a third of a 1024 px page)
    with st.form("pf_w_form", border=False):
        submitted = st.form_submit_button("Run the GA", type="primary", width="stretch")
        st.markdown("**Constraints**")
        _numbers(CONSTRAINT_RANGES)
        st.markdown("**Genetic algorithm**")
        _numbers(GA_RANGES)
        for name, (options, extra) in CHOICES.items():
            index = list(options).index(st.session_state[key(name)])
            st.selectbox(LABELS[name], options, index, key=key(name), **extra)
        _numbers(PENALTY_RANGES)
        for name, help_text in SWITCHES.items():
            value = st.session_state[key(name)]
            st.checkbox(LABELS[name], value, key=key(name), help=help_text)
    return submitted, {field.name: st.session_state[key(field.name)] for field in FIELDS}


def make_config(settings: dict[str, object]) -> GAConfig:
    """A validated :class:`GAConfig` from the form, time-limited.

    Raises :class:`InputError` in the form's words (its labels, not the
    config's field names).
    """
    population, elite = settings["population_size"], settings["elite_size"]
    if elite >= population:  # type: ignore[operator]
        raise InputError(
            f"{LABELS['elite_size']} {elite} is not allowed with {LABELS['population_size']} "
            f"{population}: the elite must be smaller than the population. Lower the elite "
            f"size to at most {population - 1} or raise the population size."  # type: ignore[operator]
        )
    try:
        return GAConfig(**settings, time_limit=RUN_TIME_LIMIT)  # type: ignore[arg-type]
    except InputError as error:
        text = str(error)
        for name, label in LABELS.items():
            text = text.replace(f"GA setting {name}=", f"{label}: ")
        raise InputError(text) from None
