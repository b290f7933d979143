// The seat page of a cribpi table (docs/phones.md). Every name and word from the table is set
// as text (textContent), never as HTML. The state always comes from the table: on load, on the
// live stream, and fetched again when the phone comes back (a locked screen, the network back),
// when the table refuses a key as stale, and when the stream's ping names a newer version. A
// state older than the one shown (a fetch answered late) is never drawn over it.
"use strict";
const RANKS = "A23456789TJQK", SUITS = "SHDC", GLYPH = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
const watching = location.pathname === "/watch";
let state = null, stream = null;
let heard = Date.now(), every = 15, retrying = null;  // the stream's last word, and its ping's interval (s)
const $ = (id) => document.getElementById(id);
const seatKey = () => "cribpi-seat";

function held() {
  try { return JSON.parse(sessionStorage.getItem(seatKey()) || "null"); } catch (e) { return null; }
}
function hold(value) {
  if (value) sessionStorage.setItem(seatKey(), JSON.stringify(value)); else sessionStorage.removeItem(seatKey());
}
function text(el, words) { el.textContent = words == null ? "" : String(words); }

function drawBoard(s) {
  const board = $("board");
  board.replaceChildren();
  s.tracks.forEach((t, i) => {
    const row = document.createElement("div"); row.className = "track";
    const dot = document.createElement("span"); dot.className = "swatch"; dot.style.background = s.colours[i] || "#888";
    const name = document.createElement("span"); text(name, `${t.name} ${t.front}`);
    const bar = document.createElement("span"); bar.className = "bar";
    for (const [cls, at] of [["peg rear", t.rear], ["peg", t.front]]) {
      const peg = document.createElement("span"); peg.className = cls;
      peg.style.left = `${Math.min(100, at / (s.length || 121) * 100)}%`; peg.style.background = s.colours[i] || "#888";
      bar.append(peg);
    }
    row.append(dot, name, bar); board.append(row);
  });
}

function setKey(button, key) {
  button.disabled = !key.on;
  button.title = key.on ? "" : key.why;
}

function drawPad(s, seat) {
  const keys = s.keys[String(seat)];
  if (!keys) return;
  text($("who"), `${s.names[seat]} (seat ${seat + 1})`);
  text($("why"), keys.card.on ? "your card" : keys.card.why);
  for (const b of $("cards").querySelectorAll("button")) setKey(b, keys.card);
  for (const id of ["go", "ok", "undo", "muggins", "confirm", "dispute"]) {
    setKey($(id), keys[id === "dispute" ? "confirm" : id]);
  }
  setKey($("claim"), keys.claim);
  // what each key that is off waits for, said once each (a phone has no hover for a title)
  const said = new Map();
  for (const [label, key] of [["GO", keys.go], ["OK", keys.ok], ["UNDO", keys.undo], ["Claim", keys.claim]]) {
    if (!key.on && key.why && key.why !== keys.card.why) said.set(key.why, [...(said.get(key.why) || []), label]);
  }
  text($("keywhy"), [...said].map(([why, labels]) => `${labels.join(", ")}: ${why}`).join("\n"));
  $("muggins").hidden = $("mpoints").hidden = !s.muggins;
}

function older(s) {
  return state && s.epoch === state.epoch && s.version < state.version;
}

function draw(s) {
  if (older(s)) return;  // the table's newer state is shown already
  state = s;
  drawBoard(s);
  text($("count"), s.count == null ? "" : `count ${s.count}`);
  text($("turn"), s.turn_name ? `${s.turn_name} to play` : s.waiting);
  text($("starter"), s.starter ? `starter ${s.starter}` : "");
  text($("last"), s.last_score);
  text($("screen"), [s.screen.title, ...s.screen.lines].filter(Boolean).join("\n"));
  text($("alerts"), s.changed_hands ? `${s.changed_hands}'s seat changed phones` : s.alerts.join(" "));
  const mine = held();
  const seated = !watching && mine && mine.game === s.game && s.keys[String(mine.seat)];
  $("join").hidden = watching || !!seated;
  $("pad").hidden = !seated;
  if (seated) drawPad(s, mine.seat); else if (!watching) drawSeats(s);
}

function drawSeats(s) {
  const seats = $("seats");
  seats.replaceChildren();
  for (const seat of s.seats) {
    const b = document.createElement("button");
    text(b, `${seat.name}${seat.taken ? " (has a phone)" : ""}`);
    b.addEventListener("click", () => join(seat.seat, false));
    seats.append(b);
  }
}

async function post(path, body, token) {
  const headers = {"content-type": "application/json"};
  if (token) headers["x-seat-token"] = token;
  const r = await fetch(path, {method: "POST", headers, body: JSON.stringify(body), credentials: "omit"});
  let data = {};
  try { data = await r.json(); } catch (e) { data = {error: `the table answered ${r.status}`}; }
  return [r.status, data];
}

async function join(seat, confirm) {
  const [status, data] = await post("/api/join", {pin: $("pin").value.trim(), seat, confirm});
  if (status === 409 && data.reason === "taken") {
    if (window.confirm(`${state.names[seat]} has a phone already: take the seat over?`)) return join(seat, true);
    return;
  }
  if (status !== 200) { text($("joinmsg"), data.error); return; }
  hold({seat: data.seat, token: data.token, game: data.game});
  text($("joinmsg"), "");
  draw(state);
}

async function act(action) {
  const mine = held();
  if (!mine || !state) return;
  const [status, data] = await post("/api/action", {version: state.version, action}, mine.token);
  if (status === 401) { hold(null); text($("joinmsg"), data.error); if (state) draw(state); return; }
  text($("said"), status === 200 ? "" : data.error);
  // refused on a state the phone has not shown yet (stale: what changed is said above): fetched now
  if (status !== 200 && typeof data.version === "number" && data.version !== state.version) resync();
}

function buildPad() {
  const cards = $("cards");
  for (const suit of SUITS) {
    for (const rank of RANKS) {
      const b = document.createElement("button");
      text(b, `${rank === "T" ? "10" : rank}${GLYPH[suit]}`);
      if (suit === "H" || suit === "D") b.className = "red";
      b.addEventListener("click", () => act(`card ${rank}${suit}`));
      cards.append(b);
    }
  }
  for (const id of ["go", "ok", "undo", "confirm", "dispute"]) $(id).addEventListener("click", () => act($(id).dataset.action));
  $("claim").addEventListener("click", () => act(`claim ${parseInt($("points").value, 10) || 0}`));
  $("muggins").addEventListener("click", () => {
    const mine = held();
    if (mine) act(`muggins ${mine.seat} ${parseInt($("mpoints").value, 10) || 1}`);
  });
  $("leave").addEventListener("click", () => { hold(null); if (state) draw(state); });
}

async function resync() {
  try {
    const r = await fetch("/api/state", {credentials: "omit"});
    if (r.ok) draw(await r.json());
  } catch (e) { /* the stream says it is off */ }
}

function connect() {
  if (stream) stream.close();
  clearTimeout(retrying); retrying = null;
  heard = Date.now();
  stream = new EventSource("/api/events");
  stream.addEventListener("state", (e) => {
    heard = Date.now();
    text($("link"), watching ? "watching" : "live"); $("link").classList.remove("off");
    draw(JSON.parse(e.data));
  });
  stream.addEventListener("ping", (e) => {
    heard = Date.now();
    const ping = JSON.parse(e.data);
    every = ping.every || every;
    if (state && (ping.epoch !== state.epoch || ping.version !== state.version)) resync();  // a push missed
  });
  stream.onerror = () => {
    text($("link"), "reconnecting…"); $("link").classList.add("off");
    // The browser gives a stream up when the table answers it with an error (busy, too many
    // requests): it is opened again a little later, the state fetched with it.
    if (stream.readyState === EventSource.CLOSED && retrying === null) retrying = setTimeout(back, 3000);
  };
}

function back() { connect(); resync(); }

// A stream that has said nothing for more than two pings is dead even if no error came (Wi-Fi
// lost without a word): it is opened again.
setInterval(() => { if (Date.now() - heard > every * 2500) back(); }, 1000);
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") back(); });
window.addEventListener("online", back);
buildPad();
connect();
