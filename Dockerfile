# AI Search Lab as a container: the Streamlit server on port 8501, as a hosted dashboard
# (hosted caps on; set AI_SEARCH_LAB_LOCAL=1 for a private, uncapped one).
#
#   docker build -t ai-search-lab .
#   docker run --rm -p 8501:8501 ai-search-lab        # then open http://localhost:8501
#
# BASE_IMAGE is any Debian-like image with python3 (3.10 to 3.13) and its venv module.
ARG BASE_IMAGE=python:3.12-slim
FROM ${BASE_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH

RUN python3 -m venv /opt/venv
WORKDIR /app
COPY requirements.txt ./
RUN pip install -r requirements.txt

# MALLOC_ARENA_MAX=2: memory freed when visitors leave goes back to the system (docs/hosting.md).
# The app's own settings, with their defaults (docs/configuration.md; an empty
# AI_SEARCH_LAB_JOB_WORKERS or AI_SEARCH_LAB_MOVE_WORKERS: the CPU count, at most 2; an empty
# AI_SEARCH_LAB_DATABASE_URL: the class contest's SQLite file, docs/contest.md).
ENV MALLOC_ARENA_MAX=2 \
    AI_SEARCH_LAB_LOCAL=0 \
    AI_SEARCH_LAB_JOB_WORKERS= \
    AI_SEARCH_LAB_MOVE_WORKERS= \
    AI_SEARCH_LAB_JOB_MEMORY_MB=480 \
    AI_SEARCH_LAB_JOB_NICENESS=10 \
    AI_SEARCH_LAB_DATABASE_URL= \
    AI_SEARCH_LAB_DATA_DIR= \
    AI_SEARCH_LAB_INSTRUCTOR_KEY= \
    AI_SEARCH_LAB_CONTEST_PLAYER=1 \
    STREAMLIT_SERVER_PORT=8501 \
    STREAMLIT_SERVER_BASE_URL_PATH=

# The code belongs to root and is only read; the server runs as an unprivileged user.
RUN useradd --create-home --uid 10001 streamlit
COPY . ./
USER streamlit
# the class contest's SQLite folder, owned by the server's user (compose.yaml mounts a volume)
RUN mkdir -p /home/streamlit/data
# The exact solvers' compiled code, made once here in the server user's cache (the code's own
# folder is read-only): the first AI move then loads it instead of compiling for seconds.
ENV NUMBA_CACHE_DIR=/home/streamlit/.cache/numba
RUN python -m lib.games.compiled_code
# The sliding-tile puzzles' compiled searches and 15-puzzle pattern database, likewise.
RUN python -m lib.puzzles prepare

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=40s --retries=3 \
    CMD ["python", "scripts/healthcheck.py"]
ENTRYPOINT ["python", "-m", "streamlit", "run", "streamlit_app.py", \
    "--server.address=0.0.0.0", "--server.headless=true", "--server.fileWatcherType=none", \
    "--browser.gatherUsageStats=false"]
