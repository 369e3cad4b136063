import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "risiko_site.settings")

POOL_HEADER = "X-Torneo-Pool"


def with_pool_header(app, pool):
    """Every answer names the pool of application servers that gave it (TORNEO_POOL: `public`,
    `staff`), so the proxy's routing can be seen from outside (`make proxy-check`). Added around the
    whole application: a public page kept in the cache and served by the public pool is named by
    the public one."""
    def application(environ, start_response):
        def start(status, headers, exc_info=None):
            return start_response(status, [*headers, (POOL_HEADER, pool)], exc_info)
        return app(environ, start)
    return application


application = get_wsgi_application()

# The cache generation's receiver of request_started (it reads the database's identity before a
# request's first cache lookup) connected before the first request.
from risiko_site import generation  # noqa: E402,F401
if os.environ.get("TORNEO_POOL"):
    application = with_pool_header(application, os.environ["TORNEO_POOL"])
