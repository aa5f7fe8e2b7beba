# rulesbot as a container: `docker build -t rulesbot . && docker run -p 8000:8000 -v rulesbot-data:/data rulesbot`
# (README, "Deployment"). Runs as a non-root user; the code is owned by root and read-only for it; the data dir
# (the search index, ingested rulebooks, the SQLite analytics) is the one writable place, a volume.

# Build stage: a wheel of this repository (setup.py maps engine/ and knowledge/ into the package).
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY rulesbot ./rulesbot
COPY engine ./engine
COPY knowledge ./knowledge
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

# Runtime stage: the wheel and its dependencies from the package registry into a root-owned virtualenv.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/rulesbot/bin:$PATH \
    RULESBOT_DATA_DIR=/data \
    RULESBOT_THREADS=2
COPY --from=build /wheels /wheels
RUN python -m venv /opt/rulesbot \
    && /opt/rulesbot/bin/pip install --no-cache-dir "$(ls /wheels/rulesbot-*.whl)[postgres]" \
    && rm -rf /wheels \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin rulesbot \
    && mkdir -p /data && chown rulesbot /data
USER rulesbot
VOLUME ["/data"]
EXPOSE 8000
# Ready (200) once the model and index are loaded; the first start builds the index into /data (a minute or so).
HEALTHCHECK --interval=15s --timeout=3s --start-period=180s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"]
CMD ["rulesbot", "serve", "--host", "0.0.0.0", "--port", "8000"]
