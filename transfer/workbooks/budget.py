"""The hard budget a workbook is read under, behind the bounds (bounds.py): the reading runs in a process
forked for it, its new memory and its processor time limited by the kernel (setrlimit), so a shape the
bounds do not foresee is stopped there and refused by name, instead of holding a worker's memory or
time. What the child reads comes back pickled through a pipe; a refusal comes back as its message.

MEGABYTES resident past the worker's own (the largest files the bounds let in take some 35 MB, their
pickled sheets a few more), watched by the parent every POLL seconds, the child killed past it; its
address space, which the kernel limits, ADDRESS_MEGABYTES past what the worker maps (malloc reserves
64 MB at a time for a thread's heap: the address space is the runaway's backstop, not the measure);
SECONDS of a core (those files take 5 at most); WALL seconds on the clock (a loaded machine) before the
child is killed. ENABLED is off where there is no fork, and in the tests that measure the bounds alone."""
import os
import pickle
import resource
import select
import signal
import time

from django.utils.translation import gettext as _

from transfer.workbooks.model import WorkbookError

ENABLED = hasattr(os, "fork")
MEGABYTES = 100
ADDRESS_MEGABYTES = 1024
SECONDS = 10
POLL = 0.05
WALL = 60
CHUNK = 1024 * 1024


def too_long():
    return WorkbookError(_("The file could not be read within %(n)d seconds: it holds more than a club's workbook "
                           "can.") % {"n": SECONDS})


def too_large():
    return WorkbookError(_("The file could not be read within %(n)d MB of memory: it holds more than a club's "
                           "workbook can.") % {"n": MEGABYTES})


def within_budget(read, data, filename):
    """read(data, filename) in a child process under the budget; its sheets, or its WorkbookError, or
    too_long()/too_large() when the kernel stopped it."""
    if not ENABLED:
        return read(data, filename)
    receive, send = os.pipe()
    try:
        pid = os.fork()
    except OSError:  # no process to spare (EAGAIN, ENOMEM): read here, within the bounds alone
        os.close(receive)
        os.close(send)
        return read(data, filename)
    if pid == 0:  # the child: never returns, never runs the parent's exit handlers (its database connection...)
        code = 1
        try:
            os.close(receive)
            code = _child(read, data, filename, send)
        finally:
            os._exit(code)
    os.close(send)
    try:
        payload = _collect(receive, pid)
    finally:
        os.close(receive)
    status = os.waitpid(pid, 0)[1]
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU:
        raise too_long()
    if not payload:
        raise too_large()  # killed (the kernel's out-of-memory killer) or out of memory before it could answer
    kind, value = pickle.loads(payload)
    if kind == "sheets":
        return value
    if kind == "refused":
        raise WorkbookError(value)
    if kind == "memory":
        raise too_large()
    raise value


def _child(read, data, filename, send):
    _limit()
    try:
        answer = ("sheets", read(data, filename))
    except WorkbookError as error:
        answer = ("refused", str(error))
    except MemoryError:
        answer = ("memory", None)
    except Exception as error:  # a defect, not the file: raised again in the parent as it was
        answer = ("raise", error)
    try:
        payload = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        payload = pickle.dumps(("memory", None))
    except Exception as error:  # an exception that cannot be pickled
        payload = pickle.dumps(("raise", RuntimeError(repr(error))))
    with os.fdopen(send, "wb") as out:
        out.write(payload)
    return 0


def _limit():
    mapped = 0
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                mapped = int(line.split()[1]) * 1024
    _lower(resource.RLIMIT_AS, mapped + ADDRESS_MEGABYTES * 1024 * 1024)
    _lower(resource.RLIMIT_CPU, SECONDS)


def _lower(kind, value):
    soft, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(kind, (value, hard))


def _collect(receive, pid):
    """Everything the child writes, within WALL seconds and MEGABYTES resident past this process's own;
    the child killed past either."""
    chunks, deadline = [], time.monotonic() + WALL
    ceiling = _resident("self") + MEGABYTES * 1024 * 1024
    while True:
        left = deadline - time.monotonic()
        ready = select.select([receive], [], [], min(left, POLL))[0] if left > 0 else []
        if not ready:
            past = left <= 0 or _resident(pid) > ceiling
            if past:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise too_long() if left <= 0 else too_large()
            continue
        chunk = os.read(receive, CHUNK)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _resident(pid):
    """The resident memory of process `pid` ("self": this one), in bytes; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0
