"""`python -m tables.seating`: one JSON request on standard input, the seating on standard output
(SEATING.md section 4). Bad input: exit 2 and one line on standard error."""
import sys

from .contract import handle
from .model import SeatingError


def _line(message):
    text = " ".join(str(message).split())
    return text.encode("ascii", "backslashreplace").decode("ascii")[:300]


def main():
    try:
        text = sys.stdin.buffer.read().decode("utf-8")
        out = handle(text)
    except UnicodeDecodeError:
        print("seating: the input is not UTF-8 text", file=sys.stderr)
        return 2
    except SeatingError as exc:
        print(f"seating: {_line(exc)}", file=sys.stderr)
        return 2
    except MemoryError:
        print("seating: the input is too large", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug, not bad input: still one line, never a traceback
        print(f"seating: internal error: {_line(type(exc).__name__)}: {_line(exc)}", file=sys.stderr)
        return 1
    sys.stdout.write(out + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
