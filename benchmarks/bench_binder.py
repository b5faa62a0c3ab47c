"""Benchmark Binder's install: requirements.txt into a fresh venv, then postBuild; writes
benchmarks/binder.md.

Binder (repo2docker) installs ``requirements.txt`` with pip into its environment and then
runs ``postBuild``. This script does the same on this machine: a fresh venv from the
Python of ``runtime.txt``, the repository's tracked files copied to a temporary folder
(``-e .`` installs armlab from there), ``pip install --no-cache-dir -r requirements.txt``
from the package index (nothing cached), then ``bash postBuild`` with
``NB_PYTHON_PREFIX`` set to the venv. Binder's own steps (the base image, the
Docker layers, pushing the image) are not included: they are Binder's, the same for
every repository.

Run from the repository root: ``.venv/bin/python benchmarks/bench_binder.py``.
"""

import datetime
import os
import pathlib
import platform
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "binder.md"


def timed(cmd, **kwargs):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, **kwargs)
    return time.perf_counter() - start


def size(path):
    return sum(f.stat().st_size for f in pathlib.Path(path).rglob("*") if f.is_file())


def main():
    python = "python" + (ROOT / "runtime.txt").read_text().strip().removeprefix("python-")
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        src, venv = pathlib.Path(tmp) / "src", pathlib.Path(tmp) / "venv"
        files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                               check=True).stdout.decode().split("\0")
        for name in filter(None, files):
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            if (ROOT / name).is_file():
                shutil.copy2(ROOT / name, src / name)
        t_venv = timed([python, "-m", "venv", str(venv)])
        cpu0 = os.times()
        t_pip = timed([str(venv / "bin" / "pip"), "install", "--no-cache-dir", "-q", "-r",
                       "requirements.txt"], cwd=src, stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL)
        cpu1 = os.times()
        env = {"NB_PYTHON_PREFIX": str(venv), "PATH": f"{venv}/bin:/usr/bin:/bin"}
        t_post = timed(["bash", "postBuild"], cwd=src, env=env)
        packages = subprocess.run([str(venv / "bin" / "pip"), "list", "--format=freeze"],
                                  capture_output=True, text=True, check=True).stdout.split()
        mb = size(venv) / 1e6
    cpu = (cpu1.children_user - cpu0.children_user) + (cpu1.children_system
                                                        - cpu0.children_system)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = f"""# Binder's install time

Measured {stamp} on {platform.machine()}, {os.cpu_count()} CPUs (shared), {python}, by
`benchmarks/bench_binder.py`; load average {load:.1f} when it started (other jobs share the
CPUs and the network).

What Binder runs for this repository, on this machine: `pip install -r requirements.txt`
into a fresh venv with nothing cached, then `postBuild`.

| step | wall time [s] |
| --- | ---: |
| fresh venv | {t_venv:.1f} |
| `pip install --no-cache-dir -r requirements.txt` ({len(packages)} packages) | {t_pip:.1f} |
| `postBuild` | {t_post:.2f} |
| **total** | **{t_venv + t_pip + t_post:.1f}** |

pip used {cpu:.0f} s of CPU; the rest of its wall time is downloading and waiting for the
shared CPUs. The installed environment is {mb:.0f} MB. Binder adds its own steps (the base
image, Docker layers, pushing the image) and caches the image after the first launch of a
commit, so a reader who opens a launched commit waits only for the server to start.
"""
    OUT.write_text(text)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
