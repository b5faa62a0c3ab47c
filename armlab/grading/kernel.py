"""A grading kernel: ipykernel with a memory cap (``RLIMIT_AS``).

The autograder's kernelspec runs ``python -m armlab.grading.kernel
--memory-mb N -f {connection_file}``. The cap applies to the kernel process
only, so a memory bomb in an answer raises ``MemoryError`` in its cell (or, at
worst, ends the kernel) instead of taking the grading machine with it.
"""

import resource
import sys


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    memory_mb = 0
    if "--memory-mb" in argv:
        k = argv.index("--memory-mb")
        memory_mb = int(argv[k + 1])
        del argv[k:k + 2]
    if memory_mb > 0:
        cap = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    from ipykernel import kernelapp

    kernelapp.launch_new_instance(argv=argv)


if __name__ == "__main__":
    main()
