"""The autograder as Gradescope runs it: a container that refuses namespaces, an old bubblewrap.

Gradescope's default image is Ubuntu 22.04 (bubblewrap 0.6.1, without ``--size`` or
``--disable-userns``) and its containers run under Docker's default seccomp profile,
which refuses new namespaces. Both are emulated here, as root, with bubblewrap itself:

* **the container**: each submission is graded in a bubblewrap of its own (one container
  per submission, as Gradescope's) with a fresh ``/autograder`` (``source`` unpacked from
  the zip, ``submission``, ``results``, ``submission_metadata.json``), ``/tmp`` and ``/run``,
  the system and the Python runtime read-only, Docker's default capabilities and no more,
  and a seccomp filter that refuses what Docker's profile refuses of namespaces
  (``unshare``, ``setns``, ``clone`` with a namespace flag: ``EPERM``; ``clone3``:
  ``ENOSYS``), the mount table and the keyrings. armlab is installed in it as Gradescope's
  ``setup.sh`` installs it: a copy of the checkout's package, writable by root, where the
  interpreter imports it from (nothing else of the checkout is there: no solutions);
* **bubblewrap 0.6.1**: a ``bwrap`` first on the ``PATH`` that says 0.6.1, lists only
  the options 0.6.1 has and refuses the later ones (in its arguments or in its
  ``--args`` file) with 0.6.1's "Unknown option" before it runs the real one.

In that container the autograder must find no bubblewrap sandbox and grade every
notebook as a user of its own; attackers reach nothing (their notebooks lose part 5 if
they see anything) and honest students score what ``make grade`` gives them
(``tests/submissions/corpus.py``). Where namespaces are allowed, the same old bubblewrap
makes the sandbox with the options it has.
"""

import errno
import importlib.util
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from armlab.grading import gradescope, sandbox, seccomp
from armlab.grading.census import Problems

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
spec = importlib.util.spec_from_file_location("corpus", HERE / "submissions" / "corpus.py")
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)
spec = importlib.util.spec_from_file_location("tgs", HERE / "test_gradescope.py")
tgs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tgs)

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not sandbox.available()[0],
    reason="the emulated container is made with bubblewrap, as root")

DOCKER_CAPS = ("CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER", "CAP_MKNOD",
               "CAP_NET_RAW", "CAP_SETGID", "CAP_SETUID", "CAP_SETFCAP", "CAP_SETPCAP",
               "CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE")
"""The capabilities Docker gives a container's root by default (moby's
``oci/caps/defaults.go``)."""
LATER = ("--size", "--disable-userns", "--assert-userns-disabled", "--argv0",
         "--level-prefix", "--overlay-src", "--overlay", "--tmp-overlay", "--ro-overlay")
"""bubblewrap's options newer than 0.6.1 (0.7.0's ``--size``, 0.8.0's
``--disable-userns`` ...)."""
CPU = 5

# what a notebook could take of Gradescope's container without namespaces: the installed
# armlab (its references), /autograder, the grader's environment and files, the network;
# what it saw, it shows by losing part 5
CONTAINER = """
import glob, os, pathlib, signal, socket, sys
seen = []
def look(path):
    try:
        if os.path.isdir(path):
            seen.append((path, os.listdir(path)))
        else:
            seen.append((path, open(path, "rb").read(64)))
    except OSError:
        pass
places = ["/autograder", "/autograder/source", "/autograder/source/secret",
          "/autograder/submission_metadata.json", "/autograder/results"]
for target in ("/autograder/results/results.json", "/autograder/results/stdout"):
    try:
        pathlib.Path(target).write_text('{"score": 1000, "tests": []}')
        seen.append(("wrote", target))
    except OSError:
        pass
for finder in glob.glob(sys.prefix + "/lib/python3*/site-packages/__editable__*finder.py"):
    text = open(finder).read()
    places += [w.strip("'\\"") + "/grading/references" for w in text.split()
               if w.strip("'\\",}").endswith("/armlab")]
places += glob.glob(sys.prefix + "/lib/python3*/site-packages/armlab/grading/references")
for place in list(places):
    look(place)
    places += glob.glob(place + "/**", recursive=True)
for place in places:
    look(place)
for pid in [p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]:
    for part in ("environ", "cwd", "root", "fd", "mem"):
        look(f"/proc/{pid}/{part}")
    try:
        os.kill(int(pid), signal.SIGKILL)
        seen.append(("killed", pid))
    except OSError:
        pass
for family in (socket.AF_INET, socket.AF_INET6, socket.AF_NETLINK):
    try:
        socket.socket(family, socket.SOCK_DGRAM).close()
        seen.append(("socket", family))
    except OSError:
        pass
for folder in ("/tmp", "/dev/shm", "/var/tmp"):
    try:
        pathlib.Path(folder, "armlab-left-by-a-run").write_text("for the next run")
    except OSError:
        pass
seen = [s for s in seen if s[0] != "/proc/self"]
if seen:
    print("SEEN", seen[:5])
    def max_push(arm, q, direction, limit):
        return -1.0
"""

SUBMISSIONS = ["onewrongentry", "keyring"]


def _cases():
    """An honest student with one wrong entry, the keyring attack (held: its run ends
    itself) and one notebook with the full answers and the corpus's attacks on the machine
    (the grader's environment, its files, its parent, processes left behind) and on this
    container (CONTAINER): it scores full marks only if none of them saw anything."""
    out = {login: corpus.cases()[login] for login in SUBMISSIONS}
    nb = corpus.filled()
    for gid, code in (("torques_answer", corpus.SECRETS), ("gravity_answer", corpus.WRITES),
                      ("holding_answer", corpus.KILL_PARENT),
                      ("reactions_answer", corpus.DETACHED), ("push_answer", CONTAINER)):
        corpus.after(nb, gid, code)
    out["hostile"] = (nb, {}, corpus.FULL, set())
    return out


def _docker_filter(path, no_seccomp=False):
    """What Docker's default profile refuses of namespaces, mounts and keyrings, as BPF
    (``no_seccomp``: and a further filter, as a kernel without seccomp filters would)."""
    import pyseccomp as sc

    f = sc.SyscallFilter(sc.ALLOW)
    if no_seccomp:
        f.add_rule(sc.ERRNO(errno.EINVAL), "seccomp")
        f.add_rule(sc.ERRNO(errno.EINVAL), "prctl", sc.Arg(0, sc.EQ, 22))  # PR_SET_SECCOMP
    for name in ("unshare", "setns", "mount", "umount2", "pivot_root", "keyctl", "add_key",
                 "request_key"):
        f.add_rule(sc.ERRNO(errno.EPERM), name)
    for flag in seccomp.NAMESPACES.values():
        f.add_rule(sc.ERRNO(errno.EPERM), "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    with open(path, "wb") as out:
        f.export_bpf(out)


def _old_bwrap(folder):
    """``folder/bwrap``: bubblewrap 0.6.1's options, the real one underneath."""
    real = shutil.which("bwrap")
    later = " ".join(LATER)
    script = f"""#!/bin/bash
case "$1" in
  --version) echo 'bubblewrap 0.6.1'; exit 0;;
  --help) {real} --help | grep -v -E -e '^ *({"|".join(LATER)}) '; exit 0;;
esac
listed=("$@")
for ((k = 1; k <= $#; k++)); do
  if [ "${{!k}}" = --args ]; then
    n=$((k + 1)); mapfile -d '' more < /proc/self/fd/${{!n}}; listed+=("${{more[@]}}")
  fi
done
for a in "${{listed[@]}}"; do
  for o in {later}; do
    if [ "$a" = "$o" ]; then echo "bwrap: Unknown option $o" >&2; exit 1; fi
  done
done
exec {real} "$@"
"""
    path = folder / "bwrap"
    path.write_text(script)
    path.chmod(0o755)
    return path


@pytest.fixture(scope="module")
def container(tmp_path_factory):
    """``run(root, *command, namespaces=False)``: ``command`` in a container whose
    ``/autograder`` is ``root``; returns the finished process."""
    home = tmp_path_factory.mktemp("container")
    _docker_filter(home / "docker.bpf")
    _docker_filter(home / "noseccomp.bpf", no_seccomp=True)
    tools = home / "bin"
    tools.mkdir()
    _old_bwrap(tools)
    where = subprocess.run([sys.executable, "-I", "-c", "import armlab, os; print(os.path."
                            "dirname(armlab.__file__))"], capture_output=True, text=True,
                           cwd="/", check=True).stdout.strip()
    installed = home / "armlab"                  # the checkout's armlab, installed there
    shutil.copytree(REPO / "armlab", installed,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))

    def run(root, *command, namespaces=False, timeout=300, bpf="docker.bpf"):
        args = ["bwrap", "--die-with-parent", "--unshare-pid", "--unshare-ipc",
                "--unshare-uts", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/run"]
        for folder in ("/tmp", "/var/tmp", "/dev/shm"):       # anyone's, as on a machine
            args += ["--perms", "1777", "--tmpfs", folder]
        args += ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
        for name in ("bin", "sbin", "lib", "lib64"):
            path = pathlib.Path("/", name)
            if path.is_symlink():
                args += ["--symlink", str(path.readlink()), str(path)]
            elif path.is_dir():
                args += ["--ro-bind", str(path), str(path)]
        made = set()          # folders above the runtime and armlab, readable by anyone
        for path in sandbox._runtime_paths() + [where]:
            for parent in reversed(pathlib.PurePosixPath(path).parents[:-1]):
                if str(parent) not in made:
                    made.add(str(parent))
                    args += ["--perms", "0755", "--dir", str(parent)]
        for path in sandbox._runtime_paths():
            args += ["--ro-bind", path, path]
        args += ["--bind", str(installed), where, "--ro-bind", str(tools), "/opt/tools",
                 "--bind", str(root), "/autograder", "--chdir", "/autograder"]
        if not namespaces:                    # else a privileged container: root's all
            args += ["--cap-drop", "ALL"]
            for cap in DOCKER_CAPS:
                args += ["--cap-add", cap]
        args += ["--clearenv", "--setenv", "PATH", "/opt/tools:/usr/bin:/bin:/usr/sbin:/sbin",
                 "--setenv", "ARMLAB_GRADESCOPE_PYTHON", sys.executable]
        with open(home / bpf, "rb") as bpf:
            if not namespaces:
                args += ["--seccomp", str(bpf.fileno())]
            return subprocess.run(args + ["--", *command], capture_output=True, text=True,
                                  timeout=timeout, pass_fds=(bpf.fileno(),))
    return run


@pytest.fixture(scope="module")
def zipped(tmp_path_factory):
    out = tmp_path_factory.mktemp("zip") / "autograder.zip"
    gradescope.build("statics", out, secret=corpus.SECRET, cpu=CPU)
    return out


def _root(tmp_path_factory, zipped, files, login):
    root = tmp_path_factory.mktemp(login) / "autograder"
    tgs._layout(root, zipped, files, tgs._metadata(f"{login}@example.edu"))
    return root


@pytest.fixture(scope="module")
def graded(container, zipped, tmp_path_factory):
    """Each submission in a container of its own: ``{login: (results, process, ...)}``."""
    out = {}
    for login, (nb, extra, total, kinds) in sorted(_cases().items()):
        root = _root(tmp_path_factory, zipped, tgs._files(nb, extra), login)
        proc = container(root, "/autograder/source/run_autograder")
        results = root / "results" / "results.json"
        out[login] = (json.loads(results.read_text()) if results.exists() else None, proc,
                      total, kinds)
    return out


def test_the_build_log_says_which_sandbox(container, zipped, tmp_path_factory):
    """setup.sh's last step, in a container that refuses namespaces (the autograder grades
    as a user of its own) and in one that allows them (bubblewrap 0.6.1 without --size)."""
    root = _root(tmp_path_factory, zipped, {}, "log")
    refused = container(root, sys.executable, "-I", "-m", "armlab.grading.gradescope", "check")
    assert refused.returncode == 0, refused.stderr[-2000:]
    said = refused.stdout.strip()
    assert said.startswith("armlab: the sandbox works in this image: bubblewrap cannot run "
                           "here (bubblewrap cannot create the sandbox's namespaces here "
                           "(bwrap: "), said
    assert ("so the notebook runs as a user of its own (uid 62000-64047, one per run, every "
            "process of it killed after), without namespaces") in said
    assert said.endswith("the seccomp filter (no network, no new process)")
    allowed = container(root, sys.executable, "-I", "-m", "armlab.grading.gradescope",
                        "check", namespaces=True)
    assert (allowed.returncode, allowed.stdout.strip()) == (
        0, "armlab: the sandbox works in this image: the notebook runs in bubblewrap 0.6.1's "
           "sandbox: namespaces of its own (none of the grader's files, no network, no other "
           "process), a user of its own, the seccomp filter, limits on memory, CPU and files")


def test_bubblewrap_0_6_1_grades_where_namespaces_are_allowed(container, zipped,
                                                             tmp_path_factory):
    """A privileged container: the old bubblewrap's sandbox, made with the options it has,
    grades an honest student to full marks."""
    root = _root(tmp_path_factory, zipped, {"statics.ipynb": corpus.filled()}, "privileged")
    proc = container(root, "/autograder/source/run_autograder", namespaces=True)
    results = json.loads((root / "results" / "results.json").read_text())
    armlab = results["extra_data"]["armlab"]
    assert (proc.returncode, results["score"], armlab["status"]) == (0, corpus.FULL, "ok"), (
        results["output"], proc.stderr[-2000:])
    assert armlab["sandbox"].startswith("the notebook runs in bubblewrap 0.6.1's sandbox")


@pytest.mark.parametrize("login", sorted(_cases()))
def test_each_submission_scores_what_make_grade_gives(graded, login):
    results, proc, total, kinds = graded[login]
    assert results is not None, proc.stderr[-2000:]
    armlab = results["extra_data"]["armlab"]
    assert armlab["sandbox"].startswith("bubblewrap cannot run here"), armlab
    held = bool(set(kinds) & set(Problems.REVIEW))
    faults = [r for r in armlab.get("review", []) if r.startswith("grading fault")]
    assert bool(faults) == ("grading fault" in kinds), armlab      # held for its own reason
    assert (armlab["status"], proc.returncode) == ("review" if held else "ok", 0), (
        armlab, results["output"])
    if not held:
        assert results["score"] == total, results["output"]
    assert corpus.SECRET not in json.dumps(results) + proc.stdout + proc.stderr


# one run of cells as the autograder makes it in the container, then what is left of it
RUNS = r"""
import glob, json, os, pathlib, sys, tempfile
import armlab
from armlab.grading import sandbox, shaker
isolate, said = sandbox.choose(["/autograder", os.path.dirname(armlab.__file__)])
build = pathlib.Path(tempfile.mkdtemp()); build.chmod(0o755)
shaker.build(build / "b", keep={"joint_positions"})
cells = [
  "import numpy as np, matplotlib.pyplot as plt\n"
  "x = np.linalg.solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])\n"
  "fig, ax = plt.subplots(); ax.plot([0, 1], x); fig.savefig('f.png')\n"
  "print(x.round(6).tolist(), os.path.getsize('f.png') > 1000)",
  "import threading; b = []; t = threading.Thread(target=b.append, args=(1,)); t.start()\n"
  "t.join(); print('thread', b)",
  "pid = os.fork()",
  "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM)",
  "x = bytearray(600 * 2**20)",
  "open('big', 'wb').write(b'0' * (100 * 2**20))",
  "import glob; print(sum(os.access(p, os.R_OK) for p in glob.glob('/autograder/**', "
  "recursive=True) + glob.glob(os.path.dirname(np.__file__) + '/../armlab/**')))",
  "for f in ('/tmp/armlab-left', '/dev/shm/armlab-left', '/var/tmp/armlab-left'):\n"
  "    open(f, 'w').write('for the next run')\n"
  "print(os.getuid() in range(62000, 64048), os.getgroups())",
]
steps = [{"cell": k, "code": ("import os\n" if k == 0 else "") + c} for k, c in enumerate(cells)]
def refuse(name, args, kwargs):
    raise TypeError(name)
r = sandbox.run({"steps": steps, "outputs": True}, build / "b", serve=refuse, isolate=isolate,
                limits=sandbox.Limits(cpu=5, memory_mb=512, file_mb=16))
said = {k: "".join(o.get("text", "") for o in out if o["output_type"] == "stream").strip()
        or next((o["ename"] for o in out if o["output_type"] == "error"), "")
        for k, out in r.outputs.items()}
left = glob.glob("/tmp/armlab-left") + glob.glob("/dev/shm/armlab-left") + glob.glob(
    "/var/tmp/armlab-left")
alive = [u for u in sandbox.RUN_UIDS if sandbox._processes_of(u)]
print(json.dumps({"isolate": isolate, "fault": r.fault, "said": said, "left": left,
                  "alive": alive}))
"""


@pytest.mark.parametrize("bpf", ["docker.bpf", "noseccomp.bpf"])
def test_a_run_without_namespaces_holds(container, tmp_path, bpf):
    """What a run as a user of its own may do: numpy and matplotlib; not a process, a socket
    or more than its memory and file size, nor read one file of /autograder or the installed
    armlab; nothing of it is left after it. Where the kernel refuses the seccomp filter, it
    has one thread (RLIMIT_NPROC), so no process either, and the network."""
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "secret").write_text(corpus.SECRET)
    proc = container(tmp_path, sys.executable, "-I", "-c", RUNS, bpf=bpf)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.splitlines()[-1])
    filtered = bpf == "docker.bpf"
    assert (out["isolate"], out["fault"], out["left"], out["alive"]) == (
        "uid" if filtered else "uid-unfiltered", None, [], [])
    assert out["said"] == {
        "0": "[0.8, 1.4] True", "1": "thread [1]" if filtered else "RuntimeError",
        "2": "PermissionError" if filtered else "BlockingIOError",
        "3": "OSError" if filtered else "", "4": "MemoryError", "5": "OSError", "6": "0",
        "7": "True []"}
