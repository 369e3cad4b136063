"""The server-sent events of a live stream, as a test reads them."""
import json


def blocks(response):
    """The events of a whole (bounded) stream: [{"event", "id", "data"}, ...] ("event" is "message"
    when the stream names none, as EventSource does)."""
    found = []
    for block in b"".join(response.streaming_content).decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "data" in fields:
            found.append({"event": fields.get("event", "message"), "id": fields.get("id"),
                          "data": json.loads(fields["data"])})
    return found
