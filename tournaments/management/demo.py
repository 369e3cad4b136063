"""What `load_demo` builds beyond the demo tournament: an app above `tournaments` connects to
`demo_loaded` (in its AppConfig.ready) and adds its part, e.g. a season circuit."""
from django.dispatch import Signal

# Sent by `load_demo` inside its transaction with `organiser`, `arbiter` and `tournament` (the demo
# tournament, its 20 players registered); receivers are idempotent and may return a line to print.
demo_loaded = Signal()
