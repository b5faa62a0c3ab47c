"""Run every benchmark script in this folder (``make bench``).

Each ``bench_*.py`` measures one topic, prints its table and rewrites its own
results file ``benchmarks/<topic>.md``; ``benchmarks/README.md`` links them.
"""

import pathlib
import subprocess
import sys

here = pathlib.Path(__file__).parent
failed = []
for script in sorted(here.glob("bench_*.py")):
    print(f"== {script.name}", flush=True)
    if subprocess.call([sys.executable, str(script)]) != 0:
        failed.append(script.name)
if failed:
    sys.exit(f"benchmarks failed: {', '.join(failed)}")
