"""Benchmark the spatial labs' 3-D update; writes benchmarks/lab3d.md.

A slider change in the live lab costs, in order:

1. Python (the kernel): the observer recomputes the lab's values with armlab.spatial, builds
   the 3-D scene, sets the view widget's ``scene`` trait (serialised to JSON for the front
   end), moves the torque bars and encodes their PNG. Timed from the widget's value set
   to the observer's return, as in ``bench_book.py``.
2. The browser: the view's script draws the new scene on its canvas. Timed in headless
   Chromium (``/usr/bin/chromium``, Playwright) on the built page: ``setScene`` with the
   scenes of the same slider sweep, one draw each, and a drag's redraw.

Target (CHAPTERS.md): a 3-D lab's update at most 100 ms, the two together. The message
between kernel and browser is not timed (a local Jupyter passes it in a millisecond or two;
Binder adds its network's latency).

Run from the repository root after building the book:
``.venv/bin/python benchmarks/bench_lab3d.py``.
"""

import datetime
import functools
import http.server
import json
import os
import pathlib
import platform
import statistics
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "lab3d.md"
HTML = ROOT / "_build" / "html"
CHROMIUM = pathlib.Path("/usr/bin/chromium")


def python_update(repeats=60):
    """Rows ``label -> [seconds]`` of one slider change each, and the sweep's scenes."""
    from armlab.labs import spatial_statics_lab

    lab = spatial_statics_lab(render=True)
    rows, scenes, cpu = {}, [], {}
    for label, name, values in [
        ("elbow slider q3", "q3", [-30.0 + k for k in range(repeats)]),
        ("payload slider", "payload", [0.05 * k for k in range(repeats)]),
        ("tip force fz", "fz", [-15.0 + 0.5 * k for k in range(repeats)]),
    ]:
        times, cpu[label] = [], []
        for value in values:
            start, start_cpu = time.perf_counter(), time.process_time()
            lab.widgets[name].value = value
            times.append(time.perf_counter() - start)
            cpu[label].append(time.process_time() - start_cpu)
            if name == "q3":
                scenes.append(lab.scene.as_dict())
        rows[label] = times
    lab.render = False
    times = []
    for value in [-30.0 + k for k in range(repeats)]:
        start = time.perf_counter()
        lab.widgets["q3"].value = value
        times.append(time.perf_counter() - start)
    rows["elbow slider q3, no PNG of the bars"] = times
    scene_bytes = len(json.dumps(scenes[0]))
    return rows, scenes, scene_bytes, cpu


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def browser_draw(scenes):
    """Rows ``label -> [seconds]`` of the view's draws in Chromium, on the built page."""
    from playwright.sync_api import sync_playwright

    handler = functools.partial(Quiet, directory=str(HTML))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/book/spatial_statics.html"
    rows = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM))
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(url, wait_until="load")
            page.locator("div.armlab-view3d canvas").scroll_into_view_if_needed()
            rows["a new scene drawn (setScene)"] = [t / 1000 for t in page.evaluate(
                """(scenes) => {
                  const el = document.createElement('div');
                  el.style.width = '640px';
                  document.querySelector('div.armlab-view3d').after(el);
                  const view = armlabView3d.mount(el, scenes[0], 'bench');
                  const times = [];
                  for (const s of scenes) {
                    const t0 = performance.now();
                    view.setScene(s);
                    el.querySelector('canvas').getContext('2d').getImageData(0, 0, 1, 1);
                    times.push(performance.now() - t0);
                  }
                  return times;
                }""", scenes)]
            canvas = page.locator("div.armlab-view3d canvas")
            box = canvas.bounding_box()
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.mouse.move(x, y)
            page.mouse.down()
            times = []
            for k in range(60):
                t0 = time.perf_counter()
                page.mouse.move(x + 2 * (k + 1), y)
                page.evaluate("() => document.querySelector('div.armlab-view3d canvas')"
                              ".getContext('2d').getImageData(0, 0, 1, 1).data[0]")
                times.append(time.perf_counter() - t0)
            page.mouse.up()
            rows["a drag step, event to drawn canvas (incl. the test driver's round trip)"] = times
            browser.close()
    finally:
        server.shutdown()
    return rows


def table(rows):
    lines = ["| update | median [ms] | 90th percentile [ms] | samples |",
             "| --- | ---: | ---: | ---: |"]
    for label, times in rows.items():
        ms = sorted(1000 * t for t in times)
        lines.append(f"| {label} | {statistics.median(ms):.1f} | "
                     f"{ms[int(0.9 * (len(ms) - 1))]:.1f} | {len(ms)} |")
    return lines


def main():
    load = os.getloadavg()[0]
    py_rows, scenes, scene_bytes, cpu = python_update()
    js_rows = browser_draw(scenes) if CHROMIUM.exists() and HTML.exists() else {}
    total = (statistics.median(py_rows["elbow slider q3"])
             + (statistics.median(js_rows["a new scene drawn (setScene)"]) if js_rows else 0))
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = [
        "# The spatial labs' 3-D update",
        "",
        f"Measured {stamp} on {platform.machine()}, {os.cpu_count()} CPUs (shared), Python "
        f"{platform.python_version()}, by `benchmarks/bench_lab3d.py`; load average "
        f"{load:.1f} when it started (other jobs share the CPUs).",
        "",
        "Target (CHAPTERS.md): a 3-D lab's update at most 100 ms median. "
        f"Measured: **{1000 * total:.1f} ms**, the kernel's median plus the browser's "
        "(the message between them is not timed).",
        "",
        "## In the kernel",
        "",
        "One widget change set from Python: the values recomputed with `armlab.spatial`, the "
        "3-D scene built and set on the view widget's `scene` trait, the torque bars moved "
        f"and their PNG encoded. A scene is {scene_bytes / 1000:.0f} kB of JSON.",
        "",
        *table(py_rows),
        "",
        "The same updates in CPU time of the kernel's process (what the wall time approaches "
        "on a quiet machine; on a busy one the wall time includes waiting for a CPU):",
        "",
        *table(cpu),
        "",
        "## In the browser",
        "",
        "Headless Chromium on the built page (`_build/html/book/spatial_statics.html`): the "
        "view's script draws each scene of the elbow sweep above; a drag redraws the view "
        "once per mouse move.",
        "",
        *(table(js_rows) if js_rows else ["(not measured: no Chromium or no built book)"]),
        "",
    ]
    OUT.write_text("\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    sys.exit(main())
