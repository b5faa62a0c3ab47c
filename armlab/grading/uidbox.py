"""The sandbox where a container refuses namespaces: a user of the run's own.

Where Docker's seccomp profile (Gradescope's) refuses bubblewrap's namespaces, a run gets
a uid of its own (:data:`armlab.grading.sandbox.RUN_UIDS`, no capability,
``no_new_privs``), the grader's folders made unreadable (:func:`hide_paths`) and checked
so (:func:`probe`), the same limits and seccomp filter (else ``RLIMIT_NPROC`` of 1), and a
fresh process tree whose processes, IPC objects and shared-folder files are removed after
the run. Unlike bubblewrap, it sees the machine's file tree, which holds no expected value.
"""

import ctypes
import json
import os
import pathlib
import resource
import shutil
import stat
import subprocess
import sys
import tempfile

from armlab.grading import runner as _runner
from armlab.grading import seccomp

SHARED = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run/lock")
"""Folders any uid may write in: what a run's uid leaves there is deleted after it."""
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
MAX_PROBED = 20_000
"""Files :func:`probe` tries to open at most (Gradescope's source and armlab: ~300)."""
NAME = "a user of its own (no namespaces)"


class _Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _runner_copy():
    """The runner's source in a folder of root's that any uid reads (the installed armlab
    is hidden from the run)."""
    if not _RUNNER:
        folder = pathlib.Path(tempfile.mkdtemp(prefix="armlab-runner-"))
        folder.chmod(0o755)
        path = folder / "runner.py"
        path.write_bytes(pathlib.Path(_runner.__file__).read_bytes())
        path.chmod(0o444)
        import atexit

        atexit.register(shutil.rmtree, folder, True)
        _RUNNER.append(path)
    return _RUNNER[0]


_RUNNER = []


def environment(home):
    """The run's whole environment (the grader's is not passed on)."""
    return {"HOME": home, "TMPDIR": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            "PYTHONUTF8": "1", "MPLBACKEND": "Agg", "MPLCONFIGDIR": home,
            "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "PYTHONWARNINGS": "ignore"}


def _setup(memory_mb, file_mb, cpu, processes, code):
    """The child's last steps before the runner, after it became the run's uid (Python's
    ``subprocess`` changes the uid before it calls this): limits, ``no_new_privs``, the
    filter (``code``: compiled BPF, or None). Everything is made here, before the fork."""
    libc = ctypes.CDLL(None, use_errno=True)
    prog = None
    if code is not None:
        buf = ctypes.create_string_buffer(code, len(code))
        prog = _Fprog(len(code) // 8, ctypes.addressof(buf))
    limits = [(resource.RLIMIT_AS, memory_mb * 2**20), (resource.RLIMIT_FSIZE, file_mb * 2**20),
              (resource.RLIMIT_CORE, 0), (resource.RLIMIT_NPROC, processes)]
    cpu = int(cpu) + 1

    def apply():
        for which, value in limits:
            resource.setrlimit(which, (value, value))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
        if os.getuid() == 0 or os.geteuid() == 0:
            raise OSError("the run is still root")
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "no_new_privs refused")
        if prog is not None and libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER,
                                           ctypes.byref(prog), 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "the kernel refused the seccomp filter")
    apply._keep = buf if code is not None else None    # alive until the fork
    return apply


class Box:
    """One run's uid, scratch folder and command (what :class:`sandbox._Box` is for
    bubblewrap): ``popen(fds)`` starts the runner; :meth:`close` kills every process of the
    uid, deletes its files in :data:`SHARED` and lets the uid go.

    ``filtered``: load the seccomp filter (else one thread: ``RLIMIT_NPROC`` 1).
    """

    def __init__(self, limits, budget, *, filtered=True):
        from armlab.grading import sandbox

        self.uid, self._lock = sandbox._claim()
        self.filtered = filtered
        try:
            self.scratch = tempfile.mkdtemp(prefix="armlab-run-")
            os.chown(self.scratch, self.uid, self.uid)
            os.chmod(self.scratch, 0o700)
            self.setup = _setup(limits.memory_mb, limits.file_mb, budget,
                                limits.processes if filtered else 1,
                                seccomp.program() if filtered else None)
        except BaseException:
            self.close()
            raise

    def popen(self, args, fds):
        """Start ``python -I runner.py *args`` as the run's uid (``fds`` passed on)."""
        cmd = [sys.executable, "-I", str(_runner_copy()), *map(str, args)]
        return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, pass_fds=fds, cwd=self.scratch,
                                env=environment(self.scratch), user=self.uid, group=self.uid,
                                extra_groups=[], preexec_fn=self.setup,
                                start_new_session=True)

    def close(self):
        from armlab.grading import sandbox

        if self._lock is None:
            return
        try:
            sandbox._clear(self.uid)                 # every process of it killed first
            for folder in SHARED:
                remove_files_of(self.uid, folder)
            shutil.rmtree(getattr(self, "scratch", "/nonexistent"), ignore_errors=True)
        finally:
            os.close(self._lock)
            self._lock = None


def remove_files_of(uid, folder):
    """Delete what ``uid`` owns under ``folder`` (no link followed), its folders with
    what they hold."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if info.st_uid == uid:
            if stat.S_ISDIR(info.st_mode):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                try:
                    os.unlink(entry.path)
                except OSError:
                    pass
        elif stat.S_ISDIR(info.st_mode) and os.access(entry.path, os.W_OK):
            remove_files_of(uid, entry.path)         # another's folder it may write in


def hide_paths(paths):
    """Take group's and others' permissions off ``paths`` and all they hold (no link
    followed); the owner keeps its own.

    Parameters
    ----------
    paths : iterable of path
        Files or folders (absent ones are skipped).

    Returns
    -------
    list of str
        What could not be changed, with the reason.

    >>> import tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp()); (folder / "key").write_text("42")
    2
    >>> folder.chmod(0o755); (folder / "key").chmod(0o644)
    >>> hide_paths([folder]), oct(folder.stat().st_mode & 0o777), oct((folder / "key")
    ...                                                              .stat().st_mode & 0o777)
    ([], '0o700', '0o600')
    """
    failed = []
    for top in map(pathlib.Path, paths):
        if not top.exists():
            continue
        for folder, dirs, files in os.walk(top):
            for path in [folder, *(os.path.join(folder, n) for n in dirs + files)]:
                try:
                    mode = os.lstat(path).st_mode
                    if not stat.S_ISLNK(mode) and mode & 0o077:
                        os.chmod(path, stat.S_IMODE(mode) & 0o700)
                except OSError as exc:
                    failed.append(f"{path} ({exc.strerror})")
    return failed


_PROBE = r"""
import json, os, sys
paths = json.loads(sys.stdin.read())
opened = []
for p in paths:
    try:
        if os.path.isdir(p):
            os.listdir(p)
        else:
            with open(p, "rb") as f:
                f.read(1)
        opened.append(p)
    except OSError:
        pass
status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
try:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    forked = True
except OSError:
    forked = False
print(json.dumps({"opened": opened, "uid": os.getuid(),
                  "seccomp": status["Seccomp"].strip(),
                  "nnp": status["NoNewPrivs"].strip(), "forked": forked,
                  "caps": status["CapEff"].strip()}))
"""


def _listed(paths):
    """Every file and folder under ``paths`` (as root sees them), at most MAX_PROBED."""
    out = []
    for top in map(str, paths):
        if os.path.lexists(top):
            out.append(top)
        for folder, dirs, files in os.walk(top):
            out += [os.path.join(folder, n) for n in dirs + files]
            if len(out) > MAX_PROBED:
                return out[:MAX_PROBED]
    return out


def filter_loads():
    """Whether the kernel lets a process load the seccomp filter (tried in a child)."""
    try:
        code = seccomp.program()
    except (RuntimeError, OSError, AttributeError, ImportError):
        return False
    setup = _setup(64, 1, 10, 1, code)
    pid = os.fork()
    if pid == 0:                                   # the child: root, so not setup's check
        status = 1
        try:
            os.setresgid(65534, 65534, 65534)
            os.setresuid(65534, 65534, 65534)
            setup()
            status = 0
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def probe(hidden, limits=None, hide=False):
    """Whether a run of this mode can start here and reads nothing of ``hidden`` (made
    unreadable first with :func:`hide_paths` when ``hide``): ``(filtered, "")`` with
    ``filtered`` whether the seccomp filter loads, or ``(None, why not)``. Needs root (to
    give the run a uid)."""
    from armlab.grading import sandbox

    if os.geteuid() != 0:
        return None, ("it gives the notebook a uid of its own, which needs the grader to "
                      "run as root")
    if hide:
        hide_paths(hidden)
    limits = limits or sandbox.Limits()
    paths = _listed(hidden) + [f"/proc/{os.getpid()}/environ"]
    filtered = filter_loads()
    try:
        box = Box(limits, 30, filtered=filtered)
    except (OSError, RuntimeError, AttributeError, sandbox.SandboxUnavailable) as exc:
        return None, f"no uid for the run ({exc})"
    said, why = None, ""
    try:
        cmd = [sys.executable, "-I", "-c", _PROBE]
        proc = subprocess.run(cmd, input=json.dumps(paths), capture_output=True, text=True,
                              timeout=60, cwd=box.scratch, env=environment(box.scratch),
                              user=box.uid, group=box.uid, extra_groups=[],
                              preexec_fn=box.setup, start_new_session=True)
        said = json.loads(proc.stdout) if proc.returncode == 0 else None
        why = (proc.stderr.strip().splitlines() or ["no message"])[-1]
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        why = str(exc)
    finally:
        box.close()
    if said is None:
        return None, f"a process of a uid of its own did not start ({why})"
    if said["uid"] == 0 or said["nnp"] != "1" or int(said["caps"], 16) != 0 or (
            filtered and said["seccomp"] != "2"):
        return None, ("the run kept root's privileges (uid 0, a capability or no "
                      "no_new_privs) or lost its filter")
    if said["opened"]:
        return None, (f"the run could read {len(said['opened'])} of the grader's files, "
                      f"{said['opened'][0]} first")
    if said["forked"]:
        return None, "the run could make a new process"
    return filtered, ""
