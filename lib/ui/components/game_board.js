// A game board drawn as SVG in the page, from lib/games/board_drawing.py's data: the
// shapes (squares, discs, rings), then the traces in order (lines, markers, text), as the
// game's plotly figure would show them, without loading plotly.js. A point of a trace
// with customdata is a click target: a click on it, or near it (see clicks()), sends its
// customdata back as the trigger "click" (from the keyboard: Tab to the board, the arrow
// keys, Enter or Space). Its hover text is the target's tooltip and accessible name.
// Text is only ever set with textContent.

const SVG = "http://www.w3.org/2000/svg";

function add(parent, tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) node.setAttribute(name, value);
  }
  parent.appendChild(node);
  return node;
}

// Data coordinates to pixels: the axes' ranges over the plot area; with equal axes (the
// board's squares stay square) both use the smaller scale, centred as plotly centres them.
function scales(d) {
  const m = d.margin;
  const width = d.width - m.l - m.r;
  const height = d.height - m.t - m.b;
  const [x0, x1] = d.x.range;
  const [y0, y1] = d.y.range;
  let xUnit = width / (x1 - x0);
  let yUnit = height / (y1 - y0);
  let left = m.l;
  let top = m.t;
  if (d.y.equal) {
    const unit = Math.min(Math.abs(xUnit), Math.abs(yUnit));
    left += (width - unit * Math.abs(x1 - x0)) / 2;
    top += (height - unit * Math.abs(y1 - y0)) / 2;
    xUnit = Math.sign(xUnit) * unit;
    yUnit = Math.sign(yUnit) * unit;
  }
  const right = left + xUnit * (x1 - x0);
  const bottom = top + yUnit * (y1 - y0);
  return {
    px: (x) => left + (x - x0) * xUnit,
    py: (y) => bottom - (y - y0) * yUnit, // y grows upwards, as on a plotly axis
    left,
    top,
    right,
    bottom,
  };
}

function drawShape(group, shape, s) {
  const style = {
    fill: shape.fillcolor || "none",
    stroke: shape.line.width > 0 ? shape.line.color : "none",
    "stroke-width": shape.line.width,
    opacity: shape.opacity,
  };
  const xa = s.px(shape.x0);
  const xb = s.px(shape.x1);
  const ya = s.py(shape.y0);
  const yb = s.py(shape.y1);
  if (shape.type === "circle") {
    return add(group, "ellipse", {
      cx: (xa + xb) / 2,
      cy: (ya + yb) / 2,
      rx: Math.abs(xb - xa) / 2,
      ry: Math.abs(yb - ya) / 2,
      ...style,
    });
  }
  return add(group, "rect", {
    x: Math.min(xa, xb),
    y: Math.min(ya, yb),
    width: Math.abs(xb - xa),
    height: Math.abs(yb - ya),
    ...style,
  });
}

// plotly's dash patterns (its Drawing.dashStyle), in multiples of the line's width (at least 3)
const DASHES = { dot: [1, 1], dash: [3, 3], longdash: [5, 5], dashdot: [3, 1, 1, 1], longdashdot: [5, 2, 1, 2] };

function dashArray(dash, width) {
  const unit = Math.max(width, 3);
  return DASHES[dash] ? DASHES[dash].map((n) => n * unit).join(" ") : null;
}

// A line trace: its points joined, a null starting a new piece (plotly's gaps).
function drawLines(group, trace, s) {
  const pieces = [[]];
  trace.x.forEach((x, i) => {
    const y = trace.y[i];
    if (x === null || y === null) pieces.push([]);
    else pieces[pieces.length - 1].push(`${s.px(x)},${s.py(y)}`);
  });
  for (const points of pieces.filter((p) => p.length > 0)) {
    add(group, trace.fill ? "polygon" : "polyline", {
      points: points.join(" "),
      fill: trace.fill || "none",
      stroke: trace.line.color,
      "stroke-width": trace.line.width,
      "stroke-dasharray": dashArray(trace.line.dash, trace.line.width),
    });
  }
}

function drawMarker(group, trace, i, s) {
  const m = trace.marker;
  const x = s.px(trace.x[i]);
  const y = s.py(trace.y[i]);
  const half = m.size[i] / 2;
  const style = {
    fill: m.color[i],
    stroke: m.strokeWidth > 0 ? m.stroke[i] : "none",
    "stroke-width": m.strokeWidth,
    "fill-opacity": m.opacity,
  };
  if (m.symbol[i] === "square") {
    return add(group, "rect", { x: x - half, y: y - half, width: 2 * half, height: 2 * half, ...style });
  }
  return add(group, "circle", { cx: x, cy: y, r: half, ...style });
}

function drawText(group, text, x, y, font, colour) {
  const node = add(group, "text", {
    x,
    y,
    "text-anchor": "middle",
    "dominant-baseline": "central",
    "font-size": font.size,
    "font-weight": font.weight,
    fill: colour,
    // a dark outline round light text (plotly's text shadow), drawn under the fill
    stroke: font.outline || null,
    "stroke-width": font.outline ? 3 : null,
    "stroke-linejoin": font.outline ? "round" : null,
    "paint-order": font.outline ? "stroke" : null,
  });
  node.textContent = text;
  return node;
}

function drawTrace(group, trace, s) {
  const layer = add(group, "g", { class: "trace", "data-name": trace.name, opacity: trace.opacity });
  if (trace.mode.includes("lines")) drawLines(layer, trace, s);
  trace.x.forEach((x, i) => {
    if (x === null || trace.y[i] === null) return;
    if (trace.mode.includes("markers")) {
      const marker = drawMarker(layer, trace, i, s);
      if (trace.hover && trace.hover[i]) add(marker, "title", {}).textContent = trace.hover[i];
      if (trace.customdata) {
        const target = trace.customdata[i];
        marker.classList.add("target");
        marker.setAttribute("data-target", target.join(","));
        marker.boardTarget = target;
        marker.setAttribute("tabindex", "-1");
        marker.setAttribute("role", "button");
        if (trace.hover && trace.hover[i]) marker.setAttribute("aria-label", trace.hover[i]);
      }
    }
    if (trace.mode.includes("text") && trace.text[i]) {
      drawText(layer, trace.text[i], s.px(x), s.py(trace.y[i]), trace.font, trace.font.color[i]);
    }
  });
}

// A click anywhere on the board goes to the target under it, else to the nearest target
// within 20 px of its edge (as plotly picks the closest point): the grid lines between
// squares and the corners of a score badge over a target still play the move.
function clicks(svg, send) {
  const targets = Array.from(svg.querySelectorAll(".target"));
  if (targets.length === 0) return;
  svg.classList.add("playable");
  svg.addEventListener("click", (event) => {
    let hit = event.target.closest(".target");
    if (!hit) {
      const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(
        svg.getScreenCTM().inverse(),
      );
      let best = Infinity;
      for (const node of targets) {
        const box = node.getBBox();
        const dx = Math.max(box.x - at.x, 0, at.x - box.x - box.width);
        const dy = Math.max(box.y - at.y, 0, at.y - box.y - box.height);
        const gap = Math.hypot(dx, dy);
        if (gap <= 20 && gap < best) [hit, best] = [node, gap];
      }
    }
    if (hit) send(hit.boardTarget);
  });
}

const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

// One tab stop for the whole board (the squares are not 64 stops on the way to the rest
// of the page): the arrow keys move to the nearest target that way, Enter or Space clicks.
function keyboard(svg) {
  const targets = Array.from(svg.querySelectorAll(".target"));
  if (targets.length === 0) return;
  targets[0].setAttribute("tabindex", "0");
  const centre = (node) => {
    const box = node.getBBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  svg.addEventListener("keydown", (event) => {
    const from = event.target.closest(".target");
    if (!from) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      keyboardPlay = { target: from.getAttribute("data-target"), at: performance.now() };
      from.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      return;
    }
    const step = STEPS[event.key];
    if (!step) return;
    event.preventDefault();
    const [x, y] = centre(from);
    let best = null;
    let bestCost = Infinity;
    for (const node of targets) {
      const [tx, ty] = centre(node);
      const along = (tx - x) * step[0] + (ty - y) * step[1];
      if (along <= 1) continue; // not that way
      const cost = along + 2 * Math.abs((tx - x) * step[1] - (ty - y) * step[0]);
      if (cost < bestCost) [best, bestCost] = [node, cost];
    }
    if (best) {
      from.setAttribute("tabindex", "-1");
      best.setAttribute("tabindex", "0");
      best.focus();
    }
  });
}

function drawTicks(group, d, s) {
  if (d.x.visible) {
    const y = d.x.top ? s.top - d.x.font.size * 0.8 : s.bottom + d.x.font.size * 0.9;
    for (const [value, text] of d.x.ticks) {
      drawText(group, text, s.px(value), y, d.x.font, d.x.font.color);
    }
  }
  if (d.y.visible) {
    for (const [value, text] of d.y.ticks) {
      const node = drawText(group, text, s.left - 6, s.py(value), d.y.font, d.y.font.color);
      node.setAttribute("text-anchor", "end");
    }
  }
}

// The square last played from the keyboard: the next board drawn (after the rerun, maybe
// under a new element) takes the focus back there, so a keyboard player plays on without
// tabbing back in. Per browser tab, never sent anywhere.
let keyboardPlay = null;

function draw(root, d, send) {
  const focused = root.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-target")
    : null;
  root.replaceChildren();
  root.drawing = d; // what is drawn, for the page's own scripts (e.g. the browser tests)
  root.dataset.revision = d.revision ?? 0; // the clicks the page has handled
  const svg = add(root, "svg", {
    class: "game-board-svg",
    width: d.width,
    height: d.height,
    viewBox: `0 0 ${d.width} ${d.height}`,
  });
  const s = scales(d);
  add(svg, "rect", {
    class: "plot-area",
    x: s.left,
    y: s.top,
    width: s.right - s.left,
    height: s.bottom - s.top,
    fill: d.background,
  });
  if (d.title) {
    const title = add(svg, "text", {
      class: "title",
      x: d.width * 0.05,
      y: d.title.pad + d.title.size,
      "font-size": d.title.size,
      fill: d.title.color,
    });
    title.textContent = d.title.text;
  }
  drawTicks(add(svg, "g", { class: "ticks" }), d, s);
  const below = add(svg, "g", { class: "shapes" });
  for (const shape of d.shapes.filter((sh) => !sh.above)) drawShape(below, shape, s);
  const traces = add(svg, "g", { class: "traces" });
  for (const trace of d.traces) drawTrace(traces, trace, s);
  const above = add(svg, "g", { class: "shapes above" });
  for (const shape of d.shapes.filter((sh) => sh.above)) drawShape(above, shape, s);
  clicks(svg, send);
  keyboard(svg);
  const recent = keyboardPlay && performance.now() - keyboardPlay.at < 60000;
  const refocus = focused || (recent ? keyboardPlay.target : null);
  keyboardPlay = null; // once: a later redraw must not take the focus from elsewhere
  const again = refocus && svg.querySelector(`.target[data-target="${refocus}"]`);
  if (again) {
    svg.querySelector('.target[tabindex="0"]').setAttribute("tabindex", "-1");
    again.setAttribute("tabindex", "0");
    again.focus();
  }
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let root = parentElement.querySelector(":scope > .game-board");
  if (!root) {
    root = document.createElement("div");
    root.className = "game-board";
    parentElement.appendChild(root);
  }
  draw(root, data, (target) => setTriggerValue("click", target));
}
