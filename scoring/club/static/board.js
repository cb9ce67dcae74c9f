// The club's board and a table's page: filled from /api/club/board (or the table's games) every second.
"use strict";

const REFRESH_MS = 1000;
let words = {};
let language = "en";

function say(key, values = {}) {
  let text = words[key] || key;
  for (const [k, v] of Object.entries(values)) text = text.replace(`{${k}}`, v);
  return text;
}

function plural(key, n) {
  const form = new Intl.PluralRules(language).select(n);
  return say(form === "one" && words[`${key}_one`] ? `${key}_one` : key, {n: number(n)});
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function number(n) {
  return new Intl.NumberFormat(language).format(n);
}

function link(href, text) {
  const query = new URLSearchParams(location.search).get("lang");
  return el("a", {href: query ? `${href}?lang=${encodeURIComponent(query)}` : href}, text);
}

function tableCard(table, live) {
  const card = el("article", {class: `table ${table.online ? "online" : "offline"}`, "data-table": table.name});
  const state = el("span", {class: "state"}, say(table.online ? "online" : "offline"));
  card.append(el("h3", {}, link(`/tables/${encodeURIComponent(table.name)}`, table.name), " ", state));
  const totals = table.totals || {};
  const sides = Object.keys(totals);
  if (!sides.length) card.append(el("p", {class: "quiet"}, say("no_game")));
  else {
    const list = el("dl", {class: "totals"});
    for (const side of sides) list.append(el("dt", {}, side), el("dd", {}, number(totals[side])));
    card.append(list, el("p", {class: "quiet"}, plural("hands", table.hands ?? 0)));
    if (table.winner) card.append(el("p", {class: "winner"}, say("winner", {name: table.winner})));
  }
  if (live && live.sides) {
    const km = live.sides.map((s) => `${s.side} ${say("km", {n: number(s.km ?? 0)})}`).join(" · ");
    card.append(el("p", {class: "live"}, `${say("live_hand")}: ${km}`));
  }
  return card;
}

function standingsTable(rows) {
  const body = el("tbody");
  for (const row of rows) {
    body.append(el("tr", {}, el("td", {}, row.name), el("td", {}, number(row.games)), el("td", {}, number(row.wins)),
      el("td", {}, number(row.points))));
  }
  const head = el("tr", {}, ...["name", "played", "won", "points"].map((k) => el("th", {scope: "col"}, say(k))));
  return el("table", {class: "standings"}, el("thead", {}, head), body);
}

function latestList(hands) {
  if (!hands.length) return el("p", {class: "quiet"}, say("no_hands"));
  const list = el("ol", {class: "latest"});
  for (const h of hands) {
    const points = Object.entries(h.points || {}).map(([side, p]) => `${side} ${number(p)}`).join(" · ");
    list.append(el("li", {}, el("strong", {}, h.table), ` ${say("hand", {n: h.hand})}: ${points}`));
  }
  return list;
}

function renderBoard(data) {
  const main = document.getElementById("board");
  const status = el("p", {class: `broker ${data.broker ? "up" : "down"}`}, say(data.broker ? "broker_up" : "broker_down"));
  const grid = el("div", {class: "tables"});
  for (const t of data.tables) grid.append(tableCard(t, data.live[t.name]));
  if (!data.tables.length) grid.append(el("p", {class: "quiet"}, say("no_tables")));
  main.replaceChildren(
    el("header", {}, el("h1", {}, `${say("title")} · ${data.club}`), status, link("/organise", say("organise"))),
    el("section", {class: "grid-tables", "aria-label": say("tables")}, el("h2", {}, say("tables")), grid),
    el("section", {class: "side"}, el("h2", {}, say("standings")), standingsTable(data.standings),
      el("h2", {}, say("latest")), latestList(data.latest),
      el("p", {class: "quiet"}, `${say("export")}: `, link("/api/club/export.csv", "CSV"), " · ",
        link("/api/club/export.json", "JSON"))));
}

function renderTable(name, games, live) {
  const main = document.getElementById("board");
  const blocks = [];
  for (const game of games.slice().reverse()) {
    const sides = game.sides;
    const head = el("tr", {}, el("th", {scope: "col"}, ""), ...sides.map((s) => el("th", {scope: "col"}, s)));
    const body = el("tbody");
    game.hand_points.forEach((points, i) => {
      body.append(el("tr", {}, el("th", {scope: "row"}, say("hand", {n: i + 1})),
        ...sides.map((s) => el("td", {}, number(points[s])))));
    });
    body.append(el("tr", {class: "total"}, el("th", {scope: "row"}, say("total")),
      ...sides.map((s) => el("td", {}, number(game.totals[s])))));
    const sheet = link(`/api/club/tables/${encodeURIComponent(name)}/games/${game.id}/sheet.pdf`, say("sheet"));
    const title = el("h2", {}, say("game", {n: game.id}), " ", el("small", {class: "quiet"}, sheet));
    blocks.push(el("section", {class: "game"}, title, el("table", {class: "hands"}, el("thead", {}, head), body),
      game.winner ? el("p", {class: "winner"}, say("winner", {name: game.winner})) : ""));
  }
  const liveText = live && live.sides
    ? live.sides.map((s) => `${s.side} ${say("km", {n: number(s.km ?? 0)})}`).join(" · ") : "";
  main.replaceChildren(el("header", {}, el("h1", {}, say("table_title", {name})), link("/", say("back"))),
    liveText ? el("p", {class: "live"}, `${say("live_hand")}: ${liveText}`) : "",
    ...(blocks.length ? blocks : [el("p", {class: "quiet"}, say("no_game"))]));
}

async function refresh() {
  const page = document.body.dataset.page;
  try {
    if (page === "board") {
      const answer = await fetch("/api/club/board");
      if (answer.ok) renderBoard(await answer.json());
    } else {
      const name = document.body.dataset.table;
      const [games, board] = await Promise.all([fetch(`/api/club/tables/${encodeURIComponent(name)}/games`),
        fetch("/api/club/board")]);
      const live = board.ok ? (await board.json()).live[name] : null;
      if (games.ok) renderTable(name, await games.json(), live);
      else renderTable(name, [], live);
    }
    document.body.dataset.ready = "1";
  } catch (e) {
    // the hub restarting: the next refresh tries again
  }
}

async function start() {
  const lang = new URLSearchParams(location.search).get("lang") || "";
  const answer = await fetch(`/api/club/strings${lang ? `?lang=${encodeURIComponent(lang)}` : ""}`);
  const data = await answer.json();
  words = data.strings;
  language = data.language;
  if (document.body.dataset.page === "organise") {
    await startOrganiser(); // organise.js
    return;
  }
  await refresh();
  setInterval(refresh, REFRESH_MS);
}

start();
