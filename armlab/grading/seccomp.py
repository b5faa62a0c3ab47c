"""The system calls a graded notebook may not make: a seccomp filter for the sandbox.

bubblewrap loads the filter (``--seccomp FD``, a compiled BPF program) into the
sandbox's first process just before it starts the runner; every process the
notebook could make inherits it and cannot remove it (a later filter only adds
refusals). The filter refuses, with an error the notebook sees as an ``OSError``:

* the kernel's **keyrings** (``keyctl``, ``add_key``, ``request_key``): they belong
  to a uid and a login session, not to the sandbox, so a key stored by one run
  would be read by the next run of the same uid, and a non-root grader's sandbox
  would read the instructor's session keyring;
* **new namespaces** (``unshare``, ``setns``, ``clone`` with a namespace flag;
  ``clone3`` with ``ENOSYS``, since its flags sit in memory the filter cannot
  read, which makes glibc fall back to ``clone``): a nested user namespace gives
  its creator every capability inside it (new mounts, networks, PIDs);
* **new processes** (``fork``, ``vfork``, ``clone`` without ``CLONE_THREAD``): the
  memory cap (``RLIMIT_AS``) holds per process, so with one process it holds for
  the whole sandbox; threads share their process's address space and stay allowed;
* **sockets other than local ones** (``socket`` of any family but ``AF_UNIX``, with
  ``EAFNOSUPPORT``): the network, which a container that refuses namespaces
  (:mod:`armlab.grading.uidbox`) cannot take away otherwise, and the kernel's netlink;
* the **mount table** and root (``mount``, ``umount2``, ``pivot_root``, ``chroot``
  and the new mount API ``fsopen`` ... ``mount_setattr``);
* **other processes' memory** and the kernel's introspection (``ptrace``,
  ``process_vm_readv``/``writev``, ``kcmp``, ``pidfd_getfd``, ``perf_event_open``,
  ``bpf``, ``userfaultfd``, which also stretches kernel races, ``io_uring_*``, a
  large kernel surface the container runtimes refuse too, ``syslog``,
  ``lookup_dcookie``);
* **the machine's own state** (``kexec_load``, ``kexec_file_load``, ``init_module``,
  ``finit_module``, ``delete_module``, ``reboot``, ``swapon``, ``swapoff``, ``acct``,
  ``quotactl``, ``settimeofday``, ``clock_settime``, ``clock_adjtime``,
  ``adjtimex``, ``sethostname``, ``setdomainname``, ``iopl``, ``ioperm``,
  ``vhangup``, ``open_by_handle_at``, ``name_to_handle_at``, ``fanotify_init``).

An honest notebook needs none of them: Python, numpy (its BLAS runs one thread,
``OPENBLAS_NUM_THREADS=1``, and threads stay allowed), matplotlib's Agg backend (its
font list asks ``fc-list`` in a subprocess and goes on without it when that
fails) and the runner (:mod:`armlab.grading.runner`: one process, signals and an
interval timer) make only allowed calls. Calls from another architecture's
table (32-bit ``int 0x80``, x32) kill the process: libseccomp's filter checks the
architecture and x32 numbers, which a hand-written filter easily forgets. That is
why the filter is built with libseccomp (through ``pyseccomp``, a ctypes binding
that needs only the C library ``libseccomp2``, present on Debian and Ubuntu, and no
compiler) rather than as BPF written here.

>>> code = program()
>>> len(code) % 8, len(code) > 8 * len(REFUSED)     # struct sock_filter: 8 bytes each
(0, True)
"""

import errno
import functools
import socket

CLONE_THREAD = 0x00010000
NAMESPACES = {"CLONE_NEWNS": 0x00020000, "CLONE_NEWCGROUP": 0x02000000,
              "CLONE_NEWUTS": 0x04000000, "CLONE_NEWIPC": 0x08000000,
              "CLONE_NEWUSER": 0x10000000, "CLONE_NEWPID": 0x20000000,
              "CLONE_NEWNET": 0x40000000}
"""The ``clone`` flags that make a namespace (``linux/sched.h``)."""

REFUSED = {
    "keyctl": "keyrings outlive the run (uid and session keyrings)",
    "add_key": "keyrings outlive the run",
    "request_key": "keyrings outlive the run",
    "unshare": "a nested namespace has every capability inside",
    "setns": "entering another namespace",
    "fork": "one process: the memory cap holds for the whole sandbox",
    "vfork": "one process",
    "mount": "the mount table", "umount2": "the mount table", "pivot_root": "the root",
    "chroot": "the root", "fsopen": "new mount API", "fsconfig": "new mount API",
    "fsmount": "new mount API", "fspick": "new mount API", "move_mount": "new mount API",
    "open_tree": "new mount API", "mount_setattr": "new mount API",
    "ptrace": "another process's memory", "process_vm_readv": "another process's memory",
    "process_vm_writev": "another process's memory", "kcmp": "another process's files",
    "pidfd_getfd": "another process's files",
    "perf_event_open": "kernel introspection and side channels",
    "bpf": "programs in the kernel", "userfaultfd": "stretches kernel races",
    "io_uring_setup": "a large kernel surface", "io_uring_enter": "a large kernel surface",
    "io_uring_register": "a large kernel surface", "syslog": "the kernel's log",
    "lookup_dcookie": "kernel introspection",
    "kexec_load": "a new kernel", "kexec_file_load": "a new kernel",
    "init_module": "kernel modules", "finit_module": "kernel modules",
    "delete_module": "kernel modules", "reboot": "the machine", "swapon": "the machine",
    "swapoff": "the machine", "acct": "the machine", "quotactl": "the machine",
    "settimeofday": "the clock", "clock_settime": "the clock",
    "clock_adjtime": "the clock", "adjtimex": "the clock", "sethostname": "the host",
    "setdomainname": "the host", "iopl": "I/O ports", "ioperm": "I/O ports",
    "vhangup": "terminals", "open_by_handle_at": "files outside the mounts",
    "name_to_handle_at": "files outside the mounts", "fanotify_init": "other files' events",
}
"""Each system call refused with ``EPERM``, and why (``clone`` and ``clone3``: see
:func:`program`)."""


@functools.lru_cache(maxsize=1)
def program():
    """The filter as a compiled BPF program, the bytes bubblewrap's ``--seccomp`` reads.

    Returns
    -------
    bytes
        ``struct sock_filter`` instructions (8 bytes each) for this machine's
        architecture. Raises ``RuntimeError`` when libseccomp is not installed.
    """
    import tempfile

    import pyseccomp as sc

    f = sc.SyscallFilter(sc.ALLOW)
    refuse = sc.ERRNO(errno.EPERM)
    for name in REFUSED:
        if sc.resolve_syscall(sc.Arch.NATIVE, name) >= 0:     # absent on some architectures
            f.add_rule(refuse, name)
    f.add_rule(refuse, "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))   # a new process
    for flag in NAMESPACES.values():                                        # a namespace
        f.add_rule(refuse, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    # sockets other than local ones: the network (no namespace hides it in a container
    # that refuses them, armlab.grading.uidbox) and the kernel's netlink and packet ones
    f.add_rule(sc.ERRNO(errno.EAFNOSUPPORT), "socket", sc.Arg(0, sc.NE, socket.AF_UNIX))
    with tempfile.TemporaryFile() as out:
        f.export_bpf(out)
        out.seek(0)
        return out.read()
