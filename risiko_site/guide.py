"""The documentation site (docs/, built by `make docs` into site/): served under /guida/ when it is
built beside the application, and the address the help pages link to (settings.DOCS_URL, docs/admin/
configuration.md)."""
import base64
import hashlib
import re
from pathlib import Path

from django.conf import settings
from django.core.exceptions import SuspiciousFileOperation
from django.http import Http404
from django.views.static import serve


# An inline <script> of a built page (the theme's few lines that set up search and colours), not its
# JSON configuration, which is data the browser never runs.
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def _script_hashes(html):
    """The page's inline scripts as CSP hashes: each of them may run, and nothing else inline."""
    return sorted({"'sha256-%s'" % base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
                   for body in _INLINE_SCRIPT.findall(html)})


def built(site_dir):
    return (Path(site_dir) / "index.html").is_file()


def guide(request, path=""):
    """A page or file of the built site; a folder's address gives its index.html. The pages keep the
    strict Content Security Policy of every page, with the hashes of their own inline scripts added."""
    if not built(settings.DOCS_SITE_DIR):
        raise Http404("The guide is not built on this server (make docs).")
    if path == "" or path.endswith("/"):
        path += "index.html"
    try:
        response = serve(request, path, document_root=settings.DOCS_SITE_DIR)
    except SuspiciousFileOperation:  # an address climbing out of the site ("../")
        raise Http404("Not a page of the guide.")
    except (OSError, ValueError):    # a name longer than the file system allows, a NUL: no file of the site
        raise Http404("Not a page of the guide.")
    if path.endswith(".html") and response.status_code == 200:
        html = (Path(settings.DOCS_SITE_DIR) / path).read_text(encoding="utf-8", errors="replace")
        hashes = _script_hashes(html)
        if hashes:
            response._csp_update = {"script-src": hashes}
    return response


def guides(request):
    """Context processor: the organisers' and arbiters' guides, when there are any (settings.DOCS_URL:
    the address set, else /guida/ when the site is built here, else empty and no link is shown)."""
    base = settings.DOCS_URL
    if not base:
        return {"guides": None}
    return {"guides": {"organiser": base + "organiser/", "arbiter": base + "arbiter/"}}
