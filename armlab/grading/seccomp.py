"""The system calls a graded notebook may not make: a seccomp filter for the sandbox.

The filter (:data:`REFUSED`, built with libseccomp through ``pyseccomp``, which also
checks the architecture and kills 32-bit and x32 calls) refuses with an ``OSError``:
keyrings, new namespaces (``clone3`` with ``ENOSYS``), new processes (threads stay
allowed, so ``RLIMIT_AS`` holds for the whole sandbox), sockets other than ``AF_UNIX``,
mounts and root, other processes' memory and the kernel's introspection, and the
machine's own state. An honest notebook (Python, numpy, matplotlib's Agg, the runner)
needs none of them.

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
