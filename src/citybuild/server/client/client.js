// The browser client of `citybuild serve`: create a match (and hand out its invite links), join
// one by a link or from the open games, watch one, see your view drawn by the
// server, make moves by clicking what the board highlights (or a labelled button where the board
// cannot show the choice), hear of others' moves by server-sent events. It knows no rule: the
// server's answer says, per legal move, the picture part it is played on and its words. It talks
// only to the server that served it.
"use strict";

const $ = (id) => document.getElementById(id);
const seat = {
  match: null, token: null, seen: -1, turn: false, events: null, pending: 0,
  choices: [], part: null, prefix: [], games: {}, game: null, scored: "", waiting: null,
};

// The page is "busy" while any request is on its way and "ready" when none is (tests wait for it).
function begin() { seat.pending++; document.body.dataset.state = "busy"; }
function end() { seat.pending = Math.max(0, seat.pending - 1); if (!seat.pending) document.body.dataset.state = "ready"; }

async function api(path, options = {}) {
  const headers = Object.assign({}, options.headers || {});
  if (seat.token) headers["Authorization"] = "Bearer " + seat.token;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, Object.assign({}, options, { headers }));
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error ? data.error.message : response.statusText);
    error.data = data;
    throw error;
  }
  return data;
}

function say(text) { $("message").textContent = text || ""; }

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

// --- how to play: the server's short text for each game ---------------------------------------
function howTo(box, game, titled) {
  box.innerHTML = "";
  const entry = seat.games[game];
  const text = entry && entry.how_to_play;
  if (!text) return;
  if (titled) box.appendChild(element("h3", "How to play " + entry.title));
  const parts = [["goal", "The goal"], ["turn", "A turn"], ["click", "Playing here"]];
  for (const [key, title] of parts) {
    box.appendChild(element("h4", title));
    for (const line of text[key] || []) box.appendChild(element("p", line));
  }
}

// --- the lobby -------------------------------------------------------------------------------
async function loadGames() {
  const games = await api("/api/games");
  const select = $("game");
  for (const g of games) {
    seat.games[g.game] = g;
    select.add(new Option(g.title, g.game));
  }
  const chosen = () => {
    const g = seat.games[select.value];
    $("preset").innerHTML = "";
    for (const p of g.presets) $("preset").add(new Option(p, p));
    howTo($("lobby-howto"), select.value, true);
  };
  select.addEventListener("change", chosen);
  chosen();
}

function ruleOptions() {
  const typed = JSON.parse($("rule-options").value || "{}");
  const first = $("first-game").checked ? seat.games[$("game").value].first_game || {} : {};
  return Object.assign({}, first, typed);
}

async function create() {
  say("");
  let options;
  try { options = ruleOptions(); } catch (e) { say("rule options: not JSON"); return; }
  const players = parseInt($("players").value, 10);
  const bots = {};
  if ($("bots").value) for (let s = 1; s < players; s++) bots[String(s)] = $("bots").value;
  const body = { game: $("game").value, preset: $("preset").value, players, options, bots, open: $("open").checked };
  if ($("seed").value.trim()) body.seed = parseInt($("seed").value, 10);
  begin();
  try {
    const made = await api("/api/matches", { method: "POST", body: JSON.stringify(body) });
    keep(made.id, made.token);
    shareLinks(made);
    join(made.id, made.token);
  } catch (e) {
    say(e.message);
  }
  end();
}

// --- seats: a token is read from a link once, kept in this browser, and never shown ----------
const KEY = "citybuild-seat:";
function keep(match, token) {
  try { sessionStorage.setItem(KEY + match, token); localStorage.setItem(KEY + match, token); } catch (e) { /* private mode */ }
}
function kept(match) {
  try { return sessionStorage.getItem(KEY + match) || localStorage.getItem(KEY + match); } catch (e) { return null; }
}

function link(params) { return location.origin + "/#" + new URLSearchParams(params).toString(); }

async function copy(text, button) {
  try { await navigator.clipboard.writeText(text); button.textContent = "Copied"; } catch (e) { button.textContent = "Copy failed: select the link"; }
}

function shareRow(box, label, url, shown) {
  const row = element("div", undefined, "share");
  row.appendChild(element("span", label + " "));
  if (shown) { const a = element("a", url); a.href = url; a.target = "_blank"; row.appendChild(a); }
  const button = element("button", shown ? "Copy" : "Copy " + label.toLowerCase(), "copy");
  button.addEventListener("click", () => copy(url, button));
  row.appendChild(button);
  box.appendChild(row);
}

// The links a new match hands out: one invite per other human seat (each lets one player take
// that seat, once), the watchers' link, and this seat's own link, copied but never shown.
function shareLinks(made) {
  const box = $("seats");
  box.innerHTML = "";
  const invites = Object.entries(made.invites || {});
  box.open = invites.length > 0;
  box.appendChild(element("summary", invites.length
    ? "Invite links: send each to one player (each works once)"
    : "Links: to watch, and your own seat's"));
  for (const [s, code] of invites) shareRow(box, "P" + s + ":", link({ match: made.id, invite: code }), true);
  shareRow(box, "Watch:", link({ match: made.id, watch: "1" }), true);
  if (made.token) shareRow(box, "My seat link", link({ match: made.id, token: made.token }), false);
  box.classList.remove("hidden");
}

async function redeem(match, invite, seatNumber) {
  say("");
  begin();
  try {
    const body = invite ? { invite } : seatNumber === undefined ? {} : { seat: seatNumber };
    const joined = await api("/api/matches/" + match + "/join", { method: "POST", body: JSON.stringify(body) });
    keep(match, joined.token);
    shareLinks({ id: match, invites: {}, token: joined.token });
    join(match, joined.token);
  } catch (e) {
    history.replaceState(null, "", location.pathname); // a used invite stays out of the address bar too
    say(e.message);
    listOpen();
  }
  end();
}

// --- open games: listed by the server, joined by a click --------------------------------------
async function listOpen() {
  const box = $("open-list");
  begin();
  try {
    const matches = await api("/api/matches?open=1");
    box.innerHTML = "";
    if (!matches.length) box.appendChild(element("li", "No open game right now: start one and tick 'open'."));
    for (const m of matches) {
      const title = seat.games[m.game] ? seat.games[m.game].title : m.game;
      const item = element("li", title + " (" + m.preset + "), " + m.players + " players, free: " +
        m.free.map((p) => "P" + p).join(", ") + " ", "open-match");
      item.dataset.match = m.id;
      const take = element("button", "Join", "take");
      take.addEventListener("click", () => redeem(m.id, null));
      const watch = element("button", "Watch", "watch");
      watch.addEventListener("click", () => join(m.id, null));
      item.append(take, watch);
      box.appendChild(item);
    }
  } catch (e) {
    say(e.message);
  }
  end();
}

function join(match, token) {
  seat.match = match;
  seat.token = token || null;
  seat.seen = -1;
  seat.turn = false;
  seat.part = null;
  seat.prefix = [];
  seat.scored = "";
  // the address names the match only: the token stays in this browser's storage
  history.replaceState(null, "", "#match=" + encodeURIComponent(match) + (token ? "" : "&watch=1"));
  $("lobby").classList.add("hidden");
  $("table").classList.remove("hidden");
  $("rematch").classList.add("hidden");
  listen();
  refresh();
}

// --- a rematch: the same seats, each with its token ------------------------------------------
async function rematch() {
  say("");
  begin();
  try {
    const made = await api("/api/matches/" + seat.match + "/rematch", { method: "POST" });
    keep(made.id, seat.token);
    if (Object.keys(made.invites || {}).length) shareLinks({ id: made.id, invites: made.invites, token: seat.token });
    join(made.id, seat.token);
  } catch (e) {
    say(e.message);
  }
  end();
}

// A finished game's seats hear of a rematch another asked for (the event stream has ended).
function watchForRematch() {
  if (seat.waiting) return;
  const match = seat.match;
  seat.waiting = setInterval(async () => {
    if (seat.match !== match) { clearInterval(seat.waiting); seat.waiting = null; return; }
    try {
      const view = await api("/api/matches/" + match + "/view");
      if (view.rematch) { clearInterval(seat.waiting); seat.waiting = null; rematchOffer(view); }
    } catch (e) { /* try again */ }
  }, 3000);
}

function rematchOffer(view) {
  const button = $("rematch");
  button.textContent = view.rematch ? "Join the rematch" : "Rematch: the same seats again";
  button.classList.toggle("hidden", view.seat === null || !view.over);
  if (view.over && view.seat !== null && !view.rematch) watchForRematch();
}

// --- the table -------------------------------------------------------------------------------
function listen() {
  if (seat.events) seat.events.close();
  seat.events = new EventSource("/api/matches/" + seat.match + "/events");
  seat.events.addEventListener("moves", (e) => {
    const news = JSON.parse(e.data);
    if (news.moves < seat.seen) seat.seen = -1; // a seat took moves back: the match is shorter now
    if (news.moves !== seat.seen) refresh();
    if (news.over) seat.events.close();
  });
}

async function refresh() {
  begin();
  try {
    show(await api("/api/matches/" + seat.match + "/view?picture=true"));
  } catch (e) {
    say(e.message);
  }
  end();
}

function who(view, p) {
  if (p === view.seat) return "P" + p + " (you)";
  const sitting = view.seats ? view.seats[p] : "human";
  return sitting === "human" ? "P" + p : "P" + p + " (computer)";
}

function statusText(view) {
  if (view.over) {
    const winners = view.scores ? view.scores.winners.map((p) => "P" + p).join(", ") : "";
    return "game over; winners: " + winners;
  }
  if (view.your_turn) return "your turn";
  return "waiting for " + view.to_act.map((p) => who(view, p)).join(", ");
}

// Draw a view, unless one as new is drawn already (answers may arrive out of order).
function show(view) {
  if (view.moves <= seat.seen) return;
  const keep = view.your_turn && seat.turn; // others moved while all choose at once: a half-made move stays
  seat.turn = view.your_turn;
  seat.seen = view.moves;
  seat.choices = view.over ? [] : view.choices || [];
  if (!keep || !offered().length) { seat.part = null; seat.prefix = []; }
  if (seat.game !== view.game) { seat.game = view.game; howTo($("howto-text"), view.game); }
  $("howto-title").textContent = seat.games[view.game] ? seat.games[view.game].title : view.game;
  $("title").textContent = (seat.games[view.game] ? seat.games[view.game].title : view.game) + " (" + view.preset +
    "), " + view.players + " players, match " + view.match + (view.seat === null ? ", watching" : ", you are P" + view.seat);
  $("status").textContent = statusText(view);
  $("picture").innerHTML = view.picture ||
    "<p>(this game's secrets cannot be drawn face down, so watchers see no picture while it is on)</p>";
  scores(view);
  story(view.log || [], view.over && view.scores ? view.scores.text.split("\n") : null);
  // Fair play: the server says whether this seat may take its last move back (never past a card
  // or roll it was shown, nor past another's secret choice of the same round).
  $("undo").classList.toggle("hidden", !view.can_undo || view.over);
  rematchOffer(view);
  $("turn").classList.toggle("hidden", !(view.your_turn && !view.over));
  $("typed").classList.toggle("hidden", !(view.your_turn && !view.over));
  offer();
}

function scores(view) {
  const table = $("score-table");
  table.innerHTML = "";
  const head = element("tr");
  head.append(element("th", "player"), element("th", "points"));
  table.appendChild(head);
  const totals = view.scores ? view.scores.totals : [];
  for (let p = 0; p < view.players; p++) {
    const row = element("tr");
    const points = totals[p] === null || totals[p] === undefined ? "not shown to you" : String(totals[p]);
    row.append(element("td", who(view, p)), element("td", points, "points"));
    table.appendChild(row);
  }
  $("sheet").textContent = view.scores ? view.scores.text : "(hidden until the end)";
}

// The latest steps in words, as this seat saw them: the computer players' moves, secret choices
// by their kind, each round and each score as it happens; the latest scoring also stands out.
// Once the game is over, the latest scoring is the final one: the whole score sheet.
function story(lines, final) {
  const log = $("log");
  log.innerHTML = "";
  let latest = [];
  let run = [];
  for (const line of lines) {
    const scoring = line.startsWith("scores:") || line.startsWith("totals:") || line.startsWith("winners:");
    const kind = line.startsWith("round ") ? "round" : scoring ? "score" : line.startsWith("chance") ? "chance" : "";
    log.appendChild(element("li", line.replace(/\s+/g, " "), kind));
    if (scoring) run.push(line.replace(/^scores:\s*/, "").replace(/\s+/g, " "));
    else if (run.length) { latest = run; run = []; }
  }
  if (run.length) latest = run;
  if (final) latest = final;
  $("scored-title").textContent = final ? "Final scoring" : "Latest scoring";
  log.scrollTop = log.scrollHeight;
  const box = $("scored");
  const text = latest.join("\n");
  box.classList.toggle("hidden", !latest.length);
  if (text !== seat.scored) {
    $("scored-lines").innerHTML = "";
    for (const line of latest) $("scored-lines").appendChild(element("li", line));
    box.classList.remove("fresh");
    void box.offsetWidth; // restart the flash
    if (seat.scored !== "" || latest.length) box.classList.add("fresh");
    seat.scored = text;
  }
}

// --- making a move: a part of the board, then (if several moves share it) a labelled choice ---
function startsWith(path, prefix) { return prefix.every((label, i) => path[i] === label); }

function offered() {
  return seat.choices.filter((c) => c.part === seat.part && startsWith(c.path, seat.prefix));
}

function offer() {
  const parts = new Set(seat.choices.filter((c) => c.part !== null).map((c) => c.part));
  for (const shape of $("picture").querySelectorAll("[data-part]")) {
    const legal = parts.has(shape.dataset.part);
    shape.classList.toggle("legal", legal);
    shape.classList.toggle("picked", seat.part !== null && shape.dataset.part === seat.part);
    tooltip(shape, legal ? seat.choices.filter((c) => c.part === shape.dataset.part).map((c) => c.path.join(": ")) : []);
  }
  const box = $("choices");
  box.innerHTML = "";
  let list = offered();
  let depth = seat.prefix.length;
  const crumbs = seat.prefix.slice();
  // a step that every move left shares is a heading, not a question
  while (list.length > 1 && list.every((c) => c.path.length > depth + 1 && c.path[depth] === list[0].path[depth])) {
    crumbs.push(list[0].path[depth]);
    depth++;
  }
  $("crumbs").textContent = crumbs.join(" › ");
  const labels = [...new Set(list.map((c) => c.path[depth]))];
  for (const label of labels) {
    const button = element("button", label, "choice");
    button.addEventListener("click", () => pick(list.filter((c) => c.path[depth] === label), crumbs.concat([label])));
    box.appendChild(button);
  }
  let prompt = "Choose one:";
  if (seat.part !== null) prompt = "Several moves there: choose one, or start again.";
  else if (parts.size && labels.length) prompt = "Click a green outline on the board, or choose below.";
  else if (parts.size) prompt = "Click a green outline on the board.";
  $("prompt").textContent = prompt;
  $("back").classList.toggle("hidden", seat.part === null && !seat.prefix.length);
}

// What a click on a part does, shown when the pointer rests on it (an SVG title of its own).
function tooltip(shape, lines) {
  let title = shape.querySelector(":scope > title.moves");
  if (!lines.length) { if (title) title.remove(); return; }
  if (!title) {
    title = document.createElementNS(shape.namespaceURI, "title");
    title.classList.add("moves");
    shape.prepend(title);
  }
  title.textContent = lines.slice(0, 8).join("\n") + (lines.length > 8 ? "\n…" : "");
}

function pick(matching, path) {
  if (matching.length === 1) { send(matching[0].move); return; }
  seat.prefix = path;
  offer();
}

function clickBoard(event) {
  const shape = event.target.closest("[data-part]");
  if (!shape || !shape.classList.contains("legal")) return;
  const part = shape.dataset.part;
  const there = seat.choices.filter((c) => c.part === part);
  if (there.length === 1) { send(there[0].move); return; }
  seat.part = part;
  seat.prefix = [];
  offer();
}

async function send(move) {
  say("");
  begin();
  try {
    const view = await api("/api/matches/" + seat.match + "/moves?picture=true", {
      method: "POST",
      body: JSON.stringify({ move, moves: seat.seen }),
    });
    seat.turn = false; // a move made: what comes next starts from nothing
    show(view);
  } catch (e) {
    const error = e.data && e.data.error;
    let text = e.message;
    if (error && error.violations) text = error.violations.map((v) => v.message + " [" + v.rule + "]").join("\n");
    say("refused: " + text);
    seat.part = null; // a refused move was chosen in a position that has moved on (or was mistyped)
    seat.prefix = [];
    offer();
  }
  end();
}

async function undo() {
  say("");
  begin();
  try {
    const view = await api("/api/matches/" + seat.match + "/undo?picture=true", { method: "POST" });
    seat.turn = false;
    seat.seen = -1; // the match went back: the view after the undo has fewer moves than the last one drawn
    show(view);
    say("your last move was taken back");
  } catch (e) {
    say(e.message);
  }
  end();
}

// --- wiring ----------------------------------------------------------------------------------
$("create").addEventListener("click", create);
$("join").addEventListener("click", joinForm);
$("open-refresh").addEventListener("click", listOpen);
$("rematch").addEventListener("click", rematch);

// The join form takes a link (invite, seat or watch) or a match id with a seat token.
function joinForm() {
  const text = $("join-match").value.trim();
  const token = $("join-token").value.trim();
  $("join-token").value = "";
  if (text.includes("#")) { location.hash = text.slice(text.indexOf("#")); return; }
  if (token) keep(text, token);
  join(text, token || null);
}
$("back").addEventListener("click", () => { seat.part = null; seat.prefix = []; offer(); });
$("picture").addEventListener("click", clickBoard);
$("send").addEventListener("click", () => send($("move-text").value.trim()));
$("undo").addEventListener("click", undo);

// The page follows its address: a link pasted into the address bar joins that match. A token or
// invite in the address is read once, kept in this browser, and taken out of the address.
function follow() {
  const params = new URLSearchParams(location.hash.slice(1));
  const match = params.get("match");
  if (!match) return false;
  const invite = params.get("invite");
  if (invite) {
    history.replaceState(null, "", "#match=" + encodeURIComponent(match));
    redeem(match, invite);
    return true;
  }
  let token = params.get("token");
  if (token) keep(match, token);
  else token = params.get("watch") ? null : kept(match);
  if (match !== seat.match || (token || null) !== seat.token) join(match, token);
  else history.replaceState(null, "", "#match=" + encodeURIComponent(match) + (token ? "" : "&watch=1"));
  return true;
}
window.addEventListener("hashchange", () => { say(""); follow(); });

(async () => {
  await loadGames();
  if (!follow()) { await listOpen(); document.body.dataset.state = "ready"; }
})();
