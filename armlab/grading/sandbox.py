"""Run a notebook's code in a disposable bubblewrap sandbox, and talk to it as data.

:func:`run` starts :mod:`armlab.grading.runner` in fresh PID, mount, network, IPC and UTS
namespaces, as a uid of the run's own (:data:`RUN_UIDS`, as root) or in a user namespace,
under the seccomp filter of :mod:`armlab.grading.seccomp`, with a read-only runtime, the
armlab of :mod:`armlab.grading.shaker` and a private ``/scratch`` and ``/tmp``. Where
namespaces are refused, :func:`choose` falls back to :mod:`armlab.grading.uidbox`.
Whatever comes out is untrusted data, read in the plan's order; anything else is a fault.
What the sandbox guarantees: the instructors' page, "Student code runs in a sandbox".
"""

import dataclasses
import fcntl
import functools
import json
import os
import pathlib
import re
import secrets
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from armlab.grading import runner as _runner
from armlab.grading import seccomp
from armlab.grading import serving as _serving

BASE_UID = 61000
"""The sandboxes' uids when grading as root are :data:`RUN_UIDS` from ``BASE_UID + 1000``
on (``BASE_UID`` ... ``+ 999`` were the workers' own uids before each run had one)."""
RUN_UIDS = range(BASE_UID + 1000, BASE_UID + 1000 + 2048)
"""The uids the runs take theirs from (one per run, held while the run lasts and taken
again only when nothing of it lives)."""
LOCKS = pathlib.Path("/run/armlab-sandbox")
"""Where a run holds the lock of its uid (root only)."""
NEEDED = ("--args", "--seccomp", "--ro-bind-data", "--die-with-parent", "--new-session",
          "--clearenv", "--perms", "--unshare-pid", "--unshare-ipc", "--unshare-net",
          "--unshare-uts")
"""bubblewrap's options the sandbox cannot do without (``--perms``: 0.5.0 and later);
``--size`` (0.7.0) and ``--disable-userns`` (0.8.0) are used where bubblewrap has them."""

UID_MODES = ("uid", "uid-unfiltered")
"""The values of :func:`run`'s ``isolate`` for the sandbox without namespaces."""

RUNNER = pathlib.Path(_runner.__file__).resolve()
MAX_LINE = 8 * 2**20
"""Bytes of one message from the sandbox beyond which the run is a fault."""
MAX_TOTAL = 64 * 2**20
"""Bytes a notebook's run may send in all (its served calls' arguments included) beyond
which it is stopped, a grading fault held for review."""


@dataclasses.dataclass(frozen=True)
class Limits:
    """What one run of a notebook may use."""

    cpu: float = 30.0
    """CPU seconds of one cell or one check (the runner stops it past them)."""
    memory_mb: int = 2048
    """Address space of the sandbox's process, its threads included [MiB] (it can make no
    other process)."""
    max_chars: int = 20_000
    """Printed characters kept per cell."""
    processes: int = 64
    """Threads of the sandbox's uid (as root; ``RLIMIT_NPROC``)."""
    file_mb: int = 64
    """Largest file a process may write, and the size of /scratch and /tmp [MiB]."""
    wall_factor: float = 4.0
    wall_extra: float = 30.0
    """The wall-clock cap of one cell or check: ``wall_factor`` times its CPU seconds, plus
    ``wall_extra`` seconds (a loaded machine is slower; code that only waits is stopped)."""
    submission: float = 600.0
    """Wall-clock seconds of all the runs of one submission together (cells that each wait
    just under their own cap cannot take the class's time)."""
    call_cpu: float = 5.0
    """CPU seconds the grader spends on one armlab call it computes for a check."""
    call_memory_mb: int = 512
    """Memory the grader's process for those calls may add [MiB]."""
    served_cpu: float = 60.0
    """CPU seconds the grader spends on all of one submission's calls together."""

    def silence(self):
        """Seconds one step of the run (a cell, or a check) may take, by the clock."""
        return self.wall_factor * self.cpu + self.wall_extra

    def cpu_budget(self, steps):
        """CPU seconds of a whole run of ``steps`` cells and checks (a hard limit)."""
        return self.cpu * (steps + 2)


@dataclasses.dataclass
class Result:
    """What one run gave: the checks' records, the cells' outputs, or a fault."""

    records: dict = dataclasses.field(default_factory=dict)
    outputs: dict = dataclasses.field(default_factory=dict)
    status: dict = dataclasses.field(default_factory=dict)
    """``{cell: "ok" | "error" | "cpu" | "memory"}``, as the runner said."""
    fault: tuple = None
    """``(kind, detail)``: ``"died"``, ``"time"``, ``"wall"`` (the submission's cap; the
    detail is where), ``"data"`` (more than :data:`MAX_TOTAL` bytes), ``"protocol"`` or
    ``"setup"``; None if the run ended as planned."""
    cpu: float = 0.0
    """CPU seconds of the run as its runner counted them (for benchmarks, not for limits:
    the kernel's limits hold whatever the runner says)."""
    seconds: float = 0.0
    where: str = "before its first cell"
    """Where the run was when it ended (``in cell <id>``, ``in test_<name>_fresh``)."""


class SandboxUnavailable(RuntimeError):
    """This machine cannot make the sandbox; the message says why."""


# ---------------------------------------------------------------- can we?
def available():
    """``(True, "")`` when bubblewrap can make a sandbox here, else ``(False, reason)``.

    The reason names what is missing: bubblewrap, libseccomp, an option this bubblewrap
    lacks (its version said), or the privilege to make namespaces (only when bubblewrap
    said so).
    """
    exe = shutil.which("bwrap")
    if exe is None:
        return False, ("bubblewrap is not installed (Debian: apt-get install bubblewrap)")
    try:
        version, options = _features(exe)
    except (OSError, subprocess.SubprocessError) as exc:
        return False, (f"bubblewrap did not start ({exc})")
    lacks = [o for o in NEEDED if o not in options]
    if lacks:
        return False, (f"bubblewrap {version} lacks {', '.join(lacks)}, which the sandbox "
                       "needs (0.5.0 or later)")
    try:
        seccomp.program()
    except (RuntimeError, OSError, AttributeError) as exc:
        return False, (f"libseccomp, which builds the sandbox's system-call filter, is not "
                       f"usable ({exc}; Debian: apt-get install libseccomp2)")
    try:
        box = _Box(pathlib.Path("/nonexistent-build"), probe=True)
    except SandboxUnavailable as exc:
        return False, str(exc)
    try:
        proc = subprocess.run(box.cmd, capture_output=True, text=True, timeout=30,
                              pass_fds=box.fds, env=box.env)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, f"bubblewrap did not start ({exc})"
    finally:
        box.close()
    if proc.returncode != 0 or proc.stdout.strip() != "ok":
        why = (proc.stderr.strip().splitlines() or [proc.stdout.strip() or "no message"])[-1]
        if re.search(r"namespace|uid map|Operation not permitted|setting up", why, re.I):
            return False, (f"bubblewrap cannot create the sandbox's namespaces here ({why}): "
                           "a container needs the privilege to make namespaces")
        return False, f"bubblewrap {version} could not make the sandbox ({why})"
    return True, ""


def choose(hidden=()):
    """The sandbox this machine gives a notebook: ``(isolate, message)``.

    ``isolate`` is what :func:`run` takes: True for bubblewrap; where bubblewrap cannot
    make its namespaces and the grader is root (a container under Docker's default
    profile, Gradescope's), ``"uid"`` (``"uid-unfiltered"`` where the kernel refuses a
    seccomp filter): a uid of the run's own (:mod:`armlab.grading.uidbox`), once
    ``hidden`` (the folders that hold the answer key, the references, the secret) is
    made unreadable to it and a process of such a uid was seen to open not one file
    there; None when neither holds: nothing may run. There is no mode in which a
    notebook runs as the grader. ``message`` says which, and why, in one paragraph.
    """
    ok, why = available()
    if ok:
        version = _features(shutil.which("bwrap"))[0]
        return True, (f"the notebook runs in bubblewrap {version}'s sandbox: namespaces of "
                      "its own (none of the grader's files, no network, no other process), "
                      "a user of its own, the seccomp filter, limits on memory, CPU and files")
    from armlab.grading import uidbox

    filtered, whynot = uidbox.probe(hidden, hide=True)
    if filtered is None:
        return None, (f"NO SANDBOX, nothing graded: bubblewrap cannot run here ({why}), and "
                      f"neither can a sandbox without namespaces ({whynot})")
    users = f"uid {RUN_UIDS[0]}-{RUN_UIDS[-1]}"
    said = (f"bubblewrap cannot run here ({why}), so the notebook runs as a user of its own "
            f"({users}, one per run, every process of it killed after), without namespaces: "
            "not one of the grader's files readable to it (checked before grading), limits "
            "on memory, CPU, files and processes")
    if filtered:
        return "uid", said + ", the seccomp filter (no network, no new process)"
    return "uid-unfiltered", (said + "; the kernel refused the seccomp filter, so the "
                              "notebook has one thread and no new process, and the network")


@functools.lru_cache(maxsize=4)
def _features(exe):
    """``(version, options)`` of the bubblewrap at ``exe``: its version as it says it, and
    the set of options its ``--help`` lists."""
    said = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    version = (said.stdout.split() or ["(unknown version)"])[-1]
    helped = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=30)
    return version, frozenset(re.findall(r"^\s+(--[a-z0-9-]+)", helped.stdout, re.M))


def _runtime_paths():
    """Folders of the Python runtime, read-only in the sandbox."""
    paths = []
    for p in (sys.base_prefix, sys.prefix, sys.exec_prefix):
        p = os.path.realpath(p)
        if p not in paths and not any(p.startswith(q + os.sep) for q in paths):
            paths.append(p)
    return paths


def _system():
    """Bind and symlink arguments for the system's own folders (merged /usr or not)."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib64", "lib32"):
        path = pathlib.Path("/", name)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for name in ("/etc/ld.so.cache", "/etc/alternatives"):
        if os.path.exists(name):
            args += ["--ro-bind", name, name]
    return args


def _python():
    """The interpreter's path as the sandbox sees it: its folder resolved (a virtual
    environment reached through a symlinked folder is bound at its real place), its name
    kept (a venv's ``python`` finds the venv's ``pyvenv.cfg`` next to it)."""
    return os.path.join(os.path.realpath(os.path.dirname(sys.executable)),
                        os.path.basename(sys.executable))


def command(build, *, uid=None, limits=Limits(), probe=False, fds=(0, 1), seccomp_fd=None,
            runner_fd=None):
    """The bubblewrap command line of one run (``probe``: one that prints ``ok``).

    ``seccomp_fd`` is a file descriptor bubblewrap reads the system-call filter from
    (:func:`armlab.grading.seccomp.program`), ``runner_fd`` one it reads the runner's source
    from (copied into the sandbox, so no mount names the checkout); :class:`_Box` makes
    both and hands the command line itself to bubblewrap through a third (``--args``), so
    that the sandbox's PID 1, bubblewrap, shows no path of the machine in its
    ``/proc/1/cmdline``. Only options this bubblewrap has are used (:func:`_features`).
    """
    exe = shutil.which("bwrap") or "/usr/bin/bwrap"
    _, options = _features(exe)
    root = os.geteuid() == 0
    size = str(limits.file_mb * 2**20)
    sized = ["--size", size] if "--size" in options else []   # 0.7.0 and later
    args = [exe, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--clearenv",
            "--dev", "/dev", "--proc", "/proc", "--perms", "1777", *sized,
            "--tmpfs", "/tmp", "--perms", "1777", *sized, "--tmpfs", "/scratch",
            "--chdir", "/scratch"]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    args += _system()
    binds = [(path, path) for path in _runtime_paths()]
    if not probe:
        binds += [(str(build), "/opt/armlab")]
    made = set()
    for _, dest in binds + [(None, "/opt/runner.py")]:  # the folders above, readable by the user
        for parent in reversed(pathlib.PurePosixPath(dest).parents[:-1]):
            if str(parent) not in made:
                made.add(str(parent))
                args += ["--perms", "0755", "--dir", str(parent)]
    for src, dest in binds:
        args += ["--ro-bind", src, dest]
    if not probe:
        args += (["--perms", "0444", "--ro-bind-data", str(runner_fd), "/opt/runner.py"]
                 if runner_fd is not None else ["--ro-bind", str(RUNNER), "/opt/runner.py"])
    installed = pathlib.Path(_runner.__file__).resolve().parent.parent
    if any(str(installed).startswith(p + os.sep) for p in _runtime_paths()):
        args += ["--tmpfs", str(installed)]          # a pip-installed armlab: hide it
    env = {"HOME": "/scratch", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONUTF8": "1",
           "MPLBACKEND": "Agg", "MPLCONFIGDIR": "/tmp", "PYTHONHASHSEED": "0",
           "PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1", "PYTHONWARNINGS": "ignore"}
    for key, value in env.items():
        args += ["--setenv", key, value]
    if root:
        # The uid drop is setpriv's, after bubblewrap's mounts: a user namespace (which
        # --disable-userns needs as root) would map the sandbox's user to root outside.
        # Nested namespaces are refused by the seccomp filter instead.
        args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--",
                 shutil.which("setpriv") or "/usr/bin/setpriv", f"--reuid={uid}",
                 f"--regid={uid}", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all"]
    else:
        args[1:1] = ["--unshare-user"] + (["--disable-userns"]
                                          if "--disable-userns" in options else [])
        args += ["--"]
    if probe:
        hidden = str(RUNNER)                 # the checkout must not be there
        return args + [_python(), "-I", "-c", "import os; print('ok' if os.getuid() and "
                       "not os.path.exists(" + repr(hidden) + ") else 'no')"]
    return args + [_python(), "-I", "/opt/runner.py", str(fds[0]), str(fds[1])]


class _Box:
    """What one sandbox needs beside its command line, made before it starts and undone
    after it ends.

    * As root, a uid of its own (:func:`_claim`): no run shares a uid with another, a
      rerun of the same notebook included, and after the run every process of that uid is
      killed and it is checked to own no key and no SysV IPC object (:func:`_clear`).
    * The seccomp filter, the runner's source and the command line, in memory files that
      bubblewrap reads (``--seccomp``, ``--ro-bind-data``, ``--args``): ``cmd`` is
      ``[bwrap, "--args", fd, "--", setpriv ..., python, "-I", "/opt/runner.py", ...]``,
      which is all the sandbox's ``/proc/1/cmdline`` shows: no mount's source.
    * ``env``: bubblewrap starts with an empty environment (``/proc/1/environ``).

    ``fds`` are the descriptors to pass to bubblewrap; :meth:`close` undoes it all.
    """

    def __init__(self, build, *, limits=Limits(), fds=(0, 1), probe=False):
        self.fds, self.uid, self._lock = [], None, None
        self.env = {}
        try:
            if os.geteuid() == 0:
                self.uid, self._lock = _claim()
            bpf = self._memory("seccomp", seccomp.program())
            code = None if probe else self._memory("runner", RUNNER.read_bytes())
            args = command(build, uid=self.uid, limits=limits, probe=probe, fds=fds,
                           seccomp_fd=bpf, runner_fd=code)
            cut = args.index("--")         # bubblewrap takes the command itself on its argv
            listed = self._memory("args", b"".join(a.encode() + b"\0" for a in args[1:cut]))
        except BaseException:
            self.close()
            raise
        self.cmd = [args[0], "--args", str(listed), *args[cut:]]

    def _memory(self, name, data):
        """A memory file holding ``data``, read from its start (closed on exec unless passed)."""
        fd = os.memfd_create(name)
        self.fds.append(fd)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.lseek(fd, 0, os.SEEK_SET)
        return fd

    def close(self):
        """Close the memory files; as root, clear the run's uid and let it go."""
        for fd in self.fds:
            os.close(fd)
        self.fds = []
        if self._lock is not None:
            _clear(self.uid)
            os.close(self._lock)
            self._lock = None


def _claim():
    """``(uid, lock)``: a uid of :data:`RUN_UIDS` that no other run holds (an
    exclusive ``flock`` on its file in :data:`LOCKS`, held until the run's
    :meth:`_Box.close`) and nothing of which lives (:func:`_clear`), from a random start."""
    locks = LOCKS
    try:
        locks.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:                                    # no /run: root's own folder in /tmp
        locks = pathlib.Path(tempfile.gettempdir(), "armlab-sandbox-uids")
        locks.mkdir(mode=0o700, exist_ok=True)
    start = secrets.randbelow(len(RUN_UIDS))
    deadline = time.monotonic() + 10.0
    for k in range(len(RUN_UIDS)):
        uid = RUN_UIDS[(start + k) % len(RUN_UIDS)]
        fd = os.open(locks / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if _clear(uid, seconds=0.5):
                return uid, fd
        except BlockingIOError:                        # another run holds it
            pass
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
        if time.monotonic() > deadline:
            break
    raise SandboxUnavailable(f"every sandbox uid ({RUN_UIDS[0]} to {RUN_UIDS[-1]}) is in "
                             "use or still owns a process, a key or an IPC object")


def _clear(uid, seconds=5.0):
    """Kill every process of ``uid``, remove its SysV IPC objects on the machine (there are
    none: a run's own are in its IPC namespace and die with it), and say whether nothing of
    it is left: no process, no key in the kernel's keyrings (``/proc/key-users``; a run
    cannot make one, and a key cannot be removed for another uid: that uid is not taken),
    no IPC object.

    The killing is ``kill(-1, SIGKILL)`` from a child that has become ``uid``: the kernel
    signals every process the uid may signal at once (holding the process list, so none can
    fork away from it); then ``/proc`` is read until none of the uid is left.
    """
    deadline = time.monotonic() + seconds
    while True:
        if not _processes_of(uid):
            break
        if time.monotonic() > deadline:
            return False
        pid = os.fork()
        if pid == 0:                                   # the child: become uid, kill it all
            code = 2
            try:
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
                code = 0
                os.kill(-1, signal.SIGKILL)
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) == 2:
            raise SandboxUnavailable(f"the grader cannot become the sandbox's uid {uid} (it "
                                     "runs as root without CAP_SETUID?)")
        time.sleep(0.005)
    for kind, ident in _ipc_objects(uid):             # none: a run's IPC is its namespace's
        _remove_ipc(kind, ident)
    return uid not in _key_owners() and not _ipc_objects(uid)


def _processes_of(uid):
    """The pids of the live processes whose real, effective or saved uid is ``uid`` (not
    the zombies: they run nothing and hold no memory; their parent reaps them)."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/status", "rb") as status:
                    for line in status:
                        if line.startswith(b"State:") and line.split()[1] in (b"Z", b"X"):
                            break
                        if line.startswith(b"Uid:"):
                            if uid in map(int, line.split()[1:4]):
                                found.append(int(entry.name))
                            break
            except OSError:                            # it ended meanwhile
                pass
    return found


def _key_owners():
    """The uids the kernel holds keys for."""
    try:
        rows = pathlib.Path("/proc/key-users").read_text().splitlines()
    except OSError:
        return set()
    return {int(r.split(":")[0]) for r in rows if ":" in r}


def _ipc_objects(uid=None):
    """``[(kind, id)]`` of the SysV message queues (``msg``), semaphore sets (``sem``) and
    shared memory segments (``shm``) on the machine whose owner is ``uid`` (any, if None)."""
    found = []
    for kind in ("msg", "sem", "shm"):
        try:
            rows = pathlib.Path("/proc/sysvipc", kind).read_text().splitlines()
        except OSError:
            continue
        head = rows[0].split() if rows else []
        ident = {"msg": "msqid", "sem": "semid", "shm": "shmid"}[kind]
        for row in rows[1:]:
            fields = dict(zip(head, row.split()))
            if uid is None or int(fields["uid"]) == uid:
                found.append((kind, int(fields[ident])))
    return found


def _remove_ipc(kind, ident):
    """Remove one SysV IPC object (``IPC_RMID``), as ``ipcrm`` does."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if kind == "sem":
        libc.semctl(ident, 0, 0)
    else:
        getattr(libc, kind + "ctl")(ident, 0, None)


def _limits(limits, budget):
    """The resource limits of the sandbox's processes, set before bubblewrap starts."""
    import resource

    def apply():
        cap = limits.memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        size = limits.file_mb * 2**20
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        cpu = int(budget) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
        if os.geteuid() == 0:            # counted for the sandbox's own uid only
            resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))
    return apply


# ---------------------------------------------------------------- one run
def run(plan, build, *, serve, cases=None, limits=Limits(), isolate=True, deadline=None):
    """Run ``plan`` (see :mod:`armlab.grading.runner`) in a fresh sandbox.

    Parameters
    ----------
    plan : dict
        The steps (cells and checks; a check names the armlab functions it may have the
        grader compute, ``"served"``, and the earlier parts' functions it uses, ``"uses"``)
        and ``"served"``, the armlab functions the grader computes outside the checks.
    build : path
        The armlab the run imports (:func:`armlab.grading.shaker.build`).
    serve : callable
        ``serve(name, args, kwargs)`` computes a function for the sandbox (a name
        starting with ``@`` is an earlier part's reference); it returns encoded data
        or raises ``ValueError``/``TypeError`` with a message for the student.
    cases : dict
        ``{check: [encoded arguments of each case]}``, sent when the check begins (a
        check of a value has none).
    isolate : bool or str
        True: bubblewrap; ``"uid"`` (``"uid-unfiltered"``: no seccomp filter): a uid of
        the run's own where namespaces are refused (:mod:`armlab.grading.uidbox`, as
        root); False runs the runner as a plain process of this user (``--no-sandbox``).
    deadline : float, optional
        :func:`time.monotonic` time by which the run is stopped (the submission's cap,
        shared by its runs): a fault ``("wall", where)``.

    Returns
    -------
    Result
    """
    steps = plan["steps"]
    budget = limits.cpu_budget(len(steps))
    plan = dict(plan, cpu=limits.cpu, max_chars=limits.max_chars)
    checks = [s for s in steps if "check" in s]
    inside = {s["check"]: {"@" + u for u in s.get("uses", ())} | set(s.get("served", ()))
              for s in checks}
    served = set(plan.get("served", ()))
    cases = cases or {}
    down_r, down_w = os.pipe()                # grader -> runner
    up_r, up_w = os.pipe()                    # runner -> grader
    result = Result()
    started = time.monotonic()
    box = None
    try:
        if isolate in UID_MODES:                  # no namespaces: a uid of its own
            from armlab.grading import uidbox

            box = uidbox.Box(limits, budget, filtered=isolate == "uid")
            plan = dict(plan, armlab=str(build))
            proc = box.popen((down_r, up_w), (down_r, up_w))
        else:
            if isolate:
                box = _Box(build, limits=limits, fds=(down_r, up_w))
                cmd = box.cmd
            else:
                cmd = [sys.executable, "-I", str(RUNNER), str(down_r), str(up_w)]
                plan = dict(plan, armlab=str(build))
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL,
                                    pass_fds=(down_r, up_w, *(box.fds if box else ())),
                                    env=box.env if box else None,
                                    preexec_fn=_limits(limits, budget),
                                    start_new_session=True, cwd="/")
    except (OSError, SandboxUnavailable, subprocess.SubprocessError) as exc:
        for fd in (down_r, down_w, up_r, up_w):
            os.close(fd)
        if box:
            box.close()
        result.fault = ("setup", f"the sandbox did not start ({exc})")
        return result
    os.close(down_r)
    os.close(up_w)
    down = os.fdopen(down_w, "w", encoding="utf-8")
    try:
        down.write(json.dumps(plan) + "\n")
        down.flush()
        _follow(result, up_r, down, proc, serve, inside, served, steps, cases,
                limits.silence(), deadline)
    except BrokenPipeError:
        result.fault = result.fault or ("died", "the notebook's process ended "
                                                f"{result.where}")
    finally:
        try:
            down.close()
        except OSError:
            pass
        _end(proc)
        box and box.close()                  # as root: the run's uid killed and let go
        result.seconds = time.monotonic() - started
    return result


class _Order:
    """The plan's order, as the grader holds the runner to it: each cell's status, then
    each check's begin (answered with its cases) and result, then done. Calls are answered,
    while a check is open, for the functions that check may use (its served armlab
    functions and the earlier parts' references it uses) and, between checks, for the
    run's ``served`` functions, which the grader's plans leave empty (nothing that computes
    an answer is served between checks; the runner refuses such a call itself, so one
    that arrives was written by the notebook). Any other message is a protocol fault in
    ``result``."""

    def __init__(self, result, down, serve, inside, served, steps, cases):
        self.result, self.down, self.serve = result, down, serve
        self.inside, self.served, self.steps, self.cases = inside, served, steps, cases
        self.at, self.open_check, self.done = 0, None, False

    def here(self):
        if self.at >= len(self.steps):
            return "at the end of the notebook"
        step = self.steps[self.at]
        return f"in {step.get('label') or 'cell ' + str(step.get('cell'))}"

    def take(self, msg):
        """Act on one message of the runner's."""
        kind, result = msg["t"], self.result
        step = self.steps[self.at] if self.at < len(self.steps) else {}
        between = self.open_check is None
        if kind == "cell" and between and "code" in step and msg.get("cell") == step["cell"]:
            if isinstance(msg.get("outputs"), list):
                result.outputs[msg["cell"]] = msg["outputs"]
            result.status[msg["cell"]] = str(msg.get("status", "?"))[:10]
            self.at += 1
        elif kind == "begin" and between and "check" in step and \
                msg.get("check") == step["check"]:
            self.open_check = step["check"]
            self.down.write(json.dumps({"cases": self.cases.get(self.open_check)}) + "\n")
            self.down.flush()
        elif kind == "result" and not between and msg.get("check") == self.open_check \
                and isinstance(msg.get("records"), list):
            result.records[self.open_check] = msg["records"]
            self.open_check = None
            self.at += 1
        elif kind == "call" and isinstance(msg.get("name"), str) and (
                msg["name"] in self.served if between
                else msg["name"] in self.inside[self.open_check]):
            _answer(self.down, self.serve, msg)
        elif kind == "done" and between and self.at == len(self.steps):
            self.done = True
            cpu = msg.get("cpu")
            result.cpu = float(cpu) if isinstance(cpu, (int, float)) else 0.0
        else:
            result.fault = ("protocol", f"an unexpected {kind!r} message {self.here()}: did "
                                        "the notebook write to the grader's channel?")


def _message(line):
    """A line of the runner's as a message (a dict with a kind ``t``), or None."""
    try:
        msg = json.loads(line)
        msg["t"]
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    return msg if isinstance(msg, dict) else None


def _follow(result, up_r, down, proc, serve, inside, served, steps, cases, silence,
            deadline=None):
    """Read the run's messages until it is done, faulty, ``silence`` s into one step
    (a cell, or a check with the calls the grader answers for it) or at ``deadline``,
    holding the runner to the plan's order (:class:`_Order`)."""
    order = _Order(result, down, serve, inside, served, steps, cases)
    sel = selectors.DefaultSelector()
    sel.register(up_r, selectors.EVENT_READ)
    buffer, total = b"", 0
    heard = time.monotonic()
    while not order.done and result.fault is None:
        now = time.monotonic()
        if deadline is not None and now >= deadline:
            result.fault = ("wall", order.here())
            break
        left = silence - (now - heard)
        if deadline is not None:
            left = min(left, deadline - now + 0.01)
        if left <= 0:
            result.fault = ("time", f"the run spent more than {silence:.0f} s by the clock "
                                    f"{order.here()} and was stopped")
            break
        if not sel.select(timeout=min(left, 1.0)):
            if _exited(proc) and not sel.select(timeout=0):
                break
            continue
        chunk = os.read(up_r, 1 << 16)
        if not chunk:
            break
        total += len(chunk)
        buffer += chunk
        if total > MAX_TOTAL:               # many armlab calls on long arrays reach it
            result.fault = ("data", f"the notebook sent the grader more than "
                                    f"{MAX_TOTAL >> 20} MiB {order.here()} (its armlab calls' "
                                    "arguments, outputs and answers together) and was stopped")
            break
        if b"\n" not in buffer and len(buffer) > MAX_LINE:     # the runner writes no such line
            result.fault = ("protocol", f"the sandbox sent a message longer than "
                                        f"{MAX_LINE >> 20} MiB {order.here()}")
            break
        while b"\n" in buffer and not order.done and result.fault is None:
            line, buffer = buffer.split(b"\n", 1)
            msg = _message(line)
            if msg is None:
                result.fault = ("protocol", f"a message that is not the runner's {order.here()}")
                break
            if msg["t"] != "call":          # a step's time runs from its start, calls included
                heard = time.monotonic()
            order.take(msg)
    result.where = order.here()
    if not order.done and result.fault is None:
        for _ in range(40):                             # its exit status, when it has one
            if _exited(proc):
                break
            time.sleep(0.05)
        result.fault = ("died", f"the notebook's process ended {order.here()}"
                                f"{_how(proc.returncode)}")


def _how(code):
    """An exit status in words (bubblewrap reports a signal as 128 + its number)."""
    if code is None:
        return ""
    if code < 0 or code > 128:
        number = -code if code < 0 else code - 128
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        why = {"SIGXCPU": ": past its CPU limit", "SIGKILL": ": killed",
               "SIGSEGV": ": a crash", "SIGXFSZ": ": a file past its size limit"}
        return f" ({name}{why.get(name, '')})"
    return f" (exit status {code})"


def _exited(proc):
    """Whether the sandbox has ended (reaped, with its exit status kept)."""
    if proc.returncode is not None:
        return True
    try:
        pid, status = os.waitpid(proc.pid, os.WNOHANG)
    except ChildProcessError:
        return True
    if pid == 0:
        return False
    proc.returncode = os.waitstatus_to_exitcode(status)
    return True


def _answer(down, serve, msg):
    """Compute one call for the sandbox and send the answer (or the error) back."""
    try:
        value = serve(msg["name"], msg.get("args", []), msg.get("kwargs", {}))
        # an answer already in JSON (the serving process's, armlab.grading.serving.Raw)
        # goes on as it is: parsing and writing it again cost more than computing it
        line = ('{"value": ' + value + "}") if isinstance(value, _serving.Raw) \
            else json.dumps({"value": value})
    except Exception as exc:              # noqa: BLE001  (the sandbox's data, not the grader)
        kind = "TypeError" if isinstance(exc, TypeError) else "ValueError"   # a bound too
        line = json.dumps({"error": {"type": kind, "message": str(exc)[:600]}})
    down.write(line + "\n")
    down.flush()


def _end(proc):
    """Stop the sandbox and everything in it."""
    for _ in range(40):                           # a run that is done exits by itself
        if _exited(proc):
            return
        time.sleep(0.025)
    try:
        os.killpg(proc.pid, signal.SIGKILL)         # bwrap's PID namespace goes with it
    except OSError:
        pass
    try:
        _, status = os.waitpid(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    except ChildProcessError:                      # already reaped
        pass
