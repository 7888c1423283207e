# The site's image: a web worker (deploy/web: Daphne serving cardgames.asgi behind nginx) by
# default. Used by the migrate, web1, web2 and bots (`python manage.py bots`) services of
# docker-compose.yml; nginx in front serves /static/ and balances the two web workers.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, read from pyproject.toml, so that a code change does not reinstall them.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt

COPY . .
RUN pip install --no-deps -e . \
    && useradd --create-home --uid 1000 app \
    && mkdir -p /app/staticfiles \
    && chown app:app /app/staticfiles

USER app
EXPOSE 8000

# Its command line lives in deploy/web, which the proxy test starts too.
CMD ["/app/deploy/web"]
