// The browser client of `citybuild serve`: create or join a match, see your view drawn by the
// server, make moves by clicking through the move builder, hear of others' moves by server-sent
// events. It talks only to the server that served it.
"use strict";

const $ = (id) => document.getElementById(id);
const seat = { match: null, token: null, chosen: [], move: null, seen: -1, turn: false, events: null, ticket: 0, pending: 0 };

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

// --- the lobby -------------------------------------------------------------------------------
async function loadGames() {
  const games = await api("/api/games");
  const select = $("game");
  for (const g of games) {
    const option = new Option(g.title + " (" + g.game + ")", g.game);
    option.dataset.presets = JSON.stringify(g.presets);
    select.add(option);
  }
  const presets = () => {
    $("preset").innerHTML = "";
    for (const p of JSON.parse(select.selectedOptions[0].dataset.presets)) $("preset").add(new Option(p, p));
  };
  select.addEventListener("change", presets);
  presets();
}

async function create() {
  say("");
  let options;
  try { options = JSON.parse($("rule-options").value || "{}"); } catch (e) { say("rule options: not JSON"); return; }
  const players = parseInt($("players").value, 10);
  const bots = {};
  if ($("bots").value) for (let s = 1; s < players; s++) bots[String(s)] = $("bots").value;
  begin();
  try {
    const made = await api("/api/matches", {
      method: "POST",
      body: JSON.stringify({ game: $("game").value, preset: $("preset").value, players, options, bots }),
    });
    const links = $("seats");
    links.innerHTML = "<h3>Seats</h3>";
    for (const [s, token] of Object.entries(made.tokens)) {
      const a = document.createElement("a");
      a.href = "#match=" + made.id + "&token=" + token;
      a.textContent = "seat " + s + ": " + location.origin + "/" + a.getAttribute("href");
      links.appendChild(a);
    }
    links.classList.remove("hidden");
    const first = Object.entries(made.tokens)[0];
    join(made.id, first ? first[1] : null);
  } catch (e) {
    say(e.message);
  }
  end();
}

function join(match, token) {
  seat.match = match;
  seat.token = token || null;
  seat.chosen = [];
  seat.seen = -1;
  seat.turn = false;
  history.replaceState(null, "", "#match=" + match + (token ? "&token=" + token : ""));
  $("lobby").classList.add("hidden");
  $("table").classList.remove("hidden");
  listen();
  refresh();
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

// Draw a view, unless one as new is drawn already (answers may arrive out of order).
function show(view) {
  if (view.moves <= seat.seen) return;
  // Others moving while all choose at once leaves a half-made move as it was (the server refuses
  // it, and the builder starts again, if it no longer fits).
  if (!(view.your_turn && seat.turn)) seat.chosen = [];
  seat.turn = view.your_turn;
  seat.seen = view.moves;
  $("title").textContent = view.game + " (" + view.preset + "), " + view.players + " players, match " + view.match +
    (view.seat === null ? ", watching" : ", you are P" + view.seat);
  if (view.over) {
    const winners = view.scores ? view.scores.winners.map((p) => "P" + p).join(", ") : "";
    $("status").textContent = "game over; winners: " + winners;
  } else if (view.your_turn) {
    $("status").textContent = "your turn";
  } else {
    $("status").textContent = "waiting for " + view.to_act.map((p) => "P" + p).join(", ");
  }
  $("picture").innerHTML = view.picture || "<p>(no picture for watchers while the game is on)</p>";
  $("sheet").textContent = view.scores ? view.scores.text : "(hidden until the end)";
  // The latest steps in words, as this seat saw them: the bots' moves, secret choices by their kind,
  // each round and each score as it happens.
  const log = $("log");
  log.textContent = (view.log || []).join("\n");
  log.scrollTop = log.scrollHeight;
  // Fair play: the server says whether this seat may take its last move back (never past a card
  // or roll it was shown, nor past another's secret choice of the same round).
  $("undo").classList.toggle("hidden", !view.can_undo || view.over);
  const acting = view.your_turn && !view.over;
  $("builder").classList.toggle("hidden", !acting);
  $("typed").classList.toggle("hidden", !acting);
  if (acting) build();
}

// Offer the move builder's options after the decisions chosen so far (only the newest answer counts).
async function build() {
  const ticket = ++seat.ticket;
  begin();
  try {
    const b = await api("/api/matches/" + seat.match + "/builder?chosen=" + seat.chosen.join(","));
    if (ticket !== seat.ticket) return;
    $("chosen").textContent = b.steps.join(", ") || "(choose)";
    const box = $("options");
    box.innerHTML = "";
    for (const o of b.options) {
      const button = document.createElement("button");
      button.textContent = o.name;
      button.dataset.action = o.action;
      button.addEventListener("click", () => { seat.chosen.push(o.action); build(); });
      box.appendChild(button);
    }
    seat.move = b.done ? b.move : null;
    $("play").textContent = b.done ? "Play " + b.move : "Play";
    $("play").classList.toggle("hidden", !b.done);
  } catch (e) {
    if (ticket !== seat.ticket) return;
    if (seat.chosen.length && e.data && e.data.error && e.data.error.code === "bad-choice") {
      seat.chosen = [];
      build();
      return;
    }
    say(e.message);
  } finally {
    end();
  }
}

async function send(move) {
  say("");
  begin();
  try {
    const view = await api("/api/matches/" + seat.match + "/moves?picture=true", {
      method: "POST",
      body: JSON.stringify({ move, moves: seat.seen }),
    });
    seat.chosen = [];
    seat.turn = false; // a move made: what comes next starts from nothing
    show(view);
  } catch (e) {
    const error = e.data && e.data.error;
    let text = e.message;
    if (error && error.violations) text = error.violations.map((v) => v.message + " [" + v.rule + "]").join("\n");
    say("refused: " + text);
    // A refused move was built for a position that has moved on (or was mistyped): build afresh.
    seat.chosen = [];
    if (seat.turn) build();
  }
  end();
}

async function undo() {
  say("");
  begin();
  try {
    const view = await api("/api/matches/" + seat.match + "/undo?picture=true", { method: "POST" });
    seat.chosen = [];
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
$("join").addEventListener("click", () => join($("join-match").value.trim(), $("join-token").value.trim()));
$("back").addEventListener("click", () => { seat.chosen.pop(); build(); });
$("play").addEventListener("click", () => { if (seat.move) send(seat.move); });
$("send").addEventListener("click", () => send($("move-text").value.trim()));
$("undo").addEventListener("click", undo);

// The page follows its address: a match link pasted into the address bar joins that match.
function follow() {
  const params = new URLSearchParams(location.hash.slice(1));
  const match = params.get("match");
  if (!match) return false;
  if (match !== seat.match || (params.get("token") || null) !== seat.token) join(match, params.get("token"));
  return true;
}
window.addEventListener("hashchange", () => { say(""); follow(); });

(async () => {
  await loadGames();
  if (!follow()) document.body.dataset.state = "ready";
})();
