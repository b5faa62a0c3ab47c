// armlab's 3-D view: a scene of polylines, arrows and labels drawn on a 2-D canvas,
// turned by dragging (or the arrow keys). No library, no server: the book serves this
// file from its _static folder and mounts every <div class="armlab-view3d" data-scene=...>
// on the page; in Jupyter, anywidget runs the same code (armlab/labs/_view3d.py).
//
// A scene (JSON, built by armlab.labs._view3d.Scene) is
//   {center: [x, y, z], radius: r [m], yaw: deg, pitch: deg, height: px,
//    lines: [{points: [[x, y, z], ...], color, width, dash}],
//    arrows: [{start: [x, y, z], vector: [x, y, z], color, width, heads}],
//    labels: [{at: [x, y, z], text, color}]}
// in world axes, z up. The view is orthographic: yaw turns about z, pitch tilts it.
var armlabView3d = (function () {
  "use strict";

  function project(view, p) {
    // world -> screen: rotate by yaw about z and pitch about the screen's x, then scale
    var c = view.scene.center, r = view.scene.radius;
    var x = p[0] - c[0], y = p[1] - c[1], z = p[2] - c[2];
    var cy = Math.cos(view.yaw), sy = Math.sin(view.yaw);
    var cp = Math.cos(view.pitch), sp = Math.sin(view.pitch);
    var u = cy * x + sy * y;                 // screen right
    var w = -sy * x + cy * y;                // into the screen before the tilt
    var v = cp * z - sp * w;                 // screen up
    var s = 0.46 * Math.min(view.width, view.height) / r;
    return [view.width / 2 + s * u, view.height / 2 - s * v];
  }

  function strokePath(ctx, pts) {
    ctx.beginPath();
    ctx.moveTo(pts[0][0], pts[0][1]);
    for (var i = 1; i < pts.length; i++) ctx.lineTo(pts[i][0], pts[i][1]);
    ctx.stroke();
  }

  function head(ctx, tip, from, size) {
    var dx = tip[0] - from[0], dy = tip[1] - from[1];
    var n = Math.hypot(dx, dy);
    if (n < 1e-9) return;
    dx /= n; dy /= n;
    var s = Math.min(size, 0.6 * n);
    ctx.beginPath();
    ctx.moveTo(tip[0], tip[1]);
    ctx.lineTo(tip[0] - s * dx + 0.45 * s * dy, tip[1] - s * dy - 0.45 * s * dx);
    ctx.lineTo(tip[0] - s * dx - 0.45 * s * dy, tip[1] - s * dy + 0.45 * s * dx);
    ctx.closePath();
    ctx.fill();
  }

  function draw(view) {
    var ctx = view.ctx, scene = view.scene, ratio = view.ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, view.width, view.height);
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    (scene.lines || []).forEach(function (line) {
      ctx.strokeStyle = line.color;
      ctx.lineWidth = line.width || 1;
      ctx.setLineDash(line.dash ? [5, 4] : []);
      strokePath(ctx, line.points.map(function (p) { return project(view, p); }));
    });
    ctx.setLineDash([]);
    (scene.arrows || []).forEach(function (a) {
      var start = project(view, a.start);
      var end = project(view, [a.start[0] + a.vector[0], a.start[1] + a.vector[1],
                               a.start[2] + a.vector[2]]);
      ctx.strokeStyle = ctx.fillStyle = a.color;
      ctx.lineWidth = a.width || 2;
      strokePath(ctx, [start, end]);
      var size = 6 + 2 * (a.width || 2);
      head(ctx, end, start, size);
      if ((a.heads || 1) > 1) {              // a moment: a second head behind the first
        var n = Math.hypot(end[0] - start[0], end[1] - start[1]) || 1;
        var back = [end[0] - 0.7 * size * (end[0] - start[0]) / n,
                    end[1] - 0.7 * size * (end[1] - start[1]) / n];
        head(ctx, back, start, size);
      }
    });
    ctx.font = "13px sans-serif";
    ctx.textBaseline = "middle";
    (scene.labels || []).forEach(function (label) {
      var p = project(view, label.at);
      ctx.fillStyle = label.color || "#222222";
      ctx.fillText(label.text, p[0] + 4, p[1]);
    });
    view.draws += 1;
    view.canvas.setAttribute("data-draws", String(view.draws));
  }

  function resize(view) {
    var width = Math.max(view.el.clientWidth || 0, 200);
    view.width = Math.min(width, view.maxWidth);
    view.height = view.scene.height || 420;
    view.ratio = window.devicePixelRatio || 1;
    view.canvas.width = Math.round(view.width * view.ratio);
    view.canvas.height = Math.round(view.height * view.ratio);
    view.canvas.style.width = view.width + "px";
    view.canvas.style.height = view.height + "px";
  }

  function turn(view, dyaw, dpitch) {
    view.yaw += dyaw;
    view.pitch = Math.max(-Math.PI / 2, Math.min(Math.PI / 2, view.pitch + dpitch));
    view.canvas.setAttribute("data-yaw", view.yaw.toFixed(4));
    view.canvas.setAttribute("data-pitch", view.pitch.toFixed(4));
    draw(view);
  }

  // Mount a view in the element `el`; returns {setScene(scene), draw()}.
  function mount(el, scene, label) {
    var canvas = document.createElement("canvas");
    canvas.className = "armlab-view3d-canvas";
    canvas.setAttribute("tabindex", "0");
    canvas.setAttribute("role", "img");
    if (label) canvas.setAttribute("aria-label", label);
    canvas.style.touchAction = "none";
    canvas.style.cursor = "grab";
    canvas.style.display = "block";
    el.appendChild(canvas);
    var view = {el: el, canvas: canvas, ctx: canvas.getContext("2d"), scene: scene,
                yaw: (scene.yaw || 0) * Math.PI / 180, pitch: (scene.pitch || 0) * Math.PI / 180,
                maxWidth: 640, draws: 0, drag: null};
    resize(view);
    canvas.addEventListener("pointerdown", function (e) {
      view.drag = [e.clientX, e.clientY];
      canvas.setPointerCapture(e.pointerId);
      canvas.style.cursor = "grabbing";
    });
    canvas.addEventListener("pointermove", function (e) {
      if (!view.drag) return;
      var dx = e.clientX - view.drag[0], dy = e.clientY - view.drag[1];
      view.drag = [e.clientX, e.clientY];
      turn(view, -dx * 0.01, dy * 0.01);
    });
    function release() { view.drag = null; canvas.style.cursor = "grab"; }
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);
    canvas.addEventListener("keydown", function (e) {
      var step = 5 * Math.PI / 180;
      var moves = {ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, -step],
                   ArrowDown: [0, step]};
      if (moves[e.key]) { e.preventDefault(); turn(view, moves[e.key][0], moves[e.key][1]); }
    });
    if (window.ResizeObserver) {
      new ResizeObserver(function () { resize(view); draw(view); }).observe(el);
    }
    turn(view, 0, 0);
    return {
      setScene: function (s) { view.scene = s; draw(view); },   // keeps the viewer's turn
      draw: function () { draw(view); },
    };
  }

  // Mount every static view of the page (the book's HTML).
  function mountAll() {
    var els = document.querySelectorAll("div.armlab-view3d[data-scene]");
    for (var i = 0; i < els.length; i++) {
      if (els[i].getAttribute("data-mounted")) continue;
      els[i].setAttribute("data-mounted", "1");
      mount(els[i], JSON.parse(els[i].getAttribute("data-scene")),
            els[i].getAttribute("data-label"));
    }
  }

  if (typeof document !== "undefined" && document.querySelector) {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", mountAll);
    } else {
      mountAll();
    }
  }
  return {mount: mount, mountAll: mountAll, project: project};
})();
