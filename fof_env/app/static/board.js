// The fof browser board: speaks fof-protocol/1 over WebSocket and draws views as SVG.
// It only ever holds views (what the side it plays may know); it never sees a state.
// A friend game: the host's page hands out a link to the other seat (and one for spectators); each
// page plays its own side and polls the view once a second to see the other side's moves.
// The replay viewer draws a finished game's frames (fof_env/core/replay_frames.py): from the
// server (POST /replay with a record, GET /replay/ID), or embedded in a report's page.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const ui = {
  ws: null, hello: null, pending: new Map(), nextId: 1,
  game: null, view: null, sides: null, humans: [], eventsTotal: 0, playedTotal: 0,
  watching: false, busy: false, inspect: null, record: null,
  replay: null, viewer: null, step: 0, replayTimer: null, replayRecord: null,
  friendGame: false, spectator: false, pollTimer: null, polling: false, sig: "",
};
const POLL_MS = 1000;  // a friend game or a spectator: how often the page asks for the view
window.fofReceived = [];  // every raw reply, for tests that check what reached the page

// Status words on counters: [badge, meaning]. "Pin" and the pilot never share a letter.
const BADGES = {
  hidden: ["Hid", "Hidden (yours: the enemy does not see it)"],
  pinned: ["Pin", "Pinned"],
  overwatch: ["OW", "Overwatch"],
  pilot: ["Plt", "has the downed pilot with it"],
  on_guard: ["OG", "On Guard"],
  gone_to_ground: ["GtG", "Gone to Ground"],
  duck_weave: ["D&W", "Duck & Weave"],
  stunned: ["Stn", "Stunned"],
  immobilised: ["Imm", "Immobilised"],
  engaged: ["CC", "in close combat"],
  aboard: ["Abd", "aboard a vehicle"],
};
const FEATURE_WORDS = {
  woods: "woods (block sight, cover)", building: "building (blocks sight, cover)", stream_bank: "stream bank (cover)",
  position: "prepared position (cover)", wall: "wall (cover)", other: "other terrain",
};

// ---------------------------------------------------------------- connection
function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ui.ws = ws;
  ws.onopen = async () => {
    ui.hello = await request({cmd: "hello"});
    fillGames();
    setStatus("Choose a game and press New game.");
    document.body.dataset.ready = "1";
    const params = new URLSearchParams(location.search);
    const rid = params.get("replay");
    if (rid) openReplayFrom(fetch(`/replay/${encodeURIComponent(rid)}`));
    const link = params.get("join") || params.get("watch");
    if (link) joinGame(link);
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
const words = (s) => String(s).replace(/_/g, " ");
const pct = (p) => `${Math.round(100 * p)}%`;
function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, x] of Object.entries(attrs || {})) e.setAttribute(k, x);
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---------------------------------------------------------------- new-game form
function fillGames() {
  const select = $("game-select");
  select.innerHTML = "";
  for (const g of ui.hello.games) select.appendChild(el("option", {value: g.name}, g.title ? `${g.title} (${g.name})` : g.name));
  const wanted = new URLSearchParams(location.search).get("game");
  const names = ui.hello.games.map((g) => g.name);
  select.value = names.includes(wanted) ? wanted : (names.includes("strike_force_one") ? "strike_force_one" : names[0]);
  fillGameFields();
}

function gameInfo(name) { return ui.hello.games.find((g) => g.name === name); }

function fillGameFields() {
  const g = gameInfo($("game-select").value);
  const opts = $("option-fields");
  opts.innerHTML = "";
  for (const o of g.options) {
    const label = el("label", {title: o.doc || ""});
    let input;
    if (o.type === "bool") {  // a check box before its words
      input = el("input", {type: "checkbox"}); input.checked = !!o.default;
      label.append(input, " " + words(o.name));
    } else {
      if (o.choices) {
        input = el("select");
        for (const c of o.choices) input.appendChild(el("option", {value: String(c)}, String(c)));
        input.value = String(o.default);
      } else {
        input = el("input", {size: 6}); input.value = String(o.default);
      }
      label.append(words(o.name) + " ", input);
    }
    input.dataset.option = o.name; input.dataset.type = o.type;
    opts.appendChild(label);
  }
  const heur = (ui.hello.agents.find((a) => a.kind === "heuristic") || {}).games || [];
  const sides = $("side-fields");
  sides.innerHTML = "";
  let list = $("agent-kinds");
  if (!list) {
    list = el("datalist", {id: "agent-kinds"});
    for (const spec of ["you", "friend", ...ui.hello.agents.map((a) => a.kind), "mcts:50", "mcts:200", "mcts:time_budget=1"]) list.appendChild(el("option", {value: spec}));
    document.body.appendChild(list);
  }
  g.sides.forEach((side, i) => {
    const input = el("input", {list: "agent-kinds", id: "side-" + side});
    input.dataset.side = side;
    input.value = i === 0 ? "you" : (heur.includes(g.name) ? "heuristic" : "random");
    input.title = "'you' plays this side here (both 'you': hot seat); 'friend': a friend plays it from another browser, through a link; else an agent spec: random, heuristic, mcts:200, ppo ...";
    const label = el("label");
    label.append(side + " ", input);
    sides.appendChild(label);
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
    if (v && v !== "you" && v !== "human" && v !== "friend") bots[input.dataset.side] = v;
  }
  return bots;
}

function gameTitle(name) { const g = ui.hello && gameInfo(name); return (g && g.title) || (ui.replay && ui.replay.title) || name; }

function readFriend() {
  return [...document.querySelectorAll("[data-side]")].filter((input) => input.value.trim() === "friend").map((input) => input.dataset.side);
}

async function startGame(msg) {
  stopWatching();
  leaveReplay();
  stopPolling();
  if (ui.game) request({cmd: "close", game: ui.game});
  const reply = await request(msg);
  if (!reply.ok) { setStatus("Error: " + reply.error); return; }
  enterGame(reply);
}

// A friend's or a spectator's link (?join=TOKEN, ?watch=TOKEN): after a reload the friend takes its
// seat back with the token the server gave it for that (kept for this tab only).
async function joinGame(token) {
  const key = "fof-rejoin:" + token;
  const kept = sessionStorage.getItem(key);
  let reply = null;
  for (let tries = 0; kept && tries < 5 && !(reply && reply.ok); tries++) {  // the old page's seat may take a moment to free
    if (tries) await new Promise((r) => setTimeout(r, 300));
    reply = await request({cmd: "join", token: kept});
  }
  if (!reply || !reply.ok) reply = await request({cmd: "join", token});
  if (!reply.ok) { setStatus("Could not join: " + reply.error); return; }
  if (reply.rejoin) sessionStorage.setItem(key, reply.rejoin);
  stopWatching();
  leaveReplay();
  stopPolling();
  enterGame(reply);
}

function enterGame(reply) {
  if (reply.view.game !== $("game-select").value && gameInfo(reply.view.game)) {  // a joined game: the form names it
    $("game-select").value = reply.view.game;
    fillGameFields();
  }
  ui.game = reply.game;
  ui.sides = reply.sides;
  ui.humans = Object.keys(reply.sides).filter((s) => reply.sides[s] === "front end");
  ui.spectator = reply.side === "spectator";
  ui.friendGame = Object.values(reply.sides).includes("friend");
  ui.eventsTotal = 0; ui.playedTotal = 0; ui.inspect = null; ui.record = null; ui.view = null;
  $("log").innerHTML = "";
  $("watch").hidden = ui.humans.length > 0 || ui.spectator;
  $("controls").hidden = ui.spectator;
  const ws = $("watch-side");
  ws.innerHTML = "";
  for (const s of reply.view.sides) ws.appendChild(el("option", {value: s}, s));
  ws.value = reply.view.side;
  const link = (token, kind) => token ? `${location.origin}/?${kind}=${encodeURIComponent(token)}` : "";
  $("join-link").value = link(reply.join, "join");
  $("watch-link").value = link(reply.watch, "watch");
  $("join-link").parentElement.hidden = !reply.join;
  $("watch-link").parentElement.hidden = !reply.watch;
  $("links").hidden = !(reply.join || reply.watch);
  const other = Object.keys(reply.sides).filter((s) => reply.sides[s] === "friend");
  const role = ui.spectator ? "spectator" : (ui.friendGame ? (reply.rejoin ? "friend" : "host") : "");
  document.body.dataset.role = role;
  $("friend-bar").hidden = !role;
  $("friend-bar").textContent = ui.spectator ? "Spectating: you see what both sides may see, and nothing either side keeps secret."
    : `You play ${ui.humans.join(", ")}; your friend plays ${other.join(", ")}${role === "host" ? " (once they open your link)" : ""}.`;
  show(reply);
  if (ui.friendGame || ui.spectator) ui.pollTimer = setInterval(poll, POLL_MS);
}

function stopPolling() {
  if (ui.pollTimer) { clearInterval(ui.pollTimer); ui.pollTimer = null; }
}

// What a poll compares: anything on the page that the other side's moves may change.
function signature(v) {
  return JSON.stringify([v.decision, v.your_turn, v.terminal, v.result, v.undo_asked, v.can_undo, v.takebacks, v.score_text, v.board]);
}

async function poll() {
  if (ui.busy || ui.polling || !ui.game || ui.replay || !ui.view) return;
  ui.polling = true;
  try {
    const game = ui.game;
    const reply = await request({cmd: "view", game, ...since()});
    if (game !== ui.game) return;
    if (!reply.ok) { stopPolling(); setStatus("The game is gone: " + reply.error); return; }
    const v = reply.view;
    if (v.takebacks !== ui.view.takebacks) { await fullRefresh({cmd: "view", game}); return; }
    if ((v.events || []).length || (v.played || []).length || signature(v) !== ui.sig) show(reply);
    if (v.terminal) stopPolling();
  } finally { ui.polling = false; }
}

// ---------------------------------------------------------------- rendering a live view
function show(reply) {
  if (!reply.ok) { setStatus("Error: " + reply.error); return; }
  const v = reply.view;
  const fresh = v.events_from === 0 && (v.played_from || 0) === 0;
  if (!fresh && ui.view && v.takebacks !== ui.view.takebacks) { fullRefresh({cmd: "view", game: ui.game, side: ui.spectator ? undefined : v.side}); return; }
  // what this page holds already (a poll's reply and a move's may overlap) is not logged twice
  const events = (v.events || []).filter((e) => fresh || e.index >= ui.eventsTotal);
  const played = (v.played || []).filter((p) => fresh || p.index >= ui.playedTotal);
  if (fresh) $("log").innerHTML = "";
  appendLog($("log"), events, fresh ? 0 : ui.eventsTotal, played, fresh ? 0 : ui.playedTotal);
  ui.view = v;
  ui.sig = signature(v);
  ui.eventsTotal = v.events_total;
  ui.playedTotal = v.played_total;
  const title = gameTitle(v.game);
  if (v.terminal) {
    const r = v.result || {};
    setStatus(`Game over: ${r.winner ? r.winner + " wins" : "draw"}${r.reason && r.reason !== "game over" ? " (" + r.reason + ")" : ""} — ${title}`);
  } else {
    const d = v.decision;
    const who = v.your_turn ? `You (${v.side}) decide` : `${d.side} decides`;
    const practice = v.practice ? " (practice game)" : (ui.spectator ? " (spectating)" : "");
    setStatus(`${title}${practice} — turn ${v.turn} — ${who}: ${words(d.kind)}`);
  }
  const hot = ui.humans.length > 1;
  $("hotseat").hidden = !hot;
  if (hot) $("hotseat").textContent = v.terminal ? "Hot seat: the game is over." : `Hot seat: ${v.side}'s view — ${v.your_turn ? v.side + " to play" : "waiting for " + v.decision.side}`;
  document.body.dataset.terminal = v.terminal ? "1" : "0";
  document.body.dataset.yourTurn = v.your_turn ? "1" : "0";
  document.body.dataset.decisions = String(v.decisions);
  document.body.dataset.kind = v.decision ? v.decision.kind : "";
  document.body.dataset.side = v.side;
  document.body.dataset.undoAsked = v.undo_asked || "";
  $("text-view").textContent = v.text;
  drawPrompt(v);
  drawPanels(v);
  drawBoard(v);
  $("save-button").disabled = ui.spectator || (ui.friendGame && !v.terminal);  // a friend game's record waits for its end
  $("replay-button").hidden = !v.terminal || ui.spectator;
  $("undo-button").textContent = ui.friendGame ? "Ask to take back" : "Undo";
  $("undo-button").disabled = !v.can_undo || (ui.friendGame && v.undo_asked === v.side);
  drawTakeback(v);
  const humanTurn = !v.terminal && ui.humans.includes(v.side);
  $("resign-button").disabled = !humanTurn;
  $("pass-all-button").disabled = !humanTurn;
  $("pass-all-button").textContent = (v.pass_all || []).includes(v.side) ? "Passing all reactions this turn" : "Pass all reactions this turn";
}

// A friend game's takeback: asked by one side, agreed or declined by the other.
function drawTakeback(v) {
  const asked = ui.friendGame && !v.terminal ? v.undo_asked : null;
  $("takeback").hidden = !asked;
  if (!asked) return;
  const mine = asked === v.side;
  $("takeback-text").textContent = mine ? "You asked to take back your last decision: waiting for your friend's answer."
    : `${asked} asks to take back their last decision.`;
  $("takeback-agree").hidden = mine;
  $("takeback-decline").hidden = mine;
}

// After a reply: in hot seat, the page turns to the side that decides next.
async function followTheMover() {
  const v = ui.view;
  if (!v || v.terminal || ui.humans.length < 2 || !v.decision) return;
  const next = v.decision.side;
  if (next !== v.side && ui.humans.includes(next)) {
    await fullRefresh({cmd: "view", game: ui.game, side: next});
  }
}

function contextWords(ctx) {
  return Object.entries(ctx || {}).filter(([k]) => k !== "turn").map(([k, x]) => `${words(k)}: ${Array.isArray(x) ? x.join(", ") : x}`);
}

function drawPrompt(v) {
  const actions = $("actions");
  actions.innerHTML = "";
  $("unit-actions").innerHTML = "";
  $("preview").innerHTML = "";
  const dialog = $("reaction");
  if (!v.your_turn) {
    const bots = Object.keys(v.bots || {});
    const next = v.decision ? v.decision.side : "";
    const waiting = bots.includes(next) ? `Waiting for ${next} (bot)...`
      : (ui.friendGame ? `Waiting for your friend (${next})...` : "Waiting for the other side...");
    $("prompt").textContent = v.terminal || ui.replay ? "" : (ui.spectator ? "Spectating." : (ui.humans.length ? waiting : "Watching."));
    if (dialog.open) dialog.close();
    return;
  }
  const bits = contextWords(v.decision.context);
  const onBoard = new Set((v.board.units || []).map((u) => u.id));
  const spatialEntry = (l) => l.hex || l.point || (l.unit && onBoard.has(l.unit));
  const spatial = v.legal.filter(spatialEntry).length;
  $("prompt").textContent = bits.join("; ") + (spatial ? " — click a highlighted " + (v.board.type === "hexmap" ? "hex or unit" : "point or unit") : "");
  const unitButtons = v.legal.filter((l) => l.unit && onBoard.has(l.unit));
  if (!v.decision.reaction) {  // a reaction's choices are in its dialog
    for (const l of v.legal) if (!spatialEntry(l)) actions.appendChild(actionButton(l));
    if (unitButtons.length <= 24) for (const l of unitButtons) $("unit-actions").appendChild(actionButton(l, true));
  }
  $("preview").innerHTML = previewTable(v.legal);
  if (v.decision.reaction) {
    $("prompt").textContent = spatial ? "Choose in the dialog, or click a highlighted " + (v.board.type === "hexmap" ? "hex or unit" : "point or unit") : "";
    $("reaction-title").textContent = `${v.side}: ${words(v.decision.kind)}`;
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

function actionButton(l, small) {
  const b = el("button", {type: "button", class: small ? "action unit-action" : "action", title: l.action}, l.label);
  b.dataset.action = l.action;
  b.onclick = () => play(l.action);
  return b;
}

// The odds of every choice that has a preview, in one table (escaped: labels are ours, but ids travel).
function previewTable(legal) {
  const rows = legal.filter((l) => l.preview);
  if (!rows.length) return "";
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  const name = (l) => esc(l.unit || l.hex || l.action);
  const p0 = rows[0].preview;
  if ("odds" in p0) {  // Strike Force One: the Combat Results Table
    const body = rows.map((l) => {
      const p = l.preview;
      const odds = p.odds ? ["DE", "DR", "AR", "AE"].map((r) => `<td>${pct(p.odds[r])}</td>`).join("") : `<td colspan="4">no column: not allowed</td>`;
      return `<tr><td>${name(l)}</td><td>${p.attackers} vs ${p.defense}</td><td>${p.differential >= 0 ? "+" : ""}${p.differential}</td>${odds}</tr>`;
    });
    return `<table class="odds"><tr><th>attack</th><th>units vs defense</th><th>diff.</th><th title="Defender Eliminated">DE</th><th title="Defender Retreats">DR</th><th title="Attacker Retreats">AR</th><th title="Attacker Eliminated">AE</th></tr>${body.join("")}<caption>Combat Results Table odds on one die${legal.some((l) => l.action !== "resolve" && l.preview) && legal[0].hex ? "; a target's row: with every unit that may join" : ""}</caption></table>`;
  }
  if ("expected_unsaved" in p0) {  // FUBAR: hits and saves
    const body = rows.map((l) => {
      const p = l.preview;
      return `<tr><td>${name(l)}</td><td>${p.dice}</td><td>${p.need}+ (${pct(p.p_hit)})</td><td>${p.save ? p.save + "+ (" + pct(p.p_save) + ")" : "none"}</td><td>${p.expected_hits.toFixed(2)}</td><td>${p.expected_unsaved.toFixed(2)}</td><td>${pct(p.p_any)}</td></tr>`;
    });
    return `<table class="odds"><tr><th>target</th><th>dice</th><th>to hit</th><th>save</th><th>exp. hits</th><th>exp. unsaved</th><th>P(≥1)</th></tr>${body.join("")}</table>`;
  }
  const body = rows.map((l) => {  // Force on Force: firepower against defence
    const p = l.preview;
    return `<tr><td>${name(l)}</td><td>${p.firepower}d${p.attack_die}</td><td>${p.defense}d${p.defense_die}</td><td>${p.expected_casualties.toFixed(2)}</td><td>${pct(p.p_any)}</td></tr>`;
  });
  return `<table class="odds"><tr><th>target</th><th>firepower</th><th>defense</th><th>exp. casualties</th><th>P(≥1)</th></tr>${body.join("")}</table>`;
}

// ---------------------------------------------------------------- side panels
function drawPanels(v) {
  const elim = (v.board.eliminated || []).length ? `; eliminated: ${v.board.eliminated.join(", ")}` : "";
  $("score").textContent = (v.score_text || "") + elim;
  const vic = $("victory");
  vic.innerHTML = "";
  for (const line of v.victory || []) vic.appendChild(el("li", {}, line));
  $("victory-box").hidden = !(v.victory || []).length;
  drawHand(v);
  drawLegend(v);
  drawInspect(v);
}

function drawHand(v) {
  const fow = v.board.fog_of_war;
  const box = $("hand");
  box.hidden = !fow;
  if (!fow) return;
  box.innerHTML = "";
  box.appendChild(el("h3", {}, "Fog of War cards"));
  if (fow.hands) {
    for (const [side, hand] of Object.entries(fow.hands)) box.appendChild(el("div", {class: "hand-line"}, `${side}'s hand: ${hand.length ? hand.join(", ") : "no card"}`));
  } else {
    const hand = fow.hand_titles || fow.hand || [];
    box.appendChild(el("div", {class: "hand-line", id: "own-hand"}, `Your hand (${v.side}): ${hand.length ? hand.join(", ") : "no card"}`));
    box.appendChild(el("div", {}, `The enemy holds ${fow.enemy_hand} card(s).`));
  }
  const extra = [`deck: ${fow.deck} card(s)`];
  if ((fow.discards || []).length) extra.push(`discards: ${fow.discards.map(words).join(", ")}`);
  if (fow.grounded) extra.push("You're Grounded! in play (no air assets, Optimum Range 6\")");
  box.appendChild(el("div", {}, extra.join("; ")));
}

function swatch(kind, fill, stroke) {
  const s = document.createElementNS(SVGNS, "svg");
  s.setAttribute("viewBox", "0 0 18 18");
  const shape = kind === "square" ? svg("rect", {x: 2, y: 2, width: 14, height: 14, rx: 2}, s)
    : kind === "line" ? svg("line", {x1: 1, y1: 9, x2: 17, y2: 9}, s)
    : kind === "ring" ? svg("circle", {cx: 9, cy: 9, r: 6}, s) : svg("circle", {cx: 9, cy: 9, r: 7}, s);
  if (kind === "line" || kind === "ring") { shape.setAttribute("stroke", stroke || fill); shape.setAttribute("stroke-width", 3); shape.setAttribute("fill", "none"); }
  else { shape.setAttribute("fill", fill); shape.setAttribute("stroke", stroke || "#111"); }
  return s;
}

function legendItem(box, sw, text) {
  const item = el("span", {class: "item"});
  if (sw) item.appendChild(sw);
  item.append(text);
  box.appendChild(item);
}

function drawLegend(v) {
  const box = $("legend");
  box.innerHTML = "";
  const b = v.board;
  const colours = v.colours || {};
  for (const side of v.sides) legendItem(box, swatch(b.type === "hexmap" ? "square" : "disc", colours[side] || "#888"), side);
  if (b.type === "hexmap") {
    legendItem(box, swatch("square", "#e8e4c9", "#6e685a"), "clear");
    legendItem(box, swatch("square", "#c4bcaa", "#6e685a"), "town (T: victory hex)");
    legendItem(box, swatch("square", "#6c8f4e", "#6e685a"), "woods");
    legendItem(box, swatch("ring", "none", "#d00"), "attack target");
    legendItem(box, swatch("ring", "none", "#f08c14"), "attacking hex");
  } else if (b.type === "table") {
    const kinds = new Set((b.features || []).map((f) => featureClass(f)));
    for (const k of ["woods", "building", "stream_bank", "position", "wall", "other"]) {
      if (!kinds.has(k)) continue;
      const fill = {woods: "#7aa35a", building: "#8a8078", stream_bank: "#9cc3d6", position: "#c8b27a", other: "#bbb"}[k];
      legendItem(box, k === "wall" ? swatch("line", "#5a4a3a") : swatch("square", fill, "#666"), FEATURE_WORDS[k]);
    }
    legendItem(box, null, "number on a counter: figures able to fight");
    if ((b.units || []).some((u) => u.vehicle)) legendItem(box, swatch("square", "#777"), "vehicle");
    legendItem(box, swatch("disc", "#999"), "faded with ✕: out of action");
    if ((b.markers || []).some((m) => m.kind === "pilot") || /lost_and_found/.test(v.game)) legendItem(box, swatch("square", "#ffd84a"), "Pilot: the downed pilot on his own");
    const pilot = (b.markers || []).some((m) => m.kind === "pilot") || (b.units || []).some((u) => (u.status || []).includes("pilot"));
    const family = v.game.startsWith("fubar") ? ["on_guard", "gone_to_ground", "duck_weave", "stunned", "immobilised", "engaged"] : ["hidden", "pinned", "overwatch"];
    if (pilot || /lost_and_found/.test(v.game)) family.push("pilot");
    for (const s of family) if (!(ui.spectator && s === "hidden")) legendItem(box, null, `${BADGES[s][0]}: ${BADGES[s][1]}`);
    legendItem(box, swatch("ring", "none", "#1e90ff"), "selected unit: its range, and the enemies it sees");
  }
  if (ui.replay) legendItem(box, swatch("line", "#d81b60"), "the last decision: what it chose, the moves it made");
  else if (!ui.spectator) legendItem(box, swatch("ring", "none", "#ffb000"), "can be chosen now");
}

function drawInspect(v) {
  const box = $("inspect");
  const u = inspected(v);
  box.hidden = !u;
  if (!u) return;
  box.innerHTML = "";
  box.appendChild(el("h3", {}, `${u.name || u.id} (${u.id}, ${u.side})`));
  const where = u.hex ? `in hex ${u.hex}` : `at ${u.point}`;
  const figs = u.figures ? "; figures: " + Object.entries(u.figures).map(([s, n]) => `${words(s)} ${n}`).join(", ") : "";
  box.appendChild(el("div", {}, where + figs + (u.status && u.status.length ? "; " + u.status.map(words).join(", ") : "")));
  if (u.optimum_range) box.appendChild(el("div", {}, `Optimum range ${u.optimum_range}" (its troop quality; the dashed ring)`));
  if (u.range) box.appendChild(el("div", {}, `Longest weapon range ${u.range}" (the dashed ring)`));
  if (u.sees) box.appendChild(el("div", {}, u.sees.length ? "In line of sight: " + u.sees.map((s) => `${s.unit} at ${s.range}"`).join(", ") : "No enemy in line of sight."));
}

function inspected(v) {
  const units = v.board.units || [];
  return units.find((u) => u.id === ui.inspect) || units.find((u) => u.focus && u.side === v.side) || null;
}

// ---------------------------------------------------------------- the board
function svg(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, x] of Object.entries(attrs || {})) e.setAttribute(k, x);
  if (parent) parent.appendChild(e);
  return e;
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
  board.setAttribute("class", v.board.type);
  if (v.board.type === "hexmap") drawHexmap(board, v);
  else if (v.board.type === "table") drawTable(board, v);
  else { board.setAttribute("viewBox", "0 0 720 720"); const t = svg("text", {x: 10, y: 20}, board); t.textContent = "(text view only: see below)"; }
}

function arrowDefs(board, size) {
  const defs = svg("defs", {}, board);
  const m = svg("marker", {id: "arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: size, markerHeight: size, orient: "auto-start-reverse"}, defs);
  svg("path", {d: "M 0 0 L 10 5 L 0 10 z", fill: "#d81b60"}, m);
}

function clickUnit(u, l) {
  return (ev) => {
    ev.stopPropagation();
    if (l) { play(l.action); return; }
    ui.inspect = ui.inspect === u.id ? null : u.id;  // a counter without a choice: show its range and sight
    redraw();
  };
}

function redraw() {
  if (ui.replay) renderReplay(); else if (ui.view) { drawPanels(ui.view); drawBoard(ui.view); }
}

function drawHexmap(board, v) {
  const S = 40, b = v.board;
  const xs = b.hexes.map((h) => h.x), ys = b.hexes.map((h) => h.y);
  const pad = S * 1.2;
  const minX = Math.min(...xs) * S - pad, minY = Math.min(...ys) * S - pad;
  const w = (Math.max(...xs) - Math.min(...xs)) * S + 2 * pad, h = (Math.max(...ys) - Math.min(...ys)) * S + 2 * pad;
  board.setAttribute("viewBox", `${minX} ${minY} ${w} ${h}`);
  arrowDefs(board, 4);
  const byHex = legalBy(v, "hex"), byUnit = legalBy(v, "unit");
  const centre = {};
  const colours = v.colours || {};
  for (const hx of b.hexes) {
    const cx = hx.x * S, cy = hx.y * S;
    centre[hx.id] = [cx, cy];
    const pts = [0, 1, 2, 3, 4, 5].map((k) => `${cx + S * Math.cos(k * Math.PI / 3)},${cy + S * Math.sin(k * Math.PI / 3)}`).join(" ");
    const l = byHex.get(hx.id);
    const unitOnly = l && l.unit;
    const poly = svg("polygon", {points: pts, class: `hex ${hx.terrain}${l && !unitOnly ? " legal" : ""}`, "data-hex": hx.id}, board);
    if (l && !unitOnly) { poly.dataset.action = l.action; poly.onclick = () => play(l.action); svg("title", {}, poly).textContent = l.label; }
    else poly.onclick = () => { if (ui.inspect) { ui.inspect = null; redraw(); } };
    svg("text", {x: cx - 13, y: cy - S * 0.55, class: "hex-name"}, board).textContent = hx.id + (hx.terrain === "town" ? " T" : "");
  }
  for (const m of b.markers) {
    const [cx, cy] = centre[m.hex];
    svg("circle", {cx, cy, r: S * 0.78, class: `marker ${m.kind}`}, board);
  }
  const stacks = {};
  for (const u of b.units) (stacks[u.hex] = stacks[u.hex] || []).push(u);
  const chosen = inspected(v);
  for (const [hex, units] of Object.entries(stacks)) {  // a stack side by side, smaller when three or more
    const [cx, cy] = centre[hex];
    const k = units.length, size = k >= 3 ? 19 : 26, gap = 3;
    const x0 = cx - (k * size + (k - 1) * gap) / 2;
    units.forEach((u, i) => {
      const x = x0 + i * (size + gap), y = cy - size / 2 + 4;
      const hexLegal = byHex.get(u.hex);
      const l = byUnit.get(u.id) || (hexLegal && !hexLegal.unit ? hexLegal : undefined);  // a unit on a legal hex
      const cls = `counter ${u.side}${l ? " legal" : ""}${u.focus ? " focus" : ""}${chosen && chosen.id === u.id ? " inspected" : ""}`;
      const rect = svg("rect", {x, y, width: size, height: size, rx: 3, class: cls, fill: colours[u.side] || "#777", "data-unit": u.id}, board);
      if (l) rect.dataset.action = l.action;
      rect.onclick = clickUnit(u, l);
      svg("title", {}, rect).textContent = `${u.name || u.id} (${u.id}) in ${u.hex}${l ? ": " + l.label : ""}`;
      svg("text", {x: x + size / 2, y: y + size / 2, class: "counter-label", "font-size": size * 0.54}, board).textContent = u.label;
    });
  }
  drawLast(board, v, (name) => centre[name], S * 0.55);
}

function featureClass(f) {
  if (f.segment) return "wall";
  if (["woods", "building", "stream_bank"].includes(f.kind)) return f.kind;
  if (/position|fortification/.test(f.kind)) return "position";
  return "other";
}

function pointXY(name) {
  const m = /^x(\d+(?:\.\d+)?)y(\d+(?:\.\d+)?)$/.exec(name || "");
  return m ? [parseFloat(m[1]), parseFloat(m[2])] : null;
}

// Where each unit of a table is drawn: alone on its point, or fanned out around it.
function fanOut(units) {
  const at = {};
  for (const u of units) (at[u.point] = at[u.point] || []).push(u);
  const out = new Map();
  for (const group of Object.values(at)) {
    const k = group.length;
    const r = k === 1 ? 0 : (k === 2 ? 1.08 : 1.08 / Math.sin(Math.PI / k));
    group.forEach((u, i) => {
      const a = -Math.PI / 2 + 2 * Math.PI * i / k;
      out.set(u.id, [u.x + r * Math.cos(a), u.y + r * Math.sin(a), k]);
    });
  }
  return out;
}

function drawTable(board, v) {
  const b = v.board;
  const m = 1.5;
  board.setAttribute("viewBox", `${-m} ${-m} ${b.width + 2 * m} ${b.height + 2 * m}`);
  arrowDefs(board, 3);
  const bg = svg("rect", {x: 0, y: 0, width: b.width, height: b.height, class: "table-bg"}, board);
  bg.onclick = () => { if (ui.inspect) { ui.inspect = null; redraw(); } };
  for (const f of b.features) {
    const cls = featureClass(f);
    if (f.rect) {
      const [x0, y0, x1, y1] = f.rect;
      const r = svg("rect", {x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: `feature ${cls}`}, board);
      svg("title", {}, r).textContent = `${f.id} (${words(f.kind)})`;
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
    svg("title", {}, c).textContent = l.label;
  }
  for (const mk of b.markers) {
    if (mk.kind === "pilot") {
      const r = svg("rect", {x: mk.x - 1.1, y: mk.y - 0.6, width: 2.2, height: 1.2, rx: 0.2, class: "pilot"}, board);
      svg("title", {}, r).textContent = "the downed pilot, on his own";
      svg("text", {x: mk.x, y: mk.y, class: "badge", "font-size": 0.7}, board).textContent = "Pilot";
    } else {
      svg("circle", {cx: mk.x, cy: mk.y, r: 0.35, class: mk.kind}, board);
    }
  }
  const colours = v.colours || {};
  const place = fanOut(b.units);
  const chosen = inspected(v);
  if (chosen) {  // its range and the enemies in its line of sight, under the counters
    const [cx, cy] = place.get(chosen.id);
    const ring = chosen.optimum_range || chosen.range;
    if (ring) svg("circle", {cx: chosen.x, cy: chosen.y, r: ring, class: "range-ring"}, board);
    for (const s of chosen.sees || []) {
      const t = b.units.find((u) => u.id === s.unit);
      if (!t) continue;
      const [tx, ty] = place.get(t.id);
      svg("line", {x1: cx, y1: cy, x2: tx, y2: ty, class: "sight"}, board);
      svg("text", {x: (cx + tx) / 2, y: (cy + ty) / 2 - 0.2, class: "sight-label"}, board).textContent = `${s.range}"`;
    }
  }
  for (const u of b.units) {
    const [x, y, k] = place.get(u.id);
    if (k > 1) { svg("line", {x1: u.x, y1: u.y, x2: x, y2: y, class: "stack-line"}, board); svg("circle", {cx: u.x, cy: u.y, r: 0.2, class: "stack-dot"}, board); }
    const pointLegal = byPoint.get(u.point);
    const l = byUnit.get(u.id) || (pointLegal && !pointLegal.unit ? pointLegal : undefined);  // a unit on a legal point
    const st = u.status || [];
    const out = u.out_of_action || u.effective === 0;
    const cls = `token ${u.side} side${v.sides.indexOf(u.side)}${l ? " legal" : ""}${u.focus ? " focus" : ""}${st.includes("pinned") ? " pinned" : ""}${out ? " out" : ""}${chosen && chosen.id === u.id ? " inspected" : ""}`;
    const fill = colours[u.side] || "#777";
    const c = u.vehicle  // a vehicle is a square, a unit of figures a disc
      ? svg("rect", {x: x - 1.0, y: y - 1.0, width: 2.0, height: 2.0, rx: 0.3, class: cls, fill, "data-unit": u.id}, board)
      : svg("circle", {cx: x, cy: y, r: 1.0, class: cls, fill, "data-unit": u.id}, board);
    if (l) c.dataset.action = l.action;
    c.onclick = clickUnit(u, l);
    const figs = Object.entries(u.figures).map(([s, n]) => `${words(s)} ${n}`).join(", ");
    svg("title", {}, c).textContent = `${u.name || u.id} (${u.id}) at ${u.point}: ${figs}${st.length ? " — " + st.map(words).join(", ") : ""}${out ? " — out of action" : ""}${l ? "\n" + l.label : "\n(click: its range and sight)"}`;
    const label = String(u.label);
    const size = Math.min(0.8, 1.7 / (0.62 * Math.max(1, label.length)));
    svg("text", {x, y: y - 0.15, class: "token-label", "font-size": size}, board).textContent = label;
    const badges = st.filter((s) => BADGES[s]).map((s) => BADGES[s][0]);
    svg("text", {x, y: y + 0.58, class: "token-label", "font-size": 0.5}, board).textContent = [String(u.effective), ...badges].join(" ");
    if (out) { svg("line", {x1: x - 0.7, y1: y - 0.7, x2: x + 0.7, y2: y + 0.7, class: "out-cross"}, board); svg("line", {x1: x - 0.7, y1: y + 0.7, x2: x + 0.7, y2: y - 0.7, class: "out-cross"}, board); }
  }
  drawLast(board, v, (name) => {
    const u = b.units.find((x) => x.id === name);
    return u ? place.get(u.id) : pointXY(name);
  }, 1.3);
}

// The replay's last decision: what it pointed at (a ring) and the moves it caused (arrows).
function drawLast(board, v, where, r) {
  const last = v.last;
  if (!last) return;
  for (const mv of last.moves || []) {
    const a = where(mv.from), z = where(mv.to);
    if (a && z) svg("line", {x1: a[0], y1: a[1], x2: z[0], y2: z[1], class: "last-move", "marker-end": "url(#arrow)"}, board);
    else if (z) svg("circle", {cx: z[0], cy: z[1], r, class: "last-ring"}, board);
  }
  const target = last.hex || last.point || last.unit;
  const at = target && (where(last.unit) || where(last.hex) || where(last.point));
  if (at) svg("circle", {cx: at[0], cy: at[1], r, class: "last-ring", "data-last": target}, board);
}

// One log: events and decisions in the order they happened (a decision sits before the events
// its side had been told of after it: its ``events_before``).
function appendLog(log, events, eventsFrom, played, playedFrom) {
  const items = [];
  events.forEach((e, i) => items.push({at: e.index !== undefined ? e.index : eventsFrom + i, ord: 1, i, e}));
  played.forEach((p, i) => items.push({at: Math.max(p.events_before || 0, eventsFrom), ord: 0, i, p}));
  items.sort((a, b) => a.at - b.at || a.ord - b.ord || a.i - b.i);
  const frag = document.createDocumentFragment();
  for (const it of items) {
    const li = document.createElement("li");
    if (it.p) {
      const p = it.p;
      li.className = "move";
      li.textContent = `[${p.side}${p.by === "human" || p.by === "record" ? "" : " " + p.by}] ${p.kind}: ${p.action}`;
    } else {
      const e = it.e;
      if (e.kind === "dice_rolled") { li.className = "dice"; li.textContent = `  d${e.sides} = ${e.value} (${e.purpose})`; }
      else li.textContent = e.text || e.kind;
    }
    frag.appendChild(li);
  }
  log.appendChild(frag);
  log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------- commands
function since() { return {since: ui.eventsTotal, played_since: ui.playedTotal}; }

async function play(action) {
  if (ui.busy || ui.replay || !ui.view || !ui.view.your_turn) return;
  ui.busy = true;
  document.body.dataset.busy = "1";
  try {
    const reply = await request({cmd: "play", game: ui.game, action, side: ui.view.side, ...since()});
    if (reply.ok) { ui.inspect = null; show(reply); await followTheMover(); } else setStatus("Not played: " + reply.error);
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

async function finishedRecord() {
  if (ui.record) return ui.record;
  const reply = await request({cmd: "save", game: ui.game});
  if (!reply.ok) { setStatus("Error: " + reply.error); return null; }
  ui.record = reply.record || null;
  return ui.record;
}

// ---------------------------------------------------------------- the replay viewer
async function openReplayFrom(responsePromise, record) {
  setStatus("Loading the replay...");
  let data;
  try {
    const response = await responsePromise;
    data = await response.json();
  } catch (err) {
    setStatus("Error: the replay could not be loaded (" + err + ")");
    return;
  }
  if (!data.ok) { setStatus("Error: " + data.error); return; }
  ui.replayRecord = record || null;
  openReplay(data.replay);
}

function postRecord(text) {
  return fetch("/replay", {method: "POST", body: text, headers: {"Content-Type": "application/json"}});
}

function openReplay(r) {
  stopWatching();
  stopReplayTimer();
  ui.replay = r;
  ui.viewer = r.viewers[0];
  ui.inspect = null;
  document.body.dataset.mode = "replay";
  $("reaction").open && $("reaction").close();
  for (const id of ["controls", "watch", "actions", "unit-actions", "preview", "prompt", "hotseat"]) $(id).hidden = true;
  $("replay").hidden = false;
  $("replay-title").textContent = `Replay: ${r.title} — ${r.decisions} decisions — ` + (r.finished ? resultWords(r.result) : "not finished (each side's view only)");
  const vs = $("replay-viewer");
  vs.innerHTML = "";
  for (const v of r.viewers) vs.appendChild(el("option", {value: v}, v === "umpire" ? "umpire (both sides)" : v));
  vs.value = ui.viewer;
  const ts = $("replay-turn");
  ts.innerHTML = "";
  ts.appendChild(el("option", {value: "0"}, "start"));
  for (const [turn, step] of r.turns) ts.appendChild(el("option", {value: String(step)}, `turn ${turn}`));
  $("continue-button").hidden = r.finished || !ui.replayRecord || !ui.ws;
  buildMoves();
  gotoStep(0);
  document.body.dataset.replay = "1";
}

function resultWords(res) {
  if (!res) return "unfinished";
  return res.winner ? `${res.winner} wins` : "a draw";
}

function leaveReplay() {
  if (!ui.replay) return;
  stopReplayTimer();
  ui.replay = null;
  document.body.dataset.mode = "play";
  document.body.dataset.replay = "0";
  $("replay").hidden = true;
  for (const id of ["controls", "actions", "unit-actions", "preview", "prompt"]) $(id).hidden = false;
}

function buildMoves() {
  const r = ui.replay;
  const list = $("moves");
  list.innerHTML = "";
  let turn = null;
  for (const p of r.by_viewer[ui.viewer].played) {
    if (p.turn !== turn) { turn = p.turn; list.appendChild(el("li", {class: "turn"}, turn === null || turn === undefined ? "set-up" : (turn === 0 ? "set-up (turn 0)" : `turn ${turn}`))); }
    const step = p.step || p.index + 1;  // the frame after the decision
    const li = el("li", {class: "move", "data-step": String(step)}, `${step}. ${p.side}: ${words(p.kind)} ${p.action}`);
    li.onclick = () => gotoStep(step);
    list.appendChild(li);
  }
}

function frameView(r, viewer, k) {
  const f = r.by_viewer[viewer].frames[k];
  return {
    game: r.game, sides: r.sides, side: viewer, colours: r.colours, victory: r.victory || [], turn: f.turn,
    decisions: f.decisions, terminal: f.terminal, result: f.result, score: f.score, score_text: f.score_text,
    decision: f.decision, your_turn: false, legal: [], board: {...r.static, ...f.board}, last: f.last,
  };
}

function gotoStep(k) {
  const r = ui.replay;
  if (!r) return;
  ui.step = Math.max(0, Math.min(r.decisions, k));
  renderReplay();
}

function renderReplay() {
  const r = ui.replay, k = ui.step;
  const v = frameView(r, ui.viewer, k);
  const f = r.by_viewer[ui.viewer].frames[k];
  const book = r.by_viewer[ui.viewer];
  const d = v.decision;
  const where = v.terminal ? `the end: ${resultWords(v.result)}` : `turn ${v.turn}` + (d ? ` — ${d.side} to decide: ${words(d.kind)}` : "");
  setStatus(`${r.title} — decision ${k} of ${r.decisions} — ${where}`);
  $("replay-step").textContent = `${k} / ${r.decisions}`;
  const turnOpts = [...$("replay-turn").options].filter((o) => parseInt(o.value, 10) <= k);
  if (turnOpts.length) $("replay-turn").value = turnOpts[turnOpts.length - 1].value;
  document.body.dataset.step = String(k);
  document.body.dataset.decisions = String(k);
  document.body.dataset.terminal = v.terminal ? "1" : "0";
  document.body.dataset.viewer = ui.viewer;
  const log = $("log");
  log.innerHTML = "";
  appendLog(log, book.events.slice(0, f.events_total), 0, book.played.slice(0, f.played_total), 0);
  for (const li of document.querySelectorAll("#moves li.move")) {
    li.classList.toggle("current", parseInt(li.dataset.step, 10) === k);
  }
  const current = [...document.querySelectorAll("#moves li.move")].filter((li) => parseInt(li.dataset.step, 10) <= k).pop();
  if (current) { current.classList.add("current"); current.scrollIntoView({block: "nearest"}); }
  $("text-view").textContent = "";
  drawPanels(v);
  drawBoard(v);
}

function stopReplayTimer() {
  if (ui.replayTimer) { clearInterval(ui.replayTimer); ui.replayTimer = null; }
  $("replay-play").textContent = "Play";
}

function wireReplay() {
  $("replay-first").onclick = () => gotoStep(0);
  $("replay-prev").onclick = () => gotoStep(ui.step - 1);
  $("replay-next").onclick = () => gotoStep(ui.step + 1);
  $("replay-last").onclick = () => gotoStep(ui.replay.decisions);
  $("replay-turn").onchange = () => gotoStep(parseInt($("replay-turn").value, 10));
  $("replay-viewer").onchange = () => { ui.viewer = $("replay-viewer").value; ui.inspect = null; buildMoves(); renderReplay(); };
  $("replay-play").onclick = () => {
    if (ui.replayTimer) { stopReplayTimer(); return; }
    $("replay-play").textContent = "Pause";
    ui.replayTimer = setInterval(() => { if (ui.step >= ui.replay.decisions) stopReplayTimer(); else gotoStep(ui.step + 1); }, 400);
  };
  $("continue-button").onclick = () => {  // a record that names its seats keeps them; else the form's agents
    let seats = null;
    try { seats = JSON.parse(ui.replayRecord).session?.seats || null; } catch (e) { seats = null; }
    const bots = $("game-select").value === ui.replay.game ? readBots() : {};
    startGame(seats ? {cmd: "load", record: ui.replayRecord} : {cmd: "load", record: ui.replayRecord, bots});
  };
  document.addEventListener("keydown", (ev) => {
    if (!ui.replay || /INPUT|SELECT|TEXTAREA/.test((ev.target || {}).tagName || "")) return;
    const to = {ArrowLeft: ui.step - 1, ArrowRight: ui.step + 1, Home: 0, End: ui.replay.decisions}[ev.key];
    if (to !== undefined) { ev.preventDefault(); gotoStep(to); }
  });
}

// A report's page carries its replay (gzip, base64) and needs no server.
async function staticReplay(node) {
  document.body.classList.add("static-replay");
  let text = node.textContent;
  if (node.dataset.encoding === "gzip-base64") {
    const bytes = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
    text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
  }
  openReplay(JSON.parse(text));
  document.body.dataset.ready = "1";
}

// ---------------------------------------------------------------- wiring
function wire() {
  $("game-select").onchange = fillGameFields;
  $("new-game").onsubmit = (ev) => {
    ev.preventDefault();
    const seed = $("seed").value === "" ? null : parseInt($("seed").value, 10);
    const msg = {cmd: "new", game: $("game-select").value, options: readOptions(), seed, bots: readBots(), practice: $("practice").checked};
    const friend = readFriend();
    if (friend.length > 1) { setStatus("Only one side can be your friend's: the other is 'you'."); return; }
    if (friend.length) Object.assign(msg, {friend: friend[0], spectators: true});
    startGame(msg);
  };
  $("undo-button").onclick = async () => {
    if (ui.friendGame) { await fullRefresh({cmd: "undo", game: ui.game}); return; }  // asks the friend
    await fullRefresh({cmd: "undo", game: ui.game, side: ui.view.side});
    await followTheMover();
  };
  $("takeback-agree").onclick = () => fullRefresh({cmd: "undo", game: ui.game});
  $("takeback-decline").onclick = () => fullRefresh({cmd: "undo", game: ui.game, decline: true});
  $("resign-button").onclick = async () => {
    if (!confirm("Resign this game?")) return;
    show(await request({cmd: "resign", game: ui.game, side: ui.view.side}));
  };
  const passAll = async () => {
    const reply = await request({cmd: "pass_all", game: ui.game, side: ui.view.side});
    if (reply.ok) { await fullRefresh({cmd: "view", game: ui.game, side: ui.view.side}); await followTheMover(); } else setStatus("Error: " + reply.error);
  };
  $("pass-all-button").onclick = passAll;
  $("reaction-pass-all").onclick = passAll;
  $("save-button").onclick = async () => {
    const reply = await request({cmd: "save", game: ui.game});
    if (!reply.ok) { setStatus("Error: " + reply.error); return; }
    $("save-id").value = reply.save_id;
    const link = $("download-record");
    if (reply.record) {
      ui.record = reply.record;
      link.href = URL.createObjectURL(new Blob([reply.record], {type: "application/json"}));
      link.hidden = false;
    } else {
      link.hidden = true;
    }
    setStatus(`Saved as ${reply.save_id}` + (reply.record ? " (record ready to download)" : " (on the server; the record is offered once the game is over)"));
  };
  $("replay-button").onclick = async () => {
    const record = await finishedRecord();
    if (record) openReplayFrom(postRecord(record), record);
  };
  // a saved game keeps its seats (which sides the server's bots play); a record names them too
  $("load-save").onclick = () => startGame({cmd: "load", save_id: $("save-id").value.trim()});
  $("record-file").onchange = (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => { const text = String(reader.result); openReplayFrom(postRecord(text), text); };
    reader.readAsText(file);
    ev.target.value = "";
  };
  $("watch-button").onclick = () => {
    if (ui.watching) { stopWatching(); return; }
    ui.watching = true; $("watch-button").textContent = "Pause"; watchLoop();
  };
  $("speed").oninput = () => { $("speed-label").textContent = $("speed").value + " ms"; };
  $("watch-side").onchange = () => fullRefresh({cmd: "view", game: ui.game, side: $("watch-side").value});
  wireReplay();
}

wire();
const embedded = $("fof-replay-data");
if (embedded) staticReplay(embedded); else connect();
