// The route search player: plays a whole search on a <canvas>, in the page, with no server.
//
// It draws what lib/routes/animation.py's player_data() builds. Three canvases lie on top
// of each other: "search" (the roads and places, drawn once onto an offscreen background,
// then the places repainted as the search changes their look), "moving" (the place being
// expanded and the route found, redrawn at every frame: a few shapes) and "marks" (the
// start and goal stars and the names, drawn once). Going forward a frame repaints only
// the places painted since the previous frame; going back it starts again from the
// background. Beside the map, the code that ran (data.code: its lines as coloured spans,
// and each step's line), the line of the step shown marked. Names come from uploaded
// files: they, like the code, are only ever canvas text or textContent, never HTML.

// Streamlit runs this module's function again on the same parentElement when the data
// changes, without calling the cleanup an earlier run returned: keep one player per
// parentElement and stop it ourselves.
const players = new WeakMap();

// How long the player's step must stay before the page is told (a slider dragged or
// stepped with the keys reports once it rests, not at every step it passes).
const REPORT_AFTER_MS = 250;
const ARRAYS = { int16: Int16Array, int32: Int32Array, uint8: Uint8Array };
// The play speeds offered (times the normal pace), and each player's choice, kept while
// the page redraws it (per parentElement, as the players).
const SPEEDS = [0.25, 0.5, 1, 2, 4, 8];
const speeds = new WeakMap();
// A grid's cell costs are written on the cells this many css px wide or more.
const COST_LABEL_CELL = 22;
// A race's racers: two to a row; the css px a racer takes beside its map (its head and its
// counters) and the race's own head and controls, to fit a row of maps in the window.
const RACE_COLUMNS = 2;
const RACER_TEXT = 56;
const RACE_HEAD = 130;
// The css px a player (or the route map) takes beside its map: its title, caption, legend
// and controls.
const PLAYER_TEXT = 230;
// The route map's tools on an editable grid: [tool, button text]; the painting tools'
// names are lib/routes/edits.py's TOOLS. The tool chosen is kept per parentElement.
const TOOLS = [
  ["pick", "Pick / pan"],
  ["wall", "Wall"],
  ["erase", "Erase"],
  ["cost 3", "Cost 3"],
  ["cost 10", "Cost 10"],
  ["start", "Move start"],
  ["goal", "Move goal"],
];
const PAINTS = { wall: 0, erase: 1, "cost 3": 3, "cost 10": 10 };
// The line under the route map: what a press does with the tool chosen ("pick" on a map
// without tools); `next` is the end ("start" or "goal") the next click sets.
const HINTS = {
  pick: (next) =>
    `Click a place on the map to set the ${next}. Clicks alternate start, goal, start… ` +
    "(mouse wheel: zoom, drag: move the map, drag a star: move it)",
  wall: () => "Click or drag over cells to draw walls (never on the start or goal).",
  erase: () => "Click or drag over walls to clear them.",
  "cost 3": () => "Click or drag over cells to give them cost 3.",
  "cost 10": () => "Click or drag over cells to give them cost 10.",
  start: () => "Click or drag on the map to move the start there.",
  goal: () => "Click or drag on the map to move the goal there.",
};
const tools = new WeakMap();

function unpack(packed) {
  const text = atob(packed.data);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return new ARRAYS[packed.dtype](bytes.buffer); // little-endian, as every browser is
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// The number of values of the sorted array `values` that are at most `limit`.
function countUpTo(values, limit) {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid] <= limit) low = mid + 1;
    else high = mid;
  }
  return low;
}

function starPath(ctx, x, y, size) {
  const outer = size / 2;
  const inner = outer * 0.45;
  ctx.beginPath();
  for (let i = 0; i < 10; i += 1) {
    const r = i % 2 === 0 ? outer : inner;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    const px = x + r * Math.cos(angle);
    const py = y + r * Math.sin(angle);
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  ctx.closePath();
}

class Player {
  constructor(parent, data, view = { zoom: 1, panX: 0, panY: 0 }) {
    this.send = () => {}; // the component's setTriggerValue, once given
    this.reported = []; // steps sent to the page, oldest first, that it has not sent back
    this.data = data;
    this.style = data.style;
    this.view = view; // the route map's wheel zoom and drag pan (css px); 1, 0, 0 in the player
    this.x = unpack(data.x);
    this.y = unpack(data.y);
    this.roads = data.roads ? unpack(data.roads) : null;
    this.obstacles = data.obstacles ? unpack(data.obstacles) : null;
    // a grid's cells dearer than 1: row * cols + col -> cost
    this.costAt = new Map();
    const costs = data.costs ? unpack(data.costs) : [];
    for (let i = 0; i < costs.length; i += 3) {
      this.costAt.set(costs[i] * data.cols + costs[i + 1], costs[i + 2]);
    }
    this.parent = parent;
    this.width = 0;
    this.read(data);
    this.build(parent);
    this.resizer = new ResizeObserver(() => this.layout());
    this.resizer.observe(this.stage);
    this.layout();
    this.show(data.step);
    // Where a place (an index of the data's places) is on the canvases, in CSS px: for
    // the browser tests, which check the colour drawn there against the trace.
    this.root.pixelOf = (place) => [this.toX(this.x[place]), this.toY(this.y[place])];
    // and where a grid's cell is (walls included), for the editing tests and bench
    this.root.cellPixel = (row, col) => [this.toX(col), this.toY(row)];
  }

  // The search's arrays (the route map has none of them).
  read(data) {
    this.paintPlace = unpack(data.paintPlace);
    this.paintStep = unpack(data.paintStep);
    this.paintKind = unpack(data.paintKind);
    this.current = unpack(data.current);
    this.about = unpack(data.about);
    this.part = unpack(data.part);
    this.side = unpack(data.side);
    this.frontierSize = unpack(data.frontierSize);
    this.exploredSize = unpack(data.exploredSize);
    this.route = unpack(data.route);
    this.last = this.current.length - 1;
    this.shown = -1; // the step the search canvas shows
    this.painted = 0; // paints drawn onto it
    this.playing = false;
  }

  build(parent) {
    const data = this.data;
    this.root = element("div", data.present ? "route-player present" : "route-player");
    this.root.dataset.last = String(this.last);
    this.root.dataset.places = String(this.x.length);
    const head = element("div", "head");
    head.append(element("div", "title", data.title), (this.label = element("div", "label")));
    this.buildStage();
    const controls = element("div", "controls");
    this.watch = element("button", "watch", "▶ Watch");
    this.pauseButton = element("button", "pause", "❚❚ Pause");
    this.slider = element("input", "steps");
    Object.assign(this.slider, { type: "range", min: "0", max: String(this.last), step: "1" });
    this.slider.setAttribute("aria-label", "Step of the search");
    this.number = element("span", "number");
    this.speedSelect = this.buildSpeed();
    controls.append(this.watch, this.pauseButton, this.slider, this.number, this.speedSelect);
    if (data.code) {
      // the map and the code that ran side by side (the code under a grid, whose cells
      // need the width); the step shown marks its line
      const mapSide = element("div", "map-side");
      mapSide.append(head, this.legend, this.stage, controls);
      const body = element("div", data.grid ? "body stacked" : "body");
      body.append(mapSide, this.buildCode(data.code));
      this.root.append(body);
    } else {
      this.root.append(head, this.legend, this.stage, controls);
    }
    parent.append(this.root);
    this.fillLegend();
    this.watch.addEventListener("click", () => this.play());
    this.pauseButton.addEventListener("click", () => {
      this.pause();
      this.report();
    });
    this.slider.addEventListener("input", () => {
      this.pause();
      this.show(Number(this.slider.value));
    });
    // a step the slider settles on (a release, a key) goes to the page's frontier table
    this.slider.addEventListener("change", () => this.report());
    this.marks.addEventListener("mousemove", (event) => this.hover(event));
    this.marks.addEventListener("mouseleave", () => {
      this.tip.style.display = "none";
    });
  }

  // The speed control: a select of SPEEDS, kept per parentElement while the page redraws.
  buildSpeed() {
    const select = element("select", "speed");
    select.setAttribute("aria-label", "Play speed");
    for (const speed of SPEEDS) {
      const option = element("option", "", `${speed}×`);
      option.value = String(speed);
      select.append(option);
    }
    // a link's speed (data.speed) until this player's own choice
    const linked = SPEEDS.includes(this.data.speed) ? this.data.speed : 1;
    this.speed = speeds.get(this.parent) || linked;
    select.value = String(this.speed);
    select.addEventListener("change", () => {
      this.speed = Number(select.value);
      speeds.set(this.parent, this.speed);
      this.root.dataset.speed = select.value;
      if (this.data.mode === "race") this.send("speed", this.speed); // for the page's link
    });
    return select;
  }

  // The legend, and the stage: the three canvases on top of each other and the hover tip
  // (the offscreen background is drawn onto "search").
  buildStage() {
    this.legend = element("div", "legend");
    this.stage = element("div", "stage");
    this.search = element("canvas", "search");
    this.moving = element("canvas", "moving");
    this.marks = element("canvas", "marks");
    this.tip = element("div", "tip");
    this.stage.append(this.search, this.moving, this.marks, this.tip);
    this.background = document.createElement("canvas");
  }

  // The code panel: one row per line of source, its spans coloured by kind (plain text).
  // A long line wraps under its own indent (the --indent of lib/ui/code_view.py's look),
  // so a narrow panel hides nothing.
  buildCode(code) {
    const panel = element("div", "code");
    panel.append(element("div", "code-title", "The code that ran"));
    const source = (this.codeSource = element("pre", "source"));
    this.codeRows = code.lines.map((spans, i) => {
      const row = element("div", "row");
      const line = spans.map(([, text]) => text).join("");
      const body = element("span", "text", line ? "" : " ");
      body.style.setProperty("--indent", `${line.length - line.trimStart().length}ch`);
      for (const [kind, text] of spans) body.append(element("span", kind ? `t-${kind}` : "", text));
      row.append(element("span", "gutter", String(i + 1)), body);
      source.append(row);
      return row;
    });
    this.stepLine = unpack(code.stepLine);
    this.codeCaption = element("div", "code-caption");
    panel.append(source, this.codeCaption);
    return panel;
  }

  // The legend's shades of a grid's cell costs.
  terrainItems() {
    const s = this.style;
    return [
      ["square", s.free, "cost 1"],
      ["square", s.terrain["3"], "cost 3"],
      ["square", s.terrain["10"], "cost 10"],
    ];
  }

  // Marks the line that step k is in the code panel, and says what it does.
  markLine(k) {
    if (!this.codeRows) return;
    const line = this.stepLine[k];
    if (this.markedRow) this.markedRow.classList.remove("current");
    this.markedRow = line > 0 ? this.codeRows[line - 1] : null;
    if (this.markedRow) {
      this.markedRow.classList.add("current");
      // keep the marked line in the panel's view, scrolling the panel only (not the page)
      const pre = this.codeSource;
      const { offsetTop, offsetHeight } = this.markedRow;
      if (offsetTop < pre.scrollTop || offsetTop + offsetHeight > pre.scrollTop + pre.clientHeight) {
        pre.scrollTop = offsetTop - pre.clientHeight / 3;
      }
    }
    this.codeCaption.textContent =
      line > 0 ? `▶ line ${line}: ${this.data.code.lineText[String(line)]}.` : "";
    this.root.dataset.line = String(line);
  }

  fillLegend() {
    const s = this.style;
    const place = this.data.grid ? "square" : "dot"; // the shapes the map draws
    const items = [
      [place, s.looks[3], "explored"],
      [place, s.looks[4], "frontier"],
      [this.data.grid ? "square" : "ring", s.current, "expanding"],
      ["line", s.route, "route found"],
    ];
    if (this.data.start >= 0) items.push(["star", s.start, `start: ${this.data.startName}`]);
    if (this.data.goal >= 0) items.push(["star", s.goal, `goal: ${this.data.goalName}`]);
    if (this.obstacles && this.obstacles.length) items.push(["square", s.obstacle, "obstacle"]);
    if (this.costAt.size) items.push(...this.terrainItems());
    for (const [shape, colour, text] of items) {
      const item = element("span", "item");
      const key = element("span", `key ${shape}`, shape === "star" ? "★" : "");
      key.style.setProperty("--colour", colour);
      item.append(key, element("span", "text", text));
      this.legend.append(item);
    }
  }

  // Sizes the canvases to the width the page gives and draws everything again.
  layout(force = false) {
    const width = Math.floor(this.stage.clientWidth);
    if (width <= 0 || (width === this.width && !force)) return;
    this.width = width;
    const d = this.data;
    const [x0, x1] = d.xRange;
    const [y0, y1] = d.yRange;
    const pad = d.labels ? 24 : 4; // room for names over the top and bottom places
    const [least, most] = this.plotHeights();
    const plot = Math.max(least, Math.min(most, (width * (y1 - y0)) / (x1 - x0)));
    const height = Math.round(plot + 2 * pad);
    const [marginLeft, marginRight] = this.sideMargins(width, plot);
    const room = width - marginLeft - marginRight;
    const fit = Math.min(room / (x1 - x0), plot / (y1 - y0));
    const left = marginLeft + (room - fit * (x1 - x0)) / 2;
    const top = (height - fit * (y1 - y0)) / 2;
    this.height = height;
    // the whole map fitted to the stage, then the route map's zoom about the stage's centre
    // and its pan (the player's view stays 1, 0, 0)
    const { zoom, panX, panY } = this.view;
    const scale = fit * zoom;
    this.scale = scale;
    const sx = width / 2 + (left - width / 2) * zoom + panX;
    const sy = height / 2 + (top - height / 2) * zoom + panY;
    this.toX = (x) => sx + (x - x0) * scale;
    // rows go down on grids; north goes up on road maps
    const bottom = height / 2 + (height - top - height / 2) * zoom + panY;
    this.toY = d.grid ? (y) => sy + (y - y0) * scale : (y) => bottom - (y - y0) * scale;
    this.fromX = (px) => (px - sx) / scale + x0; // a grid's column (or x) at px
    this.fromY = (py) => (py - sy) / scale + y0; // a grid's row at py
    this.stage.style.height = `${height}px`;
    const ratio = window.devicePixelRatio || 1;
    for (const canvas of [this.search, this.moving, this.marks, this.background]) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
      canvas.getContext("2d").setTransform(ratio, 0, 0, ratio, 0, 0);
    }
    this.cell = scale; // a grid cell's side in px
    this.drawBackground();
    this.drawMarks();
    const step = this.shown < 0 ? d.step : this.shown;
    this.shown = -1;
    this.show(step);
  }

  // The least and most height (css px) of the map's drawing: a race's racers share the
  // window's height (Race.plotHeight), each under its head and over its counters.
  // A player's map, with its caption above and its controls under it, fits in the window.
  // A player that starts on the first screen ends on it too, down to its legend.
  plotHeights() {
    if (this.data.maxPlot) return [120, this.data.maxPlot];
    let most = Math.min(580, window.innerHeight - PLAYER_TEXT);
    const room = this.roomOnFirstScreen();
    if (room !== null) most = Math.min(most, room);
    return [220, Math.max(300, most)];
  }

  // The most height (css px) of the map's drawing for the player, page scrolled to its top,
  // to end on the first screen: the window less the page above the player, the player's
  // own texts (title, tools, hint, legend) and the drawing's margins. Null for a player
  // that starts lower on the page (it fits in the window, scrolled to).
  roomOnFirstScreen() {
    if (!this.root || !this.root.isConnected) return null;
    const top = this.root.getBoundingClientRect().top + window.scrollY;
    if (top <= 0 || top >= window.innerHeight / 2) return null;
    const texts = this.root.offsetHeight - this.stage.offsetHeight;
    const pad = this.data.labels ? 24 : 4;
    return Math.floor(window.innerHeight - top - texts - 2 * pad - 8);
  }

  // The room to keep left and right of the map so that every place's name, written beside
  // its place, stays on the canvas (none without names). The names' reach is fixed in px
  // while the map's scale depends on the room left: a few rounds settle both.
  sideMargins(width, plot) {
    const d = this.data;
    if (!d.labels) return [0, 0];
    const [x0, x1] = d.xRange;
    const [y0, y1] = d.yRange;
    const ctx = this.marks.getContext("2d");
    ctx.font = `${this.style.placeFont}px sans-serif`;
    const gap = this.labelGap();
    const reach = d.labels.text.map((text, i) => {
      const lines = String(text).split("\n");
      const wide = Math.max(...lines.map((line) => ctx.measureText(line).width)) + 3; // halo
      const horizontal = d.labels.where[i].split(" ")[1];
      if (horizontal === "left") return [gap + wide, 0];
      if (horizontal === "right") return [0, gap + wide];
      return [wide / 2, wide / 2];
    });
    let [marginLeft, marginRight] = [2, 2];
    for (let round = 0; round < 6; round += 1) {
      const fit = Math.min((width - marginLeft - marginRight) / (x1 - x0), plot / (y1 - y0));
      const span = fit * (x1 - x0);
      let [needLeft, needRight] = [2, 2];
      reach.forEach(([toLeft, toRight], i) => {
        const px = (this.x[i] - x0) * fit; // from the map's left edge
        needLeft = Math.max(needLeft, toLeft + 2 - px);
        needRight = Math.max(needRight, toRight + 2 - (span - px));
      });
      if (needLeft <= marginLeft && needRight <= marginRight) break;
      [marginLeft, marginRight] = [Math.max(marginLeft, needLeft), Math.max(marginRight, needRight)];
    }
    return [marginLeft, marginRight];
  }

  // How far a place's name is written from the place's centre (clear of its marker or star).
  labelGap() {
    const s = this.style;
    const star = this.data.grid ? this.cell * 0.85 + 8 : s.star;
    return Math.max(s.marker, this.data.start >= 0 ? star : 0) / 2 + 2;
  }

  drawBackground() {
    const ctx = this.background.getContext("2d");
    const s = this.style;
    ctx.fillStyle = "white";
    ctx.fillRect(0, 0, this.width, this.height);
    if (this.data.grid) {
      const { rows, cols } = this.data;
      const c = this.cell;
      ctx.fillStyle = s.free;
      ctx.fillRect(this.toX(-0.5), this.toY(-0.5), cols * c, rows * c);
      ctx.fillStyle = s.obstacle;
      const o = this.obstacles;
      for (let i = 0; i < o.length; i += 2) {
        ctx.fillRect(this.toX(o[i + 1] - 0.5), this.toY(o[i] - 0.5), c, c);
      }
      for (const [cell, cost] of this.costAt) {
        ctx.fillStyle = s.terrain[String(cost)];
        const col = cell % cols;
        ctx.fillRect(this.toX(col - 0.5), this.toY((cell - col) / cols - 0.5), c, c);
      }
      ctx.strokeStyle = "white";
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let col = 0; col <= cols; col += 1) {
        const x = this.toX(col - 0.5);
        ctx.moveTo(x, this.toY(-0.5));
        ctx.lineTo(x, this.toY(rows - 0.5));
      }
      for (let row = 0; row <= rows; row += 1) {
        const y = this.toY(row - 0.5);
        ctx.moveTo(this.toX(-0.5), y);
        ctx.lineTo(this.toX(cols - 0.5), y);
      }
      ctx.stroke();
      return;
    }
    ctx.strokeStyle = s.road;
    ctx.lineWidth = 1.5;
    ctx.lineJoin = "round";
    ctx.beginPath();
    let pen = false;
    for (const place of this.roads) {
      if (place < 0) {
        pen = false;
      } else if (pen) {
        ctx.lineTo(this.toX(this.x[place]), this.toY(this.y[place]));
      } else {
        ctx.moveTo(this.toX(this.x[place]), this.toY(this.y[place]));
        pen = true;
      }
    }
    ctx.stroke();
    const radius = s.marker / 2;
    ctx.fillStyle = s.place;
    ctx.strokeStyle = "white";
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let i = 0; i < this.x.length; i += 1) {
      const px = this.toX(this.x[i]);
      const py = this.toY(this.y[i]);
      ctx.moveTo(px + radius, py);
      ctx.arc(px, py, radius, 0, 2 * Math.PI);
    }
    ctx.fill();
    ctx.stroke();
    // the start and goal in their own look (animation.KINDS 1 and 2), as paints draw them
    if (this.data.start >= 0) this.paint(ctx, this.data.start, 1);
    if (this.data.goal >= 0) this.paint(ctx, this.data.goal, 2);
  }

  // A place in the look of kind `kind` (an index of animation.KINDS) on the search canvas.
  paint(ctx, place, kind) {
    ctx.fillStyle = this.style.looks[kind];
    const px = this.toX(this.x[place]);
    const py = this.toY(this.y[place]);
    if (this.data.grid) {
      const cost = this.costAt.get(this.y[place] * this.data.cols + this.x[place]);
      let side = this.cell * 0.85;
      if (cost) {
        // a dear cell keeps its shade round the look: explored and frontier drawn smaller
        ctx.fillStyle = this.style.terrain[String(cost)];
        ctx.fillRect(px - side / 2, py - side / 2, side, side);
        if (kind === 0) return;
        ctx.fillStyle = this.style.looks[kind];
        side = this.cell * 0.5;
      }
      ctx.fillRect(px - side / 2, py - side / 2, side, side);
    } else {
      ctx.beginPath();
      ctx.arc(px, py, this.style.marker / 2, 0, 2 * Math.PI);
      ctx.fill();
    }
  }

  drawMarks() {
    const ctx = this.marks.getContext("2d");
    const s = this.style;
    const d = this.data;
    ctx.clearRect(0, 0, this.width, this.height);
    const star = d.grid ? this.cell * 0.85 + 8 : s.star;
    const moved = this.moved || {}; // an end being dragged on the route map
    for (const [place, colour] of [
      [moved.end === "start" ? moved.place : d.start, s.start],
      [moved.end === "goal" ? moved.place : d.goal, s.goal],
    ]) {
      if (place < 0) continue;
      starPath(ctx, this.toX(this.x[place]), this.toY(this.y[place]), star);
      ctx.fillStyle = colour;
      ctx.fill();
      ctx.strokeStyle = "white";
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    // the boxes of the texts written (css px): a text that would cover one already written
    // is left out (names before road lengths), and the tests read them all
    this.written = [];
    this.skipped = [];
    if (d.labels) {
      const xs = Array.from(this.x);
      const ys = Array.from(this.y);
      const gap = this.labelGap();
      this.writeAll(ctx, d.labels.text, xs, ys, s.placeFont, s.placeText, (i) => {
        const [vertical, horizontal] = d.labels.where[i].split(" ");
        return [horizontal, vertical, gap];
      });
    }
    if (d.roadLengths) {
      const r = d.roadLengths;
      this.writeAll(ctx, r.text, r.x, r.y, s.roadFont, s.roadText, () => ["center", "middle"]);
    }
    if (d.grid && this.costAt.size) this.writeCosts(ctx);
    this.root.dataset.labels = String(this.written.length);
    this.root.dataset.skipped = String(this.skipped.length);
    this.root.labelBoxes = () => this.written.map((box) => ({ ...box }));
    this.root.skippedLabels = () => this.skipped.slice();
  }

  // A grid's cell costs written on their cells once a cell is large enough to hold them
  // (a projector's viewers tell 3 from 10 by the number, not only by the shade).
  writeCosts(ctx) {
    const c = this.cell;
    this.root.dataset.costLabels = "0";
    if (c < COST_LABEL_CELL) return;
    let written = 0;
    const cols = this.data.cols;
    const size = Math.min(16, Math.floor(c * 0.5));
    ctx.font = `600 ${size}px sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (const [cell, cost] of this.costAt) {
      const col = cell % cols;
      const x = this.toX(col);
      const y = this.toY((cell - col) / cols);
      if (x < 0 || y < 0 || x > this.width || y > this.height) continue;
      ctx.lineWidth = 3;
      ctx.strokeStyle = "white";
      ctx.strokeText(String(cost), x, y);
      ctx.fillStyle = "#111827";
      ctx.fillText(String(cost), x, y);
      written += 1;
    }
    this.root.dataset.costLabels = String(written); // for the browser tests
  }

  // Whether a text's box (css px) would cover a text written before, or run off the canvas.
  clashes(box) {
    if (box.left < 0 || box.top < 0 || box.right > this.width || box.bottom > this.height) {
      return true;
    }
    return this.written.some(
      (w) => box.left < w.right && w.left < box.right && box.top < w.bottom && w.top < box.bottom,
    );
  }

  // Text with a white halo (as plotly's text shadow), beside or on the points (data units).
  writeAll(ctx, texts, xs, ys, size, colour, where) {
    ctx.font = `${size}px sans-serif`;
    ctx.lineJoin = "round";
    for (let i = 0; i < texts.length; i += 1) {
      const [horizontal, vertical, gap = 0] = where(i);
      const lines = String(texts[i]).split("\n");
      const px = this.toX(xs[i]);
      const py = this.toY(ys[i]);
      const tall = size * 1.15;
      let x = px;
      ctx.textAlign = "center";
      if (horizontal === "left") {
        x = px - gap;
        ctx.textAlign = "right";
      } else if (horizontal === "right") {
        x = px + gap;
        ctx.textAlign = "left";
      }
      let y = py - ((lines.length - 1) * tall) / 2; // the first line's middle
      if (vertical === "top") y = py - gap - (lines.length - 0.5) * tall;
      else if (vertical === "bottom") y = py + gap + tall / 2;
      const wide = Math.max(...lines.map((line) => ctx.measureText(line).width));
      let left = x - wide / 2;
      if (ctx.textAlign === "right") left = x - wide;
      else if (ctx.textAlign === "left") left = x;
      const box = {
        text: String(texts[i]), left, right: left + wide,
        top: y - tall / 2, bottom: y + (lines.length - 0.5) * tall,
      };
      if (this.written && this.clashes(box)) {
        this.skipped.push(box.text);
        continue;
      }
      if (this.written) this.written.push(box);
      ctx.textBaseline = "middle";
      lines.forEach((line, k) => {
        ctx.strokeStyle = "white";
        ctx.lineWidth = 3;
        ctx.strokeText(line, x, y + k * tall);
        ctx.fillStyle = colour;
        ctx.fillText(line, x, y + k * tall);
      });
    }
  }

  name(place) {
    const names = this.data.names;
    if (names === "index") return String(place);
    if (names === "cell") return `${this.y[place]},${this.x[place]}`;
    return names[place];
  }

  // What step k did, naming the place it is about: a push or an update names the child,
  // and the place expanded as where it was reached from.
  stepLabel(k) {
    const place = this.current[k];
    if (place < 0) return `step ${k}: ${this.data.notes[String(k)] || "start on the frontier"}`;
    const part = this.data.parts[this.part[k]];
    const about = this.about[k];
    const side = this.data.sides[this.side[k]];
    const from = about === place ? "" : ` ${part === "update" ? "via" : "from"} ${this.name(place)}`;
    return (
      `step ${k}: ${part} ${this.name(about)}${from}` +
      `${side ? ` (${side})` : ""}, frontier ${this.frontierSize[k]}, ` +
      `explored ${this.exploredSize[k]}`
    );
  }

  // Draws step k: the places painted by then, the place being expanded, the route at the end.
  show(step) {
    const k = Math.max(0, Math.min(this.last, step));
    if (!this.toX) return; // not laid out yet (no width): layout() shows the step
    this.drawSearch(k);
    this.label.textContent = this.stepLabel(k);
    this.slider.value = String(k);
    this.number.textContent = `${k} / ${this.last}`;
    this.markLine(k);
    this.root.dataset.step = String(k);
  }

  // The search canvas at step k (repainting only what changed since the step shown) and
  // the moving canvas.
  drawSearch(k) {
    const ctx = this.search.getContext("2d");
    if (k < this.shown || this.shown < 0) {
      ctx.drawImage(this.background, 0, 0, this.width, this.height);
      this.painted = 0;
    }
    const upTo = countUpTo(this.paintStep, k);
    for (let i = this.painted; i < upTo; i += 1) {
      this.paint(ctx, this.paintPlace[i], this.paintKind[i]);
    }
    this.painted = upTo;
    this.shown = k;
    this.drawMoving(k);
  }

  drawMoving(k) {
    const ctx = this.moving.getContext("2d");
    const s = this.style;
    ctx.clearRect(0, 0, this.width, this.height);
    if (k === this.last && this.route.length > 1) {
      ctx.strokeStyle = s.route;
      ctx.lineWidth = 4;
      ctx.lineJoin = "round";
      ctx.beginPath();
      this.route.forEach((place, i) => {
        const px = this.toX(this.x[place]);
        const py = this.toY(this.y[place]);
        if (i === 0) ctx.moveTo(px, py);
        else ctx.lineTo(px, py);
      });
      ctx.stroke();
    }
    const place = this.current[k];
    if (place < 0) return;
    const px = this.toX(this.x[place]);
    const py = this.toY(this.y[place]);
    if (this.data.grid) {
      const c = this.cell;
      ctx.fillStyle = s.current;
      ctx.fillRect(px - c / 2, py - c / 2, c, c);
      ctx.strokeStyle = s.currentEdge;
      ctx.lineWidth = 2;
      ctx.strokeRect(px - c / 2 + 1, py - c / 2 + 1, c - 2, c - 2);
    } else {
      // a thick ring wider than the stars: drawn over one it leaves the star in view
      ctx.strokeStyle = s.current;
      ctx.lineWidth = 4;
      ctx.beginPath();
      ctx.arc(px, py, (s.marker + 16) / 2, 0, 2 * Math.PI);
      ctx.stroke();
    }
  }

  play() {
    if (this.playing) return;
    if (this.shown >= this.last) this.show(0);
    this.playing = true;
    this.root.dataset.playing = "true";
    let lastFrame = performance.now();
    const tick = (now) => {
      if (!this.playing) return;
      // frames due at this speed since the last one shown (several a tick above 60/s)
      const every = this.data.frameMs / this.speed;
      const due = Math.floor((now - lastFrame + 4) / every);
      if (due >= 1) {
        lastFrame = due > 4 ? now : lastFrame + due * every;
        const frames = this.data.frames;
        let at = frames.findIndex((f) => f > this.shown);
        if (at < 0) {
          this.pause();
          this.report();
          return;
        }
        at = Math.min(frames.length - 1, at + due - 1);
        this.show(frames[at]);
      }
      this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }

  // Sends the step shown to the page (the trigger "step") once it has stayed for a moment,
  // unless the page shows it already: the page's frontier table follows the player.
  report() {
    clearTimeout(this.reportTimer);
    this.reportTimer = setTimeout(() => {
      if (this.playing || this.shown === this.data.step) return;
      this.reported.push(this.shown);
      this.send("step", this.shown);
    }, REPORT_AFTER_MS);
  }

  pause() {
    this.playing = false;
    this.root.dataset.playing = "false";
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  // The place nearest to the mouse within reach (at least ``reach`` px, else its
  // marker's or cell's size), or -1.
  nearestPlace(event, reach) {
    const box = this.marks.getBoundingClientRect();
    const mx = event.clientX - box.left;
    const my = event.clientY - box.top;
    let best = -1;
    let bestDistance = Math.max(reach, this.data.grid ? this.cell / 2 : this.style.marker) ** 2;
    for (let i = 0; i < this.x.length; i += 1) {
      const dx = this.toX(this.x[i]) - mx;
      const dy = this.toY(this.y[i]) - my;
      const distance = dx * dx + dy * dy;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = i;
      }
    }
    return best;
  }

  // The name of the place under the mouse, in a tip (textContent: names are not HTML).
  hover(event) {
    const best = this.nearestPlace(event, 8);
    if (best < 0) {
      this.tip.style.display = "none";
      return;
    }
    this.tip.textContent = this.name(best);
    this.tip.style.display = "block";
    this.tip.style.left = `${this.toX(this.x[best]) + 10}px`;
    this.tip.style.top = `${this.toY(this.y[best]) - 28}px`;
  }

  destroy() {
    this.pause();
    clearTimeout(this.reportTimer);
    this.resizer.disconnect();
    this.root.remove();
  }
}

// The clickable route map (lib/routes/animation.py's route_map_data()): the player's
// drawing without a search, each algorithm's route in its colour, and a click on a place
// sends its index to the server (the trigger "click"). The wheel zooms about the mouse,
// a drag pans, "Whole map" goes back; a press that moves less than 4 px is a click.
class RouteMap extends Player {
  read(data) {
    this.routes = data.routes.map((route) => ({ ...route, places: unpack(route.places) }));
    this.last = 0;
    this.shown = -1;
    this.send = () => {};
  }

  build(parent) {
    const data = this.data;
    this.root = element("div", `route-player route-map${data.present ? " present" : ""}`);
    this.root.dataset.places = String(this.x.length);
    this.root.dataset.start = String(data.start);
    this.root.dataset.goal = String(data.goal);
    this.root.dataset.digest = data.digest;
    const head = element("div", "head");
    this.whole = element("button", "whole", "Whole map");
    head.append(element("div", "title", data.title), this.whole);
    this.buildStage();
    this.hint = element("div", "hint");
    this.clickNext = data.clickNext || "start";
    this.root.append(head);
    if (data.editable) this.root.append(this.buildTools());
    else this.showHint();
    // the hint goes under the map, so that a longer one never moves the map
    this.root.append(this.stage, this.hint, this.legend);
    parent.append(this.root);
    this.fillLegend();
    const marks = this.marks;
    marks.addEventListener("mousemove", (event) => this.hover(event));
    marks.addEventListener("mouseleave", () => {
      this.tip.style.display = "none";
    });
    marks.addEventListener("wheel", (event) => this.wheel(event), { passive: false });
    marks.addEventListener("pointerdown", (event) => {
      marks.setPointerCapture(event.pointerId);
      this.pressed(event);
    });
    marks.addEventListener("pointermove", (event) => {
      const kind = this.press && this.press.kind;
      if (kind === "end") this.dragEnd(event);
      else if (kind === "paint") this.paintStroke(event);
      else this.drag(event);
    });
    marks.addEventListener("pointerup", (event) => this.released(event));
    this.whole.addEventListener("click", () => {
      this.view = { zoom: 1, panX: 0, panY: 0 };
      this.layout(true);
      this.showWhole();
    });
    this.showWhole();
  }

  // The tool palette of an editable grid: one button per tool, the chosen one pressed.
  buildTools() {
    const bar = element("div", "tools");
    bar.setAttribute("role", "toolbar");
    bar.setAttribute("aria-label", "Map tools");
    this.toolButtons = TOOLS.map(([tool, text]) => {
      const button = element("button", "tool", text);
      button.dataset.tool = tool;
      button.addEventListener("click", () => this.setTool(tool));
      bar.append(button);
      return button;
    });
    this.setTool(tools.get(this.parent) || "pick");
    return bar;
  }

  setTool(tool) {
    this.tool = tool;
    tools.set(this.parent, tool);
    this.root.dataset.tool = tool;
    for (const button of this.toolButtons || []) {
      const on = button.dataset.tool === tool;
      button.classList.toggle("active", on);
      button.setAttribute("aria-pressed", String(on));
    }
    this.showHint();
  }

  // Says what a press does now (`next`: the end the next Pick click sets, from the page).
  showHint(next = this.clickNext) {
    this.clickNext = next;
    const tool = this.data.editable ? this.tool : "pick";
    this.hint.textContent = HINTS[tool](next);
  }

  // A press on the map: on the start or goal star it drags that star (any tool, any
  // map); with a move tool it carries that end there; with a paint tool it paints;
  // otherwise a click (a place) or a pan. A paint tool grabs a star only on its own cell,
  // so that a wall can be drawn right next to it.
  pressed(event) {
    const tool = this.data.editable ? this.tool : "pick";
    const end = tool in PAINTS ? this.endOnCell(event) : this.endNear(event);
    if (end || tool === "start" || tool === "goal") {
      // a press on a star that does not move is a click on its place (Pick / pan)
      const click = end && tool === "pick";
      this.press = { kind: "end", end: end || tool, place: -1, click };
      if (!end) this.dragEnd(event);
    } else if (tool in PAINTS) {
      this.press = { kind: "paint", cells: [], seen: new Set(), last: null };
      this.paintStroke(event);
    } else {
      this.press = { kind: "pan", x: event.clientX, y: event.clientY, moved: false };
    }
  }

  released(event) {
    const press = this.press;
    this.press = null;
    if (!press) return;
    if (press.kind === "end") {
      const now = press.end === "start" ? this.data.start : this.data.goal;
      if (press.place >= 0 && press.place !== now) {
        this.root.dataset.sent = "move";
        this.send("move", { end: press.end, place: press.place });
      } else {
        this.moved = null;
        this.drawMarks();
        if (press.click && press.place < 0) this.click(event);
      }
    } else if (press.kind === "paint") {
      if (press.cells.length) {
        this.root.dataset.sent = "edit";
        this.send("edit", { tool: this.tool, cells: press.cells });
      }
    } else if (!press.moved) {
      this.click(event);
    }
  }

  // The end ("start" or "goal") whose star is under the mouse, or null.
  endNear(event) {
    const box = this.marks.getBoundingClientRect();
    const mx = event.clientX - box.left;
    const my = event.clientY - box.top;
    const reach = (this.data.grid ? this.cell * 0.85 + 8 : this.style.star) / 2 + 3;
    for (const end of ["goal", "start"]) {
      const place = this.data[end];
      if (place < 0) continue;
      const dx = this.toX(this.x[place]) - mx;
      const dy = this.toY(this.y[place]) - my;
      if (dx * dx + dy * dy <= reach * reach) return end;
    }
    return null;
  }

  // The end ("start" or "goal") on the grid cell under the mouse, or null.
  endOnCell(event) {
    const box = this.marks.getBoundingClientRect();
    const col = Math.round(this.fromX(event.clientX - box.left));
    const row = Math.round(this.fromY(event.clientY - box.top));
    for (const end of ["goal", "start"]) {
      const place = this.data[end];
      if (place >= 0 && this.x[place] === col && this.y[place] === row) return end;
    }
    return null;
  }

  // Carries the pressed end's star to the place nearest the mouse (not the other end's).
  dragEnd(event) {
    const press = this.press;
    const place = this.nearestPlace(event, 40);
    const other = press.end === "start" ? this.data.goal : this.data.start;
    if (place < 0 || place === other || place === press.place) return;
    if (place === this.data[press.end]) {
      // back on its own place (or a click's jitter): nothing moved
      press.place = -1;
      this.moved = null;
      this.drawMarks();
      return;
    }
    press.place = place;
    this.moved = { end: press.end, place };
    this.drawMarks();
  }

  // Paints the cells the pointer passed over since the last event (a line between the
  // two, so that a fast drag leaves no gaps), at once on the canvas; sent on release.
  paintStroke(event) {
    const press = this.press;
    const box = this.marks.getBoundingClientRect();
    const col = Math.round(this.fromX(event.clientX - box.left));
    const row = Math.round(this.fromY(event.clientY - box.top));
    const [r0, c0] = press.last || [row, col];
    press.last = [row, col];
    const count = Math.max(Math.abs(row - r0), Math.abs(col - c0), 1);
    const ctx = this.search.getContext("2d");
    const value = PAINTS[this.tool];
    const s = this.style;
    ctx.fillStyle = value === 0 ? s.obstacle : value === 1 ? s.free : s.terrain[String(value)];
    const d = this.data;
    const ends = new Set(
      [d.start, d.goal].filter((p) => p >= 0).map((p) => this.y[p] * d.cols + this.x[p]),
    );
    for (let i = 0; i <= count; i += 1) {
      const r = Math.round(r0 + ((row - r0) * i) / count);
      const c = Math.round(c0 + ((col - c0) * i) / count);
      const cell = r * d.cols + c;
      if (r < 0 || c < 0 || r >= d.rows || c >= d.cols || press.seen.has(cell)) continue;
      press.seen.add(cell);
      press.cells.push(r, c);
      if (value === 0 && ends.has(cell)) continue; // the start and goal stay free
      const size = this.cell;
      ctx.fillRect(this.toX(c - 0.5), this.toY(r - 0.5), size, size);
    }
    this.root.dataset.painted = String(press.cells.length / 2);
  }

  // The "Whole map" button, shown while zoomed in or moved (a double click would be two
  // clicks on a place: a start and a goal).
  showWhole() {
    const { zoom, panX, panY } = this.view;
    this.whole.style.display = zoom === 1 && panX === 0 && panY === 0 ? "none" : "";
  }

  fillLegend() {
    const s = this.style;
    const items = this.routes.map((route) => ["line", route.colour, route.name]);
    if (this.data.start >= 0) items.push(["star", s.start, `start: ${this.data.startName}`]);
    if (this.data.goal >= 0) items.push(["star", s.goal, `goal: ${this.data.goalName}`]);
    if (this.data.editable || this.costAt.size) {
      items.push(["square", s.obstacle, "wall"], ...this.terrainItems());
    }
    for (const [shape, colour, text] of items) {
      const item = element("span", "item");
      const key = element("span", `key ${shape}`, shape === "star" ? "★" : "");
      key.style.setProperty("--colour", colour);
      item.append(key, element("span", "text", text));
      this.legend.append(item);
    }
  }

  show() {
    if (!this.toX) return;
    this.search.getContext("2d").drawImage(this.background, 0, 0, this.width, this.height);
    this.shown = 0;
    this.drawMoving();
  }

  // The routes, each shifted a little (px) from the others so that shared roads show all.
  drawMoving() {
    const ctx = this.moving.getContext("2d");
    ctx.clearRect(0, 0, this.width, this.height);
    const count = this.routes.length;
    ctx.lineJoin = "round";
    ctx.globalAlpha = 0.85;
    ctx.lineWidth = count === 1 ? 5 : 4;
    this.routes.forEach((route, index) => {
      const shift = (index - (count - 1) / 2) * 3;
      ctx.strokeStyle = route.colour;
      ctx.beginPath();
      route.places.forEach((place, i) => {
        const px = this.toX(this.x[place]) + shift;
        const py = this.toY(this.y[place]) + shift;
        if (i === 0) ctx.moveTo(px, py);
        else ctx.lineTo(px, py);
      });
      ctx.stroke();
    });
    ctx.globalAlpha = 1;
  }

  click(event) {
    const place = this.nearestPlace(event, 10);
    if (place >= 0) this.send("click", place);
  }

  wheel(event) {
    event.preventDefault();
    const box = this.marks.getBoundingClientRect();
    const mx = event.clientX - box.left - this.width / 2;
    const my = event.clientY - box.top - this.height / 2;
    const { zoom, panX, panY } = this.view;
    const pixels = event.deltaMode === 1 ? event.deltaY * 33 : event.deltaY; // lines or px
    const next = Math.max(1, Math.min(64, zoom * Math.exp(-pixels * 0.002)));
    // keep the point under the mouse where it is
    this.view = {
      zoom: next,
      panX: next === 1 ? 0 : mx - ((mx - panX) * next) / zoom,
      panY: next === 1 ? 0 : my - ((my - panY) * next) / zoom,
    };
    this.layout(true);
    this.showWhole();
  }

  drag(event) {
    const press = this.press;
    if (!press) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.moved && dx * dx + dy * dy < 16) return;
    press.moved = true;
    press.x = event.clientX;
    press.y = event.clientY;
    this.view = { ...this.view, panX: this.view.panX + dx, panY: this.view.panY + dy };
    this.layout(true);
    this.showWhole();
  }
}

// One algorithm of a race (lib/routes/race.py's race_data()): the player's drawing of its
// search, with no controls of its own, and its counters under the map.
class Racer extends Player {
  read(data) {
    this.paintPlace = unpack(data.paintPlace);
    this.paintStep = unpack(data.paintStep);
    this.paintKind = unpack(data.paintKind);
    this.current = unpack(data.current);
    this.route = unpack(data.route);
    this.tickStep = unpack(data.tickStep);
    this.frontierAt = unpack(data.frontierSize); // by tick
    this.last = this.current.length - 1;
    this.shown = -1;
    this.painted = 0;
    this.playing = false;
  }

  build(parent) {
    this.root = element("div", "racer");
    this.root.dataset.name = this.data.name;
    const head = element("div", "head");
    const key = element("span", "key line");
    key.style.setProperty("--colour", this.data.colour);
    head.append(key, element("span", "title", this.data.name));
    this.buildStage();
    this.counter = element("div", "counter");
    this.root.append(head, this.stage, this.counter);
    parent.append(this.root);
  }

  show(step) {
    if (!this.toX) return;
    this.drawSearch(Math.max(0, Math.min(this.last, step)));
  }

  // The search after `tick` expansions (all of it once finished), and its counters.
  showTick(tick) {
    const t = Math.min(tick, this.data.ticks);
    this.show(this.tickStep[t]);
    if (!this.toX) this.data.step = this.tickStep[t]; // drawn once laid out
    const done = t === this.data.ticks;
    const cost = this.data.cost;
    let text = `expanded ${t}, frontier ${this.frontierAt[t]}`;
    if (done) text += cost === null ? ", no route" : `, route found: cost ${Number(cost.toPrecision(4))}`;
    this.counter.textContent = text;
    this.root.dataset.tick = String(t);
    this.root.dataset.done = String(done);
  }
}

// A race: 2 to 4 racers on the same map, one expansion per tick each, with one
// Play / Pause / Step and a speed control; the tick shown is in the root's data-tick.
class Race {
  constructor(parent, data) {
    this.parent = parent;
    this.data = data;
    this.send = () => {}; // the component's setTriggerValue, once given
    this.tick = 0;
    this.playing = false;
    this.root = element("div", `route-player route-race${data.present ? " present" : ""}`);
    this.root.dataset.ticks = String(data.ticks);
    const head = element("div", "head");
    head.append(element("div", "title", data.title));
    const board = element("div", "racers");
    const controls = element("div", "controls");
    this.playButton = element("button", "play", "▶ Play");
    this.stepButton = element("button", "step", "Step ▶");
    this.restartButton = element("button", "restart", "⏮ Restart");
    this.number = element("span", "number");
    this.speedSelect = Player.prototype.buildSpeed.call(this);
    controls.append(
      this.playButton,
      this.stepButton,
      this.restartButton,
      this.number,
      element("span", "speed-label", "speed"),
      this.speedSelect,
    );
    this.root.append(head, controls, board);
    parent.append(this.root);
    const maxPlot = Race.plotHeight(data.racers.length);
    this.racers = data.racers.map(
      (racer) => new Racer(board, { ...data, ...racer, step: 0, racers: undefined, maxPlot }),
    );
    this.playButton.addEventListener("click", () => (this.playing ? this.pause() : this.play()));
    this.stepButton.addEventListener("click", () => {
      this.pause();
      this.showTick(this.tick + 1);
    });
    this.restartButton.addEventListener("click", () => {
      this.pause();
      this.showTick(0);
    });
    this.showTick(0);
  }

  // The most height (css px) of each racer's map: the rows of racers, each with its head
  // and counters, and the race's controls fit in the window (what a projector shows).
  static plotHeight(racers) {
    const rows = Math.ceil(racers / RACE_COLUMNS);
    const room = (window.innerHeight - RACE_HEAD) / rows - RACER_TEXT - 2 * 24;
    return Math.max(120, Math.min(580, Math.floor(room)));
  }

  showTick(tick) {
    this.tick = Math.max(0, Math.min(this.data.ticks, tick));
    for (const racer of this.racers) racer.showTick(this.tick);
    this.number.textContent = `tick ${this.tick} / ${this.data.ticks}`;
    this.root.dataset.tick = String(this.tick);
  }

  play() {
    if (this.tick >= this.data.ticks) this.showTick(0);
    this.playing = true;
    this.root.dataset.playing = "true";
    this.playButton.textContent = "❚❚ Pause";
    let last = performance.now();
    const frame = (now) => {
      if (!this.playing) return;
      const every = this.data.tickMs / this.speed;
      const due = Math.floor((now - last + 4) / every);
      if (due >= 1) {
        last = due > 16 ? now : last + due * every;
        this.showTick(this.tick + due);
        if (this.tick >= this.data.ticks) {
          this.pause();
          return;
        }
      }
      this.frame = requestAnimationFrame(frame);
    };
    this.frame = requestAnimationFrame(frame);
  }

  pause() {
    this.playing = false;
    this.root.dataset.playing = "false";
    this.playButton.textContent = "▶ Play";
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  destroy() {
    this.pause();
    for (const racer of this.racers) racer.destroy();
    this.root.remove();
  }
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let player = players.get(parentElement);
  if (data.mode === "race") {
    if (!player || player.data.digest !== data.digest) {
      if (player) player.destroy();
      player = new Race(parentElement, data);
      players.set(parentElement, player);
    }
    player.send = setTriggerValue;
  } else if (data.mode === "map") {
    // a new start, goal or routes on the same map: drawn anew, keeping the zoom and pan
    const view = player && player.data.mapDigest === data.mapDigest ? player.view : undefined;
    if (!player || player.data.digest !== data.digest) {
      if (player) player.destroy();
      player = new RouteMap(parentElement, data, view);
      players.set(parentElement, player);
    }
    player.showHint(data.clickNext || "start");
    player.send = setTriggerValue;
  } else if (player && player.data.digest === data.digest) {
    // The page following a step the player reported (it may come late, after the player
    // moved on): the player stays where it is, and tells the page again if it moved.
    // Any other step is the page's own (its step buttons): the player goes there.
    const at = player.reported.indexOf(data.step);
    player.reported = at >= 0 ? player.reported.slice(at + 1) : [];
    player.data = data;
    if (at >= 0) {
      player.report();
    } else {
      player.pause();
      player.show(data.step);
    }
  } else {
    if (player) player.destroy();
    player = new Player(parentElement, data);
    players.set(parentElement, player);
  }
  if (data.mode !== "map" && data.mode !== "race") player.send = setTriggerValue;
  return () => {
    const shown = players.get(parentElement);
    if (shown) shown.destroy();
    players.delete(parentElement);
  };
}
