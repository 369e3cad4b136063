"""What `load_demo` builds beyond the demo tournament: an app above `tournaments` names its part in
its AppConfig.ready (`add_part("circuits.demo.load_demo_circuit")`), e.g. a season circuit. A part
is imported when the demo is loaded, not before: a server process never imports what only the demo
needs (the workbooks' libraries of the imported seasons, say)."""
from django.utils.module_loading import import_string

_parts = []


def add_part(dotted_path):
    """Name a part of the demo: a function taking `organiser`, `arbiter` and `tournament` (the demo
    tournament, its 20 players registered), idempotent, returning a line to print or None."""
    if dotted_path not in _parts:
        _parts.append(dotted_path)


def load_parts(**kwargs):
    """Build every part named (inside `load_demo`'s transaction); returns the lines they print."""
    return [import_string(path)(**kwargs) for path in _parts]
