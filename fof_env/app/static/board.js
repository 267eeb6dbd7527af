// The fof browser board: speaks fof-protocol/1 over WebSocket and draws views as SVG.
// It only ever holds views (what the side it plays may know); it never sees a state.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const ui = {
  ws: null, hello: null, pending: new Map(), nextId: 1,
  game: null, view: null, sides: null, humans: [], eventsTotal: 0, playedTotal: 0,
  watching: false, busy: false,
};
window.fofReceived = [];  // every raw reply, for tests that check what reached the page

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ui.ws = ws;
  ws.onopen = async () => {
    ui.hello = await request({cmd: "hello"});
    fillGames();
    setStatus("Choose a game and press New game.");
    document.body.dataset.ready = "1";
  };
  ws.onmessage = (msg) => {
    window.fofReceived.push(msg.data);
    const reply = JSON.parse(msg.data);
    const waiter = ui.pending.get(reply.id);
    if (waiter) { ui.pending.delete(reply.id); waiter(reply); }
  };
  ws.onclose = () => setStatus("Disconnected from the server: reload the page.");
}

function request(msg) {
  const id = ui.nextId++;
  return new Promise((resolve) => {
    ui.pending.set(id, resolve);
    ui.ws.send(JSON.stringify({...msg, id}));
  });
}

function setStatus(text) { $("status").textContent = text; }

// ---------------------------------------------------------------- new-game form
function fillGames() {
  const select = $("game-select");
  select.innerHTML = "";
  for (const g of ui.hello.games) {
    const o = document.createElement("option");
    o.value = g.name; o.textContent = g.name;
    select.appendChild(o);
  }
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted) select.value = wanted;
  fillGameFields();
}

function gameInfo(name) { return ui.hello.games.find((g) => g.name === name); }

function fillGameFields() {
  const g = gameInfo($("game-select").value);
  const opts = $("option-fields");
  opts.innerHTML = "";
  for (const o of g.options) {
    const label = document.createElement("label");
    label.title = o.doc || "";
    label.append(o.name + " ");
    let input;
    if (o.type === "bool") {
      input = document.createElement("input"); input.type = "checkbox"; input.checked = !!o.default;
    } else if (o.choices) {
      input = document.createElement("select");
      for (const c of o.choices) { const op = document.createElement("option"); op.value = String(c); op.textContent = String(c); input.appendChild(op); }
      input.value = String(o.default);
    } else {
      input = document.createElement("input"); input.value = String(o.default); input.size = 6;
    }
    input.dataset.option = o.name; input.dataset.type = o.type;
    label.appendChild(input); opts.appendChild(label);
  }
  const heur = (ui.hello.agents.find((a) => a.kind === "heuristic") || {}).games || [];
  const sides = $("side-fields");
  sides.innerHTML = "";
  let list = $("agent-kinds");
  if (!list) {
    list = document.createElement("datalist"); list.id = "agent-kinds";
    for (const spec of ["you", ...ui.hello.agents.map((a) => a.kind), "mcts:50", "mcts:200", "mcts:time_budget=1"]) {
      const op = document.createElement("option"); op.value = spec; list.appendChild(op);
    }
    document.body.appendChild(list);
  }
  g.sides.forEach((side, i) => {
    const label = document.createElement("label");
    label.append(side + " ");
    const input = document.createElement("input");
    input.setAttribute("list", "agent-kinds"); input.size = 10; input.id = "side-" + side;
    input.dataset.side = side;
    input.value = i === 0 ? "you" : (heur.includes(g.name) ? "heuristic" : "random");
    input.title = "'you' plays this side here; else an agent spec: random, heuristic, mcts:200, ppo ...";
    label.appendChild(input); sides.appendChild(label);
  });
}

function readOptions() {
  const out = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const t = input.dataset.type;
    if (t === "bool") out[input.dataset.option] = input.checked;
    else if (t === "int") out[input.dataset.option] = parseInt(input.value, 10);
    else if (t === "float") out[input.dataset.option] = parseFloat(input.value);
    else out[input.dataset.option] = input.value;
  }
  return out;
}

function readBots() {
  const bots = {};
  for (const input of document.querySelectorAll("[data-side]")) {
    const v = input.value.trim();
    if (v && v !== "you" && v !== "human") bots[input.dataset.side] = v;
  }
  return bots;
}

async function startGame(msg) {
  stopWatching();
  if (ui.game) request({cmd: "close", game: ui.game});
  const reply = await request(msg);
  if (!reply.ok) { setStatus("Error: " + reply.error); return; }
  ui.game = reply.game;
  ui.sides = reply.sides;
  ui.humans = Object.keys(reply.sides).filter((s) => reply.sides[s] === "front end");
  ui.eventsTotal = 0; ui.playedTotal = 0;
  $("log").innerHTML = "";
  const watch = $("watch");
  watch.hidden = ui.humans.length > 0;
  const ws = $("watch-side");
  ws.innerHTML = "";
  for (const s of reply.view.sides) { const o = document.createElement("option"); o.value = s; o.textContent = s; ws.appendChild(o); }
  ws.value = reply.view.side;
  show(reply);
}

// ---------------------------------------------------------------- rendering
function show(reply) {
  if (!reply.ok) { setStatus("Error: " + reply.error); return; }
  const v = reply.view;
  ui.view = v;
  if (v.events_from === 0) { $("log").innerHTML = ""; }
  appendLog(v);
  ui.eventsTotal = v.events_total;
  ui.playedTotal = v.played_total;
  const score = v.score ? " — " + Object.entries(v.score).map(([k, x]) => `${k} ${x}`).join(", ") : "";
  if (v.terminal) {
    const r = v.result || {};
    setStatus(`Game over: ${r.winner ? r.winner + " wins" : "draw"}${r.reason && r.reason !== "game over" ? " (" + r.reason + ")" : ""}${score}`);
  } else {
    const d = v.decision;
    const who = v.your_turn ? `You (${v.side}) decide` : `${d.side} decides`;
    const practice = v.practice ? " (practice game)" : "";
    setStatus(`${v.game}${practice} — turn ${v.turn} — ${who}: ${d.kind.replace(/_/g, " ")}${score}`);
  }
  document.body.dataset.terminal = v.terminal ? "1" : "0";
  document.body.dataset.yourTurn = v.your_turn ? "1" : "0";
  document.body.dataset.decisions = String(v.decisions);
  document.body.dataset.kind = v.decision ? v.decision.kind : "";
  $("text-view").textContent = v.text;
  drawPrompt(v);
  drawBoard(v);
  $("save-button").disabled = false;
  $("undo-button").disabled = !v.can_undo;
  const humanTurn = !v.terminal && ui.humans.includes(v.side);
  $("resign-button").disabled = !humanTurn;
  $("pass-all-button").disabled = !humanTurn;
  $("pass-all-button").textContent = (v.pass_all || []).includes(v.side) ? "Passing all reactions this turn" : "Pass all reactions this turn";
}

function drawPrompt(v) {
  const actions = $("actions");
  actions.innerHTML = "";
  $("preview").innerHTML = "";
  const dialog = $("reaction");
  if (!v.your_turn) {
    $("prompt").textContent = v.terminal ? "" : (ui.humans.length ? "Waiting for the other side..." : "Watching.");
    if (dialog.open) dialog.close();
    return;
  }
  const ctx = v.decision.context || {};
  const bits = Object.entries(ctx).filter(([k]) => k !== "turn").map(([k, x]) => `${k}: ${Array.isArray(x) ? x.join(", ") : x}`);
  const onBoard = new Set((v.board.units || []).map((u) => u.id));
  const spatialEntry = (l) => l.hex || l.point || (l.unit && onBoard.has(l.unit));
  const spatial = v.legal.filter(spatialEntry).length;
  $("prompt").textContent = bits.join("; ") + (spatial ? " — click a highlighted " + (v.board.type === "hexmap" ? "hex or unit" : "point or unit") : "");
  for (const l of v.legal) {
    if (spatialEntry(l)) continue;
    actions.appendChild(actionButton(l));
  }
  const previews = v.legal.filter((l) => l.preview);
  if (previews.length) {
    const rows = previews.map((l) => {
      const p = l.preview;
      return `<tr><td style="text-align:left">${l.unit}</td><td>${p.firepower}d${p.attack_die}</td><td>${p.defense}d${p.defense_die}</td><td>${p.expected_casualties.toFixed(2)}</td><td>${Math.round(100 * p.p_any)}%</td></tr>`;
    });
    $("preview").innerHTML = `<table><tr><th>target</th><th>firepower</th><th>defense</th><th>exp. casualties</th><th>P(≥1)</th></tr>${rows.join("")}</table>`;
  }
  if (v.decision.reaction) {
    $("reaction-title").textContent = `${v.side}: ${v.decision.kind.replace(/_/g, " ")}`;
    $("reaction-context").textContent = bits.join("; ");
    const box = $("reaction-actions");
    box.innerHTML = "";
    for (const l of v.legal) box.appendChild(actionButton(l));
    $("reaction-pass-all").hidden = !v.legal.some((l) => l.action === "pass");
    if (!dialog.open) dialog.show();
  } else if (dialog.open) {
    dialog.close();
  }
}

function actionButton(l) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = l.label;
  b.dataset.action = l.action;
  b.className = "action";
  b.title = l.action;
  b.onclick = () => play(l.action);
  return b;
}

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, x] of Object.entries(attrs || {})) el.setAttribute(k, x);
  if (parent) parent.appendChild(el);
  return el;
}

function legalBy(v, key) {
  const out = new Map();
  if (!v.your_turn) return out;
  for (const l of v.legal) if (l[key] !== undefined && !out.has(l[key])) out.set(l[key], l);
  return out;
}

function drawBoard(v) {
  const board = $("board");
  board.innerHTML = "";
  if (v.board.type === "hexmap") drawHexmap(board, v);
  else if (v.board.type === "table") drawTable(board, v);
  else { board.setAttribute("viewBox", "0 0 720 720"); const t = svg("text", {x: 10, y: 20}, board); t.textContent = "(text view only: see below)"; }
}

function drawHexmap(board, v) {
  const S = 40, b = v.board;
  const xs = b.hexes.map((h) => h.x), ys = b.hexes.map((h) => h.y);
  const pad = S * 1.2;
  const minX = Math.min(...xs) * S - pad, minY = Math.min(...ys) * S - pad;
  const w = (Math.max(...xs) - Math.min(...xs)) * S + 2 * pad, h = (Math.max(...ys) - Math.min(...ys)) * S + 2 * pad;
  board.setAttribute("viewBox", `${minX} ${minY} ${w} ${h}`);
  const byHex = legalBy(v, "hex"), byUnit = legalBy(v, "unit");
  const centre = {};
  for (const hx of b.hexes) {
    const cx = hx.x * S, cy = hx.y * S;
    centre[hx.id] = [cx, cy];
    const pts = [0, 1, 2, 3, 4, 5].map((k) => `${cx + S * Math.cos(k * Math.PI / 3)},${cy + S * Math.sin(k * Math.PI / 3)}`).join(" ");
    const l = byHex.get(hx.id);
    const unitOnly = l && l.unit;
    const poly = svg("polygon", {points: pts, class: `hex ${hx.terrain}${l && !unitOnly ? " legal" : ""}`, "data-hex": hx.id}, board);
    if (l && !unitOnly) { poly.dataset.action = l.action; poly.onclick = () => play(l.action); const t = svg("title", {}, poly); t.textContent = l.label; }
    const name = svg("text", {x: cx - 13, y: cy - S * 0.55, class: "hex-name"}, board);
    name.textContent = hx.id + (hx.terrain === "town" ? " T" : "");
  }
  for (const m of b.markers) {
    const [cx, cy] = centre[m.hex];
    svg("circle", {cx, cy, r: S * 0.78, class: `marker ${m.kind}`}, board);
  }
  const stacks = {};
  for (const u of b.units) {
    const [cx, cy] = centre[u.hex];
    const k = (stacks[u.hex] = (stacks[u.hex] || 0) + 1) - 1;
    const x = cx - 13 + k * 8, y = cy - 10 + k * 8;
    const hexLegal = byHex.get(u.hex);
    const l = byUnit.get(u.id) || (hexLegal && !hexLegal.unit ? hexLegal : undefined);  // a unit on a legal hex
    const rect = svg("rect", {x, y, width: 26, height: 26, rx: 3, class: `counter ${u.side}${l ? " legal" : ""}${u.focus ? " focus" : ""}`, "data-unit": u.id}, board);
    if (l) { rect.dataset.action = l.action; rect.onclick = () => play(l.action); }
    const t = svg("title", {}, rect); t.textContent = `${u.id}${l ? ": " + l.label : ""}`;
    const label = svg("text", {x: x + 13, y: y + 13, class: "counter-label", "font-size": 14}, board);
    label.textContent = u.label;
  }
}

function drawTable(board, v) {
  const b = v.board;
  const m = 1.5;
  board.setAttribute("viewBox", `${-m} ${-m} ${b.width + 2 * m} ${b.height + 2 * m}`);
  svg("rect", {x: 0, y: 0, width: b.width, height: b.height, class: "table-bg"}, board);
  for (const f of b.features) {
    if (f.rect) {
      const [x0, y0, x1, y1] = f.rect;
      const known = ["woods", "building", "stream_bank"].includes(f.kind);
      const r = svg("rect", {x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: `feature ${known ? f.kind : "other"}`}, board);
      const t = svg("title", {}, r); t.textContent = `${f.id} (${f.kind})`;
    } else if (f.segment) {
      const [x0, y0, x1, y1] = f.segment;
      svg("line", {x1: x0, y1: y0, x2: x1, y2: y1, class: "feature wall"}, board);
    }
  }
  for (let x = b.spacing / 2; x < b.width; x += b.spacing)
    for (let y = b.spacing / 2; y < b.height; y += b.spacing) svg("circle", {cx: x, cy: y, r: 0.12, class: "point"}, board);
  for (const [side, edge] of Object.entries(b.edges || {})) {
    const t = svg("text", {"font-size": 1.1, fill: "#333", "text-anchor": "middle"}, board);
    const pos = {west: [-0.6, b.height / 2, -90], east: [b.width + 0.9, b.height / 2, 90], north: [b.width / 2, -0.4, 0], south: [b.width / 2, b.height + 1.1, 0]}[edge];
    if (pos) { t.setAttribute("transform", `translate(${pos[0]},${pos[1]}) rotate(${pos[2]})`); t.textContent = `${side} edge`; }
  }
  const byPoint = legalBy(v, "point"), byUnit = legalBy(v, "unit");
  const occupied = new Set(b.units.map((u) => u.point));
  for (const [point, l] of byPoint) {
    if (l.unit || occupied.has(point)) continue;  // a unit standing there takes the click
    const c = svg("circle", {cx: l.x, cy: l.y, r: 0.6, class: "point legal", "data-point": point}, board);
    c.dataset.action = l.action; c.onclick = () => play(l.action);
    const t = svg("title", {}, c); t.textContent = l.label;
  }
  for (const mk of b.markers) {
    svg("rect", {x: mk.x - 0.6, y: mk.y - 0.6, width: 1.2, height: 1.2, class: mk.kind}, board);
    const t = svg("text", {x: mk.x, y: mk.y, class: "token-label", fill: "#000", "font-size": 0.9}, board);
    t.textContent = mk.label; t.setAttribute("style", "fill:#000");
  }
  const stacks = {};
  for (const u of b.units) {
    const k = (stacks[u.point] = (stacks[u.point] || 0) + 1) - 1;
    const x = u.x + k * 0.9, y = u.y - k * 0.9;
    const pointLegal = byPoint.get(u.point);
    const l = byUnit.get(u.id) || (pointLegal && !pointLegal.unit ? pointLegal : undefined);  // a unit on a legal point
    const status = u.status.join(" ");
    const cls = `token ${u.side} side${v.sides.indexOf(u.side)}${l ? " legal" : ""}${u.focus ? " focus" : ""}${u.status.includes("pinned") ? " pinned" : ""}`;
    const c = u.vehicle  // a vehicle is a square, a unit of figures a disc
      ? svg("rect", {x: x - 1.0, y: y - 1.0, width: 2.0, height: 2.0, rx: 0.3, class: cls, "data-unit": u.id}, board)
      : svg("circle", {cx: x, cy: y, r: 1.0, class: cls, "data-unit": u.id}, board);
    if (l) { c.dataset.action = l.action; c.onclick = () => play(l.action); }
    const figs = Object.entries(u.figures).map(([s, n]) => `${s} ${n}`).join(", ");
    const t = svg("title", {}, c); t.textContent = `${u.id} at ${u.point}: ${figs}${status ? " — " + status : ""}${l ? "\n" + l.label : ""}`;
    const label = svg("text", {x, y: y - 0.15, class: "token-label", "font-size": 0.8}, board);
    label.textContent = u.label;
    const n = svg("text", {x, y: y + 0.6, class: "token-label", "font-size": 0.55}, board);
    n.textContent = `${u.effective}${u.status.includes("hidden") ? " H" : ""}${u.status.includes("pinned") ? " P" : ""}${u.status.includes("overwatch") ? " OW" : ""}`;
  }
}

function appendLog(v) {
  const log = $("log");
  for (const p of v.played || []) {
    const li = document.createElement("li");
    li.className = "move";
    li.textContent = `[${p.side}${p.by === "human" ? "" : " " + p.by}] ${p.kind}: ${p.action}`;
    log.appendChild(li);
  }
  for (const e of v.events || []) {
    const li = document.createElement("li");
    if (e.kind === "dice_rolled") { li.className = "dice"; li.textContent = `  d${e.sides} = ${e.value} (${e.purpose})`; }
    else li.textContent = e.text || e.kind;
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------- commands
function since() { return {since: ui.eventsTotal, played_since: ui.playedTotal}; }

async function play(action) {
  if (ui.busy || !ui.view || !ui.view.your_turn) return;
  ui.busy = true;
  document.body.dataset.busy = "1";
  try {
    const reply = await request({cmd: "play", game: ui.game, action, side: ui.view.side, ...since()});
    if (reply.ok) show(reply); else setStatus("Not played: " + reply.error);
  } finally { ui.busy = false; document.body.dataset.busy = "0"; }
}

async function fullRefresh(cmdMsg) {
  const reply = await request({...cmdMsg, since: 0, played_since: 0});
  if (!reply.ok) { setStatus("Error: " + reply.error); return; }
  show(reply);
}

function stopWatching() { ui.watching = false; $("watch-button").textContent = "Play"; }

async function watchLoop() {
  while (ui.watching && ui.view && !ui.view.terminal) {
    const reply = await request({cmd: "bot", game: ui.game, side: $("watch-side").value, ...since()});
    if (!reply.ok) { setStatus("Error: " + reply.error); break; }
    show(reply);
    await new Promise((r) => setTimeout(r, parseInt($("speed").value, 10)));
  }
  stopWatching();
}

function wire() {
  $("game-select").onchange = fillGameFields;
  $("new-game").onsubmit = (ev) => {
    ev.preventDefault();
    const seed = $("seed").value === "" ? null : parseInt($("seed").value, 10);
    startGame({cmd: "new", game: $("game-select").value, options: readOptions(), seed, bots: readBots(), practice: $("practice").checked});
  };
  $("undo-button").onclick = () => fullRefresh({cmd: "undo", game: ui.game, side: ui.view.side});
  $("resign-button").onclick = async () => {
    if (!confirm("Resign this game?")) return;
    show(await request({cmd: "resign", game: ui.game, side: ui.view.side}));
  };
  const passAll = async () => {
    const reply = await request({cmd: "pass_all", game: ui.game, side: ui.view.side});
    if (reply.ok) fullRefresh({cmd: "view", game: ui.game, side: ui.view.side}); else setStatus("Error: " + reply.error);
  };
  $("pass-all-button").onclick = passAll;
  $("reaction-pass-all").onclick = passAll;
  $("save-button").onclick = async () => {
    const reply = await request({cmd: "save", game: ui.game});
    if (!reply.ok) { setStatus("Error: " + reply.error); return; }
    $("save-id").value = reply.save_id;
    const link = $("download-record");
    if (reply.record) {
      link.href = URL.createObjectURL(new Blob([reply.record], {type: "application/json"}));
      link.hidden = false;
    } else {
      link.hidden = true;
    }
    setStatus(`Saved as ${reply.save_id}` + (reply.record ? " (record ready to download)" : " (on the server; the record is offered once the game is over)"));
  };
  // a saved game keeps its seats (which sides the server's bots play); a record names them too
  $("load-save").onclick = () => startGame({cmd: "load", save_id: $("save-id").value.trim()});
  $("record-file").onchange = (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      const text = String(reader.result);
      let seats = null;
      try { seats = JSON.parse(text).session?.seats || null; } catch (e) { seats = null; }
      startGame(seats ? {cmd: "load", record: text} : {cmd: "load", record: text, bots: readBots()});
    };
    reader.readAsText(file);
  };
  $("watch-button").onclick = () => {
    if (ui.watching) { stopWatching(); return; }
    ui.watching = true; $("watch-button").textContent = "Pause"; watchLoop();
  };
  $("speed").oninput = () => { $("speed-label").textContent = $("speed").value + " ms"; };
  $("watch-side").onchange = () => fullRefresh({cmd: "view", game: ui.game, side: $("watch-side").value});
}

wire();
connect();
