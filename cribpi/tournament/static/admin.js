// The director's admin page: log in, register players, seat a round, correct a result. Every
// change carries the session's CSRF token in a header; the cookie itself is HttpOnly.
"use strict";
let csrf = null;

async function post(path, data) {
  const r = await fetch(path, { method: "POST", headers: { "content-type": "application/json", "x-csrf-token": csrf || "" },
    body: JSON.stringify(data) });
  const body = await r.json();
  document.getElementById("said").textContent = r.ok ? "done: " + JSON.stringify(body) : "refused: " + body.error;
  return r.ok ? body : null;
}

function form(title, fields, action) {
  const f = el("form", {}, el("h3", {}, title));
  for (const [name, kind, options] of fields) {
    f.append(kind === "select" ? el("select", { name }, ...options.map((o) => el("option", {}, o)))
      : el("input", { name, placeholder: name, type: kind }));
  }
  f.append(el("button", {}, title));
  f.onsubmit = async (e) => { e.preventDefault(); await action(Object.fromEntries(new FormData(f))); };
  return f;
}

async function results() {
  const rows = await (await fetch("/admin/results")).json();
  const t = el("table", {}, el("tr", {}, ...["Id", "Table", "Players", "Score", "Kind", "Status"].map((h) => el("th", {}, h))));
  for (const r of rows) t.append(el("tr", {}, ...[r.id, r.table_id, r.players.join(" v "), r.scores.join("–"), r.kind, r.status].map((v) => el("td", {}, String(v)))));
  return t;
}

async function adminPage() {
  main.replaceChildren(el("p", { id: "said" }),
    form("Register", [["name", "text"]], (d) => post("/admin/players", d)),
    form("Seat a round", [["method", "select", ["swiss", "random", "bracket"]]],
      (d) => post("/admin/rounds", d)),
    form("Correct", [["id", "number"], ["scores", "text"], ["winner", "number"], ["kind", "select", ["win", "skunk", "double_skunk"]], ["margin", "number"], ["why", "text"]],
      (d) => post("/admin/results/" + d.id, { scores: d.scores.split(/[ ,–-]+/).map(Number), winner: +d.winner, kind: d.kind, margin: +d.margin, why: d.why })),
    await results());
}

(async () => {
  const r = await fetch("/admin/session");
  if (r.ok) { csrf = (await r.json()).csrf; return adminPage(); }
  main.replaceChildren(el("p", { id: "said" }), form("Log in", [["password", "password"]], async (d) => {
    const body = await post("/admin/login", d);
    if (body) { csrf = body.csrf; adminPage(); }
  }));
})();
