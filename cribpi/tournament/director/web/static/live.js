// Live pages: fetch from the JSON API, then follow /events (server-sent events). EventSource
// reconnects by itself; on every (re)connect the page refetches, so nothing missed stays missed.
"use strict";

function el(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const kid of kids) node.append(kid);
  return node;
}

async function api(path) {
  const r = await fetch(path);
  return r.ok ? r.json() : null;
}

// A player's page by query, so any name works: "A/B" would not match a path segment, and a
// browser resolves ".." in a path before asking.
function playerLink(name) {
  return "/player?name=" + encodeURIComponent(name);
}

// How a finished game went for one side, in words: "won", "won by a skunk", "lost, skunked".
function outcome(won, kind) {
  const how = { win: "", skunk: "skunk", double_skunk: "double skunk", lurch: "lurch" }[kind] ?? kind;
  if (won) return how ? `won by a ${how}` : "won";
  return how ? `lost, ${how}ed` : "lost";
}

// An event of several rooms: the rooms out of reach (their link to the director's broker down)
// and since when, beside the connection's mark on every page, as a table is marked offline.
async function showRooms(conn) {
  let box = document.getElementById("rooms");
  if (!box) { box = el("span", { id: "rooms", class: "offline" }); conn.before(box); }
  const rooms = await api("/api/rooms");
  const out = (rooms || []).filter((r) => !r.reachable);
  box.textContent = out.map((r) => `${r.room} out of reach since ${new Date(r.since * 1000).toLocaleTimeString()}`).join(" · ");
}

function follow(refresh, onEvent) {
  const conn = document.getElementById("conn");
  const es = new EventSource("/events");
  es.addEventListener("hello", () => { conn.textContent = "live"; conn.className = "live"; refresh(); showRooms(conn); });
  es.addEventListener("room", () => { showRooms(conn); refresh(); });
  es.addEventListener("table", (e) => onEvent("table", JSON.parse(e.data)));
  es.addEventListener("standings", () => onEvent("standings", null));
  es.addEventListener("seating", () => onEvent("seating", null));
  es.onerror = () => { conn.textContent = "reconnecting…"; conn.className = ""; };
  refresh();
}

function board(live, length) {
  const s = live.state;
  const away = live.reachable === false;  // its room's link to the director is down
  const box = el("div", { class: "board" + (live.online && !away ? "" : " offline"), id: "table-" + live.table });
  const status = s ? s.status + (s.match_games > 1 ? ` · game ${s.game_number}/${s.match_games}` : "") : "waiting";
  const said = away ? `${live.room} out of reach` : live.online ? status : "offline";
  box.append(el("h2", {}, live.table + (live.room ? ` · ${live.room}` : ""), el("span", { class: "status" }, said)));
  if (!s) return box;
  s.players.forEach((name, i) => {
    const side = el("div", { class: "side s" + i },
      el("span", { class: "name" }, (s.dealer === i ? "● " : "") + name),
      el("span", { class: "score", "data-seat": i }, String(s.scores[i])));
    const bar = el("i", { style: `width:${Math.min(100, (100 * s.scores[i]) / (length || 121))}%` });
    side.append(el("div", { class: "track" }, bar));
    box.append(side);
  });
  const last = s.last ? `${s.players[s.last.seat] || ""} +${s.last.points} ${s.last.reason}${s.last.text ? ": " + s.last.text : ""}` : "";
  box.append(el("div", { class: "last" }, last));
  return box;
}

// The standings from the row after ``offset`` (a leaderboard split in columns): a long name is
// cut short with an ellipsis (its whole name on hover), never pushing the numbers off the screen.
// Plus points (the margins of the games won, the ACC's fourth tie-breaker) after the spread;
// a phone leaves that column out (the player's page shows it).
function standingsTable(rows, cut, offset = 0) {
  const heads = ["#", "Player", "Games", "Won", "Points", "Spread", "Plus"];
  const t = el("table", { class: "standings" }, el("tr", {}, ...heads.map((h, i) => el("th", { class: i === 1 ? "name" : i === 6 ? "plus" : "" }, h))));
  rows.forEach((r, i) => {
    const name = el("a", { href: playerLink(r.name), title: r.name }, r.name);
    t.append(el("tr", { class: offset + i + 1 === cut ? "cut" : "" }, el("td", {}, r.rank === null ? "–" : String(r.rank)), el("td", { class: "name" }, name),
      el("td", {}, String(r.games)), el("td", {}, String(r.won)), el("td", {}, String(r.points)),
      el("td", {}, (r.spread > 0 ? "+" : "") + r.spread), el("td", { class: "plus" }, String(r.plus))));
  });
  return t;
}
