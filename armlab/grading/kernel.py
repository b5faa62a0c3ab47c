"""A grading kernel: ipykernel with a memory cap and bounded output.

The autograder's kernelspec runs ``python -m armlab.grading.kernel
--memory-mb N --max-chars C -f {connection_file}``.

* ``--memory-mb``: an address-space limit (``RLIMIT_AS``) on the kernel process
  only, so a memory bomb in an answer raises ``MemoryError`` in its cell (or,
  at worst, ends the kernel) instead of taking the grading machine with it.
* ``--max-chars``: each cell's printed text is cut after ``C`` characters
  inside the kernel, so 100 MB of output never crosses to the grader. (The
  grader cuts again on its side, see :mod:`armlab.grading.preprocessors`.)
"""

import resource
import sys

from armlab.grading.messages import TRUNCATED

NOTE = f"\n{TRUNCATED}\n"


def cap_streams(max_chars):
    """Cut what one cell writes to stdout and stderr after ``max_chars`` characters."""
    from ipykernel import iostream

    original = iostream.OutStream.write
    state = {"cell": None, "used": 0, "noted": False}

    def write(self, string):
        try:
            cell = self.parent_header.get("header", {}).get("msg_id")
        except Exception:                                   # noqa: BLE001
            cell = None
        if cell != state["cell"]:
            state.update(cell=cell, used=0, noted=False)
        if not isinstance(string, str):
            return original(self, string)
        room = max_chars - state["used"]
        state["used"] += len(string)
        if room >= len(string):
            return original(self, string)
        if room > 0:
            original(self, string[:room])
        if not state["noted"] and self.name == "stdout":
            state["noted"] = True
            original(self, NOTE)
        return len(string)

    iostream.OutStream.write = write


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    options = {"--memory-mb": 0, "--max-chars": 0}
    for flag in options:
        if flag in argv:
            k = argv.index(flag)
            options[flag] = int(argv[k + 1])
            del argv[k:k + 2]
    if options["--memory-mb"] > 0:
        cap = options["--memory-mb"] * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    if options["--max-chars"] > 0:
        cap_streams(options["--max-chars"])
    from ipykernel import kernelapp

    kernelapp.launch_new_instance(argv=argv)


if __name__ == "__main__":
    main()
