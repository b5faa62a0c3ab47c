"""The grader's own work for a graded notebook, bounded while it runs.

The armlab calls a check lets a notebook ask for are hostile work: arguments past
:data:`MAX_LINKS` links or :data:`MAX_NUMBERS` numbers are refused before anything is
computed, and the calls run in a process of their own (:class:`Server`) under a CPU timer
per call, an address-space cap and the submission's CPU budget (:class:`Budget`); it ends
with the run. A call past a bound gives the cell a ``ValueError`` and the grader a fault
(:class:`Bound`).

>>> server = Server(lambda name, args, kwargs: [float(a) * 2 for a in args], Budget(10.0))
>>> server("double", [1.5, 2.0], {})
'[3.0, 4.0]'
>>> server("double", [{"__arm__": {"lengths": [0.1] * 20}}], {})
Traceback (most recent call last):
...
armlab.grading.serving.Bound: armlab.double was called on an arm of 20 links; the grader computes arms of at most 16
>>> server.close()                  # its exit code
0
"""

import json
import os
import select
import signal
import time

MAX_LINKS = 16
"""Links of the largest arm the grader computes for a notebook: the book's largest arm (12
links) with a margin."""
MAX_NUMBERS = 10_000
"""Numbers in one argument of a call (what the sandbox's runner lets through, as well)."""
MAX_REPLY = 8 * 2**20
"""Bytes of one answer from the serving process."""


class Bound(ValueError):
    """A served call went past one of the grader's bounds (the message says which)."""


class Raw(str):
    """An answer as the JSON text the serving process wrote: passed on to the sandbox as
    it is (:func:`armlab.grading.sandbox._answer`), never parsed and encoded again here."""


class Budget:
    """CPU seconds the grader may spend on one submission's served calls, over all its
    runs."""

    def __init__(self, seconds):
        self.seconds, self.spent = float(seconds), 0.0

    def left(self):
        return self.seconds - self.spent


def sizes(name, args, kwargs):
    """Raise :class:`Bound` when a call's encoded arguments hold an arm of more than
    :data:`MAX_LINKS` links, or one of them more than :data:`MAX_NUMBERS` numbers."""
    def walk(value, depth, count):
        if depth > 8:
            raise Bound(f"armlab.{name} was given arguments nested too deep")
        if isinstance(value, dict):
            arm = value.get("__arm__", value.get("__chain__"))
            if isinstance(arm, dict):
                lengths = arm.get("lengths", arm.get("kinds"))
                links = len(lengths) if isinstance(lengths, list) else 1
                if links > MAX_LINKS:
                    raise Bound(f"armlab.{name} was called on an arm of {links} links; the "
                                f"grader computes arms of at most {MAX_LINKS}")
            for item in value.values():
                walk(item, depth + 1, count)
        elif isinstance(value, list):
            for item in value:
                walk(item, depth + 1, count)
        else:
            count[0] += 1
            if count[0] > MAX_NUMBERS:
                raise Bound(f"armlab.{name} was given more than {MAX_NUMBERS:,} numbers in "
                            "one argument")

    for value in list(args if isinstance(args, list) else [args]) + (
            list(kwargs.values()) if isinstance(kwargs, dict) else [kwargs]):
        walk(value, 0, [0])


class _OverCPU(BaseException):
    """Raised in the serving process when one call has used its CPU seconds."""


def _serve_forever(compute, rd, wr, call_cpu, memory_mb, cpu_left):
    """The serving process: answer one JSON line per request until the grader closes the
    pipe. Never returns."""
    import resource

    try:
        keep = {rd, wr}
        for fd in [int(f) for f in os.listdir("/proc/self/fd")]:
            if fd > 2 and fd not in keep:           # the sandbox's pipes, the gradebook...
                try:
                    os.close(fd)
                except OSError:
                    pass
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1):                             # the worker's stdout is its report
            os.dup2(null, fd)
        size = int(open("/proc/self/statm").read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        cap = size + memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        seconds = max(1, int(cpu_left + 0.999))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))

        def over(signum, frame):
            raise _OverCPU()
        signal.signal(signal.SIGPROF, over)
        reader = os.fdopen(rd, "r", encoding="utf-8")
        for line in reader:
            msg = json.loads(line)
            signal.setitimer(signal.ITIMER_PROF, max(0.01, float(msg.get("cpu", call_cpu))))
            try:
                reply = {"value": compute(msg["name"], msg["args"], msg["kwargs"])}
            except _OverCPU:
                reply = {"bound": "cpu"}
            except MemoryError:
                reply = {"bound": "memory"}
            except Exception as exc:                   # noqa: BLE001 (the student's data)
                kind = type(exc).__name__ if isinstance(exc, (ValueError, TypeError)) \
                    else "ValueError"
                reply = {"error": {"type": kind, "message": str(exc)[:600]}}
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
            times = os.times()
            head = {k: v for k, v in reply.items() if k != "value"}
            head["cpu"] = times.user + times.system
            body = ""
            if "value" in reply:
                try:
                    body = json.dumps(reply["value"]) + "\n"
                    head["value"] = True
                except (TypeError, ValueError):
                    head["error"] = {"type": "TypeError", "message": "not carried"}
            data = (json.dumps(head) + "\n" + body).encode()
            while data:                                # a header line, then the value's
                data = data[os.write(wr, data):]
    finally:
        os._exit(0)


class Server:
    """One run's served calls, computed in a process of their own (see the module).

    ``compute(name, args, kwargs)`` computes one call from its encoded arguments and
    returns the encoded answer, or raises ``ValueError``/``TypeError`` for the student;
    calling the server gives that answer as JSON text (:class:`Raw`), raises the same
    errors, or raises :class:`Bound`. ``budget`` is the
    submission's :class:`Budget`, shared by the servers of its runs."""

    def __init__(self, compute, budget, *, call_cpu=5.0, call_memory_mb=512, wall_factor=4.0):
        self.compute, self.budget = compute, budget
        self.call_cpu, self.call_memory_mb = float(call_cpu), int(call_memory_mb)
        self.wall = wall_factor * self.call_cpu + 10.0
        self.pid = self.to = self.back = None
        self.cpu = 0.0                        # the live process's CPU, as it last said
        self.buffer = b""

    def __call__(self, name, args, kwargs):
        sizes(name, args, kwargs)
        used_up = Bound(f"armlab.{name}: the grader's {self.budget.seconds:g} CPU seconds "
                        "for this notebook's armlab calls are used up")
        if self.budget.left() - self.cpu <= 0.01:
            raise used_up
        if self.pid is None:
            self._start()
        cpu = min(self.call_cpu, self.budget.left() - self.cpu)    # this call's CPU seconds
        try:
            os.write(self.to, (json.dumps({"name": name, "args": args, "kwargs": kwargs,
                                           "cpu": cpu}) + "\n").encode())
        except BrokenPipeError:
            pass                                  # it died: _reply reads its end and says so
        reply = json.loads(self._reply(name))
        self.cpu = float(reply.get("cpu", self.cpu))
        if "bound" in reply:
            self.close()                      # what it built goes with it
            if reply["bound"] == "cpu" and cpu < self.call_cpu:
                raise used_up
            raise Bound(f"armlab.{name} ran past the grader's bound of "
                        + (f"{self.call_cpu:g} CPU seconds" if reply["bound"] == "cpu"
                           else f"{self.call_memory_mb} MiB of memory") + " for one call")
        if "error" in reply:
            error = reply["error"]
            raise (TypeError if error.get("type") == "TypeError" else ValueError)(
                str(error.get("message", "")))
        return Raw(self._reply(name).decode()) if reply.get("value") else Raw("null")

    def _start(self):
        rd, self.to = os.pipe()
        self.back, wr = os.pipe()
        pid = os.fork()
        if pid == 0:                                          # pragma: no cover (child)
            os.close(self.to)
            os.close(self.back)
            _serve_forever(self.compute, rd, wr, self.call_cpu, self.call_memory_mb,
                           self.budget.left())
        os.close(rd)
        os.close(wr)
        self.pid, self.cpu, self.buffer = pid, 0.0, b""

    def _reply(self, name):
        """The serving process's next line (bytes) about the call just sent, or
        :class:`Bound`."""
        until = time.monotonic() + self.wall
        while b"\n" not in self.buffer:
            left = until - time.monotonic()
            if left <= 0:
                self.close()
                raise Bound(f"armlab.{name} took more than {self.wall:g} s by the clock in "
                            "the grader")
            ready, _, _ = select.select([self.back], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(self.back, 1 << 16)
            if not chunk or len(self.buffer) > MAX_REPLY + 4096:
                status = self.close()
                if status == -signal.SIGXCPU or self.budget.left() <= 0.5:
                    raise Bound(f"armlab.{name}: the grader's {self.budget.seconds:g} CPU "
                                "seconds for this notebook's armlab calls are used up")
                raise Bound(f"armlab.{name} stopped the grader's process that computed it "
                            f"(exit status {status})")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def close(self):
        """End the serving process (its CPU counted against the budget); its exit code,
        as :func:`os.waitstatus_to_exitcode` gives it, or None when there was none."""
        if self.pid is None:
            return None
        for fd in (self.to, self.back):
            try:
                os.close(fd)
            except OSError:
                pass
        pid, self.pid = self.pid, None
        status = None
        for _ in range(40):                   # it ends by itself when its pipe closes
            done, raw, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.005)
        else:
            os.kill(pid, signal.SIGKILL)
            _, raw, usage = os.wait4(pid, 0)
        status = os.waitstatus_to_exitcode(raw)
        self.budget.spent += usage.ru_utime + usage.ru_stime
        self.cpu = 0.0
        return status


__all__ = ["Server", "Budget", "Bound", "Raw", "sizes", "MAX_LINKS", "MAX_NUMBERS"]
