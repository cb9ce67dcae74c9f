// The organiser's page: start a tournament, seat its next round (drawn, or seeded from the standings), print it.
// Uses say(), el() and link() of board.js; the club's token is kept in this browser once typed.
"use strict";

const TOKEN_KEY = "borne.club.token";

async function organiserCall(path, body) {
  const answer = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json",
    Authorization: `Bearer ${localStorage.getItem(TOKEN_KEY) || ""}`}, body: JSON.stringify(body)});
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const reason = typeof data.detail === "string" ? data.detail : (data.detail?.[0]?.msg || data.message || answer.status);
    throw new Error(say("refused", {reason}));
  }
  return data;
}

function field(label, control) {
  return el("label", {class: "field"}, el("span", {}, label), control);
}

async function startOrganiser() {
  const main = document.getElementById("board");
  const token = el("input", {id: "token", type: "password", autocomplete: "off"});
  token.value = localStorage.getItem(TOKEN_KEY) || "";
  token.addEventListener("change", () => localStorage.setItem(TOKEN_KEY, token.value.trim()));
  const choice = el("select", {id: "tournament"});
  const name = el("input", {id: "tournament-name", maxlength: "80"});
  const players = el("textarea", {id: "players", rows: "10"});
  const perTable = el("input", {id: "per-table", type: "number", min: "2", max: "6", value: "2"});
  const status = el("p", {id: "status", role: "status"});
  const seating = el("div", {id: "seating", class: "seats"});

  async function fill(selected) {
    const list = await (await fetch("/api/club/tournaments")).json();
    choice.replaceChildren(...list.map((t) => el("option", {value: String(t.id)}, `${t.name} · ${plural("rounds", t.rounds)}`)));
    if (selected) choice.value = String(selected);
  }

  async function guarded(work) {
    localStorage.setItem(TOKEN_KEY, token.value.trim());
    status.textContent = "";
    try { await work(); } catch (e) { status.textContent = e.message; }
  }

  const create = el("button", {id: "create", type: "button"}, say("create"));
  create.addEventListener("click", () => guarded(async () => {
    const made = await organiserCall("/api/club/tournaments", {name: name.value.trim()});
    await fill(made.id);
  }));

  function seat(method) {
    return () => guarded(async () => {
      const names = players.value.split("\n").map((p) => p.trim()).filter(Boolean);
      const round = await organiserCall(`/api/club/tournaments/${choice.value}/rounds`,
        {players: names, per_table: Number(perTable.value), method});
      seating.replaceChildren(...round.seating.map((seats, i) => el("section", {class: "seat"},
        el("h2", {}, say("table_n", {n: i + 1})), el("ul", {}, ...seats.map((p) => el("li", {}, p))))));
      status.replaceChildren(link(`/tournaments/${choice.value}/rounds/${round.round}`, say("print")));
      await fill(choice.value);
    });
  }
  const drawn = el("button", {id: "drawn", type: "button"}, say("drawn"));
  drawn.addEventListener("click", seat("drawn"));
  const seeded = el("button", {id: "seeded", type: "button"}, say("seeded"));
  seeded.addEventListener("click", seat("seeded"));

  main.replaceChildren(
    el("header", {}, el("h1", {}, say("organise")), link("/", say("back"))),
    el("section", {class: "organise"}, field(say("token"), token),
      el("div", {class: "row"}, field(say("new_tournament"), name), create),
      field(say("tournament"), choice), field(say("players"), players), field(say("per_table"), perTable),
      el("div", {class: "row"}, drawn, seeded), status),
    el("section", {class: "organise"}, el("h2", {}, say("seat")), seating));
  await fill();
  document.body.dataset.ready = "1";
}
