"""Web Push, "your table is ready": a player who tapped "This is me" on their page may allow
notifications; when a round's seating is published, each phone following one of its players is told
"Turno 2 — Tavolo 7, con Rossi, Bianchi, Verdi" (`selectors.py` writes it, `sender.py` sends it
through pywebpush, after the publication commits, from a job of the push worker: `services.send_round`).
Without the site's VAPID keys (settings) the option is not offered and nothing is sent."""
