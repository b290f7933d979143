// The director's admin page: log in, register players, seat a round, correct a result, count or
// reject a result kept uncounted. Every change carries the session's CSRF token in a header; the
// cookie itself is HttpOnly.
"use strict";
let csrf = null;

function status(text, live) {
  const conn = document.getElementById("conn");
  conn.textContent = text;
  conn.className = live ? "live" : "";
}

async function post(path, data) {
  const r = await fetch(path, { method: "POST", headers: { "content-type": "application/json", "x-csrf-token": csrf || "" },
    body: JSON.stringify(data) });
  const body = await r.json();
  document.getElementById("said").textContent = r.ok ? "done: " + JSON.stringify(body) : "refused: " + body.error;
  if (r.status === 403 && csrf && body.error.startsWith("log in")) {  // the login expired, or was logged out
    csrf = null;
    status("logged out", false);
  }
  return r.ok ? body : null;
}

function form(title, fields, action) {
  const f = el("form", {}, el("h3", {}, title));
  for (const [name, kind, options] of fields) {
    f.append(kind === "select" ? el("select", { name }, ...options.map((o) => el("option", {}, o)))
      : kind === "textarea" ? el("textarea", { name, placeholder: options, rows: "3" })
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

// The results kept uncounted for the director to rule on (no round seated, players not seated
// there, one game too many, players not registered yet), each with its reason; one kept by id
// can be counted as its table sent it, or rejected (both written to the audit trail).
async function kept(box) {
  const r = await fetch("/admin/kept");
  if (!r.ok) return;
  const { kept: rows } = await r.json();
  const t = el("table", { id: "kept" }, el("tr", {}, ...["Id", "Table", "Round", "Players", "Score", "Status", "Why kept", ""]
    .map((h) => el("th", {}, h))));
  for (const k of rows) {
    const acts = el("td", {});
    if (k.id !== null) {
      for (const [label, path] of [["Count", "count"], ["Reject", "reject"]]) {
        const b = el("button", { type: "button", "data-id": String(k.id) }, label);
        b.onclick = async () => { if (await post(`/admin/results/${k.id}/${path}`, {})) refresh(); };
        acts.append(b);
      }
    }
    t.append(el("tr", { "data-status": k.status }, ...[k.id ?? "", k.table_id, k.round ?? "", k.players.join(" v "),
      k.scores.join("–"), k.status, k.reason].map((v) => el("td", {}, String(v))), acts));
  }
  box.replaceChildren(el("h3", {}, `Kept, not counted (${rows.length})`), rows.length ? t : el("p", {}, "none"));
}

let keptBox = null, resultsBox = null;
async function refresh() {
  if (keptBox) await kept(keptBox);
  if (resultsBox) resultsBox.replaceChildren(await results());
}

// What the director should look at (/api/health's warnings: a clock behind the room's, a table
// whose ids are refused as from the future, a thread of the director's stopped) and what it let
// go, by reason (the tables' messages refused; boards drawn over, a page's stream behind, ...),
// read again every 10 s while the admin page is open.
let watching = null;
function counts(title, counted) {
  const reasons = Object.keys(counted || {}).sort();
  return el("li", {}, title + ": " + (reasons.length ? reasons.map((r) => r + " " + counted[r]).join(", ") : "none"));
}
async function warnings(list, drops) {
  const health = await api("/api/health");
  if (!health) return;
  list.replaceChildren(...health.warnings.map((w) => el("li", {}, w)));
  drops.replaceChildren(counts("Messages refused", health.refused), counts("Dropped", health.drops));
}

async function adminPage() {
  status("logged in", true);
  const out = el("button", { type: "button" }, "Log out");
  out.onclick = async () => { if (await post("/admin/logout", {})) { csrf = null; status("logged out", false); loginPage(); } };
  const warned = el("ul", { id: "warnings", class: "warnings" });
  const dropped = el("ul", { id: "drops" });
  clearInterval(watching);
  watching = setInterval(() => warnings(warned, dropped), 10000);
  warnings(warned, dropped);
  main.replaceChildren(warned, dropped, el("p", { id: "said" }), out,
    form("Register", [["name", "text"]], (d) => post("/admin/players", d)),
    form("Withdraw", [["name", "text"], ["again", "select", ["withdraws", "plays again"]]],
      (d) => post("/admin/players/withdraw", { name: d.name, withdrawn: d.again === "withdraws" })),
    form("Rename", [["name", "text"], ["new", "text"]], (d) => post("/admin/players/rename", d)),
    // A tie at the cut is refused with the tied players' names; after their one-game playoff
    // the director gives their order here, one name a line (a name may hold a comma).
    form("Close qualifying", [["order", "textarea", "only for a tie at the cut: the tied players, best first, one a line"]],
      (d) => {
        const order = d.order.split("\n").map((n) => n.trim()).filter((n) => n);
        return post("/admin/qualifying/close", order.length ? { order } : {});
      }),
    form("Seat a round", [["method", "select", ["swiss", "random", "bracket"]], ["games", "number"]],
      (d) => post("/admin/rounds", d.games ? { method: d.method, games: +d.games } : { method: d.method })),
    form("Correct", [["id", "number"], ["scores", "text"], ["winner", "number"], ["kind", "select", ["win", "skunk", "double_skunk"]], ["margin", "number"], ["why", "text"]],
      (d) => post("/admin/results/" + d.id, { scores: d.scores.split(/[ ,–-]+/).map(Number), winner: +d.winner, kind: d.kind, margin: +d.margin, why: d.why })),
    keptBox = el("section", { id: "kept-results" }), resultsBox = el("section", {}, await results()));
  await kept(keptBox);
}

function loginPage() {
  clearInterval(watching);
  status("not logged in", false);
  main.replaceChildren(el("p", { id: "said" }), form("Log in", [["password", "password"]], async (d) => {
    const body = await post("/admin/login", d);
    if (body) { csrf = body.csrf; adminPage(); }
  }));
}

(async () => {
  const r = await fetch("/admin/session");
  if (r.ok) { csrf = (await r.json()).csrf; return adminPage(); }
  loginPage();
})();
