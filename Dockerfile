# Debian 12 (bookworm): its postgresql-client is PostgreSQL 15's, the version of the compose file's
# database, for restore-check's pg_restore.
# Pinned: an upgrade changes it here. The Python packages come from requirements.lock (pip-compile
# --generate-hashes from pyproject.toml), each file checked against its hash: the image built on the
# server holds the versions the tests passed with, not whatever is newest that day.
FROM python:3.11.13-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client && rm -rf /var/lib/apt/lists/*
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock
COPY . .
RUN DJANGO_PRODUCTION=1 SECRET_KEY=collectstatic-only-not-a-secret-0123456789abcdefghij ALLOWED_HOSTS=build \
    DATABASE_URL=postgres://build@localhost/build python manage.py collectstatic --noinput
USER nobody
EXPOSE 8000
CMD ["gunicorn", "risiko_site.wsgi:application", "--config", "gunicorn.conf.py", "--access-logfile", "-"]
