# The Alhambra referee as a container: the package is built into a virtualenv in one stage and
# only that virtualenv is copied into a slim runtime that runs as an unprivileged user.
#
#   docker build -t alhambra-referee .
#   docker run --rm -p 8000:8000 -e WORKERS=2 alhambra-referee
#
# Every setting of docs/operations/settings.md is an environment variable; a wrong value stops the
# container at start with a message naming it. `referee serve` starts WORKERS uvicorn processes
# and shuts down gracefully on SIGTERM (in-flight requests finish, SHUTDOWN_TIMEOUT_SECONDS at most).

ARG PYTHON_IMAGE=python:3.11.13-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY service ./service
# A non-editable install: the runtime needs the installed package, not this source tree.
RUN python -m venv /opt/referee \
    && /opt/referee/bin/pip install --no-cache-dir '.[server]' \
    && /opt/referee/bin/python -m compileall -q /opt/referee/lib

FROM ${PYTHON_IMAGE} AS runtime
RUN groupadd --system --gid 10001 referee \
    && useradd --system --uid 10001 --gid referee --no-create-home --shell /usr/sbin/nologin referee
COPY --from=build /opt/referee /opt/referee
ENV PATH=/opt/referee/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    WORKERS=2
USER 10001:10001
WORKDIR /tmp
EXPOSE 8000
# Liveness of the process on PORT (the same /healthz the Kubernetes probes use).
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 CMD ["referee", "healthcheck"]
STOPSIGNAL SIGTERM
CMD ["referee", "serve"]
