"""The documentation site (docs/, built by `make docs` into site/): served under /guida/ when it is
built beside the application, and the address the help pages link to (settings.DOCS_URL, docs/admin/
configuration.md)."""
from pathlib import Path

from django.conf import settings
from django.core.exceptions import SuspiciousFileOperation
from django.http import Http404
from django.views.static import serve


def built(site_dir):
    return (Path(site_dir) / "index.html").is_file()


def guide(request, path=""):
    """A page or file of the built site; a folder's address gives its index.html. The site's pages keep
    the strict Content Security Policy of every page: the theme's few inline scripts (search, colours)
    do not run, the text and the navigation are all there."""
    if not built(settings.DOCS_SITE_DIR):
        raise Http404("The guide is not built on this server (make docs).")
    if path == "" or path.endswith("/"):
        path += "index.html"
    try:
        return serve(request, path, document_root=settings.DOCS_SITE_DIR)
    except SuspiciousFileOperation:  # an address climbing out of the site ("../")
        raise Http404("Not a page of the guide.")


def guides(request):
    """Context processor: the organisers' and arbiters' guides, when there are any (settings.DOCS_URL:
    the address set, else /guida/ when the site is built here, else empty and no link is shown)."""
    base = settings.DOCS_URL
    if not base:
        return {"guides": None}
    return {"guides": {"organiser": base + "organiser/", "arbiter": base + "arbiter/"}}
