// The scoring page: a real table's evening scored by the referee. People count what is on the
// table (a tally per player), the referee answers each round's breakdown (/v1/score, with the
// earlier rounds' answers as `previous`) and draws the running totals (/v1/render, draw
// "sheet"). The fields and their bounds come from the contract (the `Tally` schema), so a
// module's counts appear here as the referee learns them. The page keeps the evening; the
// server keeps nothing. Text from the server is always set as text. The page's words are said in
// the chosen language (i18n.js: t, tn), and every request says it (I18N.fetch).
"use strict";

const ROUNDS = 3;
// Parts of a tally Dirk may have (RULES.md §9 and the modules: his buildings, with the treasure
// chamber his chests, with extensions his extensions); he has no wall.
const DIRK_PARTS = ["buildings", "treasure", "extensions"];
// The colours of the building types, as the pictures draw them (service/render/palette.py).
const COLOURS = {
  pavilion: "#8cbbe8", seraglio: "#d9534f", arcades: "#a8743f",
  chambers: "#f3efe6", garden: "#79b865", tower: "#9470c2",
};
// Words for the contract's field names where the name alone says too little (English: the
// catalogue's ids, said in the page's language by `words`).
const WORDS = {
  buildings: "Buildings", wall: "Longest outer wall", animals: "animals on gardens of one kind",
  black_pips: "pips of black dice", second_wall: "second wall", extended: "extended buildings",
  unserved: "buildings without a servant", leftover: "of those, leftover tiles (round 3)",
  chests: "chests", inhabitants: "inhabitants settled",
};

const evening = {
  shape: null,      // {base: [field], modules: {id: [field]}} from the contract
  names: {},        // module id -> name
  seats: [],        // {name, dirk}
  modules: [],      // module ids on
  values: [],       // per seat: {path: count}
  answers: [],      // /v1/score answers of the rounds scored
  bad: [],          // per seat: the paths of the counts the last refusal named
  round: 1,
  seat: 0,
  chartUrl: null,
};

const $ = (id) => document.getElementById(id);

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function words(name) {
  return t(WORDS[name] || name.replace(/_/g, " "));
}

function status(text, isError = false) {
  $("status").removeAttribute("data-i18n");  // a status of its own now, not the page's first
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

async function post(path, body) {
  const response = await I18N.fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.blob();
  return { status: response.status, ok: response.ok, data };
}

// --- the tally's fields, read from the contract ---------------------------------------------

async function loadShape() {
  const contract = await (await I18N.fetch("/schema/openapi.json")).json();
  const schemas = contract.components.schemas;
  const resolve = (s) => (s && s.$ref ? schemas[s.$ref.split("/").pop()] : s);
  const fieldsOf = (properties) => Object.entries(properties).map(([name, prop]) => {
    const target = resolve(prop);
    if (target.type === "object") {
      const types = Object.entries(target.properties).map(([t, p]) => ({ name: t, max: p.maximum }));
      return { name, types };
    }
    return { name, max: target.maximum };
  });
  const base = [];
  const modules = {};
  for (const [name, prop] of Object.entries(schemas.Tally.properties)) {
    if (prop.anyOf) {
      modules[name] = fieldsOf(resolve(prop.anyOf.find((s) => s.$ref)).properties);
    } else {
      base.push(...fieldsOf({ [name]: prop }));
    }
  }
  return { base, modules };
}

// The groups of steppers a seat counts: the base game's fields, then each module's on.
function groupsOf(seat) {
  const groups = [];
  const allowed = (part) => !seat.dirk || DIRK_PARTS.includes(part);
  for (const field of evening.shape.base) {
    if (allowed(field.name)) groups.push({ title: words(field.name), prefix: "", fields: [field] });
  }
  for (const id of evening.modules) {
    const fields = evening.shape.modules[id];
    if (fields && allowed(id)) groups.push({ title: evening.names[id] || id, prefix: `${id}.`, fields });
  }
  return groups;
}

function stepper(seatIndex, path, label, max, colour) {
  const row = element("div", null, "stepper");
  row.dataset.path = path;
  const name = element("label", null, "name");
  if (colour) {
    const swatch = element("span", null, "swatch");
    swatch.style.background = colour;
    name.append(swatch);
  }
  const id = `count-${seatIndex}-${path.replace(/\./g, "-")}`;
  name.htmlFor = id;
  name.append(label);
  const minus = element("button", "\u2212", "minus");
  const plus = element("button", "+", "plus");
  minus.type = plus.type = "button";
  minus.setAttribute("aria-label", t("{count}: one less", { count: label }));
  plus.setAttribute("aria-label", t("{count}: one more", { count: label }));
  const input = element("input");
  input.id = id;
  input.type = "number";
  input.inputMode = "numeric";
  input.min = "0";
  input.max = String(max);
  input.value = String(evening.values[seatIndex][path] || 0);
  const bad = evening.bad[seatIndex];
  if (bad && bad.has(path)) row.classList.add("bad");
  const set = (value) => {
    const n = Math.max(0, Math.min(max, Number.isFinite(value) ? Math.trunc(value) : 0));
    evening.values[seatIndex][path] = n;
    input.value = String(n);
    row.classList.remove("bad");
    if (bad) bad.delete(path);
  };
  minus.addEventListener("click", () => set(Number(input.value) - 1));
  plus.addEventListener("click", () => set(Number(input.value) + 1));
  input.addEventListener("change", () => set(Number(input.value)));
  row.append(name, minus, input, plus);
  return row;
}

function showCounts() {
  const seat = evening.seats[evening.seat];
  const box = $("counts");
  box.replaceChildren();
  for (const group of groupsOf(seat)) {
    box.append(element("h3", group.title));
    for (const field of group.fields) {
      if (field.types) {
        const sub = group.fields.length > 1 || group.prefix ? `${words(field.name)}: ` : "";
        for (const type of field.types) {
          box.append(stepper(evening.seat, `${group.prefix}${field.name}.${type.name}`,
            `${sub}${words(type.name)}`, type.max, COLOURS[type.name]));
        }
      } else {
        const label = group.prefix || group.fields.length > 1 ? words(field.name) : t("sides");
        box.append(stepper(evening.seat, `${group.prefix}${field.name}`, label, field.max));
      }
    }
  }
}

function showSeats() {
  const nav = $("seats");
  nav.replaceChildren();
  evening.seats.forEach((seat, i) => {
    const tab = element("button", seat.name);
    tab.type = "button";
    tab.setAttribute("role", "tab");
    tab.dataset.seat = String(i);
    tab.setAttribute("aria-selected", String(i === evening.seat));
    if (evening.bad[i] && evening.bad[i].size) tab.classList.add("bad");
    tab.addEventListener("click", () => {
      evening.seat = i;
      showSeats();
      showCounts();
    });
    nav.append(tab);
  });
}

function showRound() {
  $("round-title").textContent = t("Round {round}", { round: evening.round });
  $("round-note").textContent = evening.round === ROUNDS ? t("the final scoring") : t("of {rounds}", { rounds: ROUNDS });
  $("score").textContent = t("Score round {round}", { round: evening.round });
  $("next").hidden = true;
  showSeats();
  showCounts();
}

// --- scoring ------------------------------------------------------------------------------

function tallyOf(seatIndex) {
  const tally = {};
  for (const [path, value] of Object.entries(evening.values[seatIndex])) {
    const keys = path.split(".");
    if (!value || (evening.shape.modules[keys[0]] && !evening.modules.includes(keys[0]))) continue;
    let node = tally;
    for (const key of keys.slice(0, -1)) node = node[key] = node[key] || {};
    node[keys[keys.length - 1]] = value;
  }
  return tally;
}

function body() {
  return {
    round: evening.round,
    modules: evening.modules,
    players: evening.seats.map((seat, i) => ({
      name: seat.name, ...(seat.dirk ? { dirk: true } : {}), tally: tallyOf(i),
    })),
    previous: evening.answers.slice(0, evening.round - 1),
  };
}

// A refusal's reasons at the top of the round, the counts they name marked (on every seat's
// tab; on the seat's steppers as they are shown). None: the box goes.
function showViolations(violations) {
  const list = $("violations");
  list.replaceChildren();
  $("refusal").hidden = violations.length === 0;
  $("refusal-title").textContent = t("Round {round} is not scored:", { round: evening.round });
  evening.bad = evening.seats.map(() => new Set());
  document.querySelectorAll(".bad").forEach((node) => node.classList.remove("bad"));
  for (const v of violations) {
    const item = element("li");
    item.append(element("code", v.rule, "rule"), element("span", v.message));
    list.append(item);
    // Mark the counts a refusal names: $.players[1].tally.treasure.chests.garden
    for (const [, seat, path] of v.message.matchAll(/\$\.players\[(\d+)\]\.tally\.([\w.]+)/g)) {
      const tab = document.querySelector(`#seats button[data-seat="${seat}"]`);
      if (tab) tab.classList.add("bad");
      if (evening.bad[Number(seat)]) evening.bad[Number(seat)].add(path);
      if (Number(seat) === evening.seat) {
        const row = document.querySelector(`#counts .stepper[data-path="${path}"]`);
        if (row) row.classList.add("bad");
      }
    }
  }
}

// Where the person is: the reason scrolled to and focused (a screen reader reads it).
function showRefusal() {
  const box = $("refusal");
  box.scrollIntoView({ block: "start" });
  box.focus({ preventScroll: true });
}

function detail(line) {
  const parts = [];
  for (const [key, value] of Object.entries(line)) {
    if (["category", "building", "points", "exhaustive"].includes(key) || value === null) continue;
    parts.push(`${t(key.replace(/_/g, " "))} ${Array.isArray(value) ? value.join("+") || t("none") : value}`);
  }
  return parts.join(", ");
}

function showBreakdown(answer) {
  const table = element("table");
  const head = element("tr");
  head.append(element("th", ""));
  for (const p of answer.players) head.append(element("th", p.name));
  table.append(head);
  const lines = answer.players.length ? answer.players[0].lines : [];
  lines.forEach((line, i) => {
    const row = element("tr");
    row.dataset.category = line.building || line.category;
    row.append(element("td", words(line.building || line.category)));
    for (const p of answer.players) {
      const cell = element("td", String(p.lines[i].points));
      const small = detail(p.lines[i]);
      if (small) cell.append(element("small", small));
      row.append(cell);
    }
    table.append(row);
  });
  const running = Object.fromEntries(answer.ranking.map((r) => [r.name, r.score]));
  for (const [cls, label, value] of [["total", t("round total"), (p) => p.total],
                                     ["running", t("running total"), (p) => running[p.name]]]) {
    const row = element("tr", null, cls);
    row.append(element("th", label));
    for (const p of answer.players) {
      const cell = element("th", String(value(p)));
      cell.dataset.player = p.name;
      row.append(cell);
    }
    table.append(row);
  }
  $("breakdown").replaceChildren(table);
  const final = answer.round === ROUNDS;
  $("ranking-title").textContent = final ? t("Final ranking") : t("Running totals");
  $("ranking").replaceChildren(...answer.ranking.map((r) => {
    const item = element("li", `${r.name} \u00b7 ${r.score}`);
    item.value = r.place;
    return item;
  }));
  $("result-title").textContent = t("Round {round}", { round: answer.round });
  $("result").hidden = false;
}

// The chart of the running totals; it shows once its picture has loaded (an image without one
// is drawn broken). Why it could not be drawn, or null.
async function showChart(scored) {
  $("chart").hidden = true;
  const answer = await post("/v1/render", { ...scored, draw: "sheet" });
  if (!answer.ok) return (answer.data && answer.data.message) || String(answer.status);
  const url = URL.createObjectURL(answer.data);
  if (evening.chartUrl) URL.revokeObjectURL(evening.chartUrl);
  evening.chartUrl = url;
  $("chart").src = url;
  return null;
}

async function scoreRound() {
  const scored = body();
  const answer = await post("/v1/score", scored);
  if (!answer.ok) {
    const violations = answer.data.violations || [];
    status(t("round {round} refused ({error})", { round: evening.round, error: answer.data.error }), true);
    showViolations(violations.length ? violations
      : [{ rule: answer.data.error, message: answer.data.message || String(answer.status) }]);
    showRefusal();
    return;
  }
  showViolations([]);
  evening.answers = [...evening.answers.slice(0, evening.round - 1), answer.data];
  showBreakdown(answer.data);
  const undrawn = await showChart(scored);
  const final = evening.round === ROUNDS;
  status((final ? t("the evening is scored: the final ranking is below")
    : t("round {round} scored; count again for round {next}", { round: evening.round, next: evening.round + 1 }))
    + (undrawn ? ` ${t("(the chart could not be drawn: {reason})", { reason: undrawn })}` : ""), Boolean(undrawn));
  $("next").hidden = final;
  $("next").textContent = `${t("Round {round}", { round: evening.round + 1 })} \u25b6`;
}

function nextRound() {
  if (evening.round >= ROUNDS || evening.answers.length < evening.round) return;
  evening.round += 1;
  evening.seat = 0;
  showRound();  // the counts carry over: buildings stay, the table only grows
  status(t("round {round}: change what changed since the last scoring", { round: evening.round }));
}

// --- setting up ---------------------------------------------------------------------------

function start(event) {
  event.preventDefault();
  const names = $("players").value.split(",").map((s) => s.trim()).filter(Boolean);
  if (names.length < 2 || names.length > 6 || new Set(names).size !== names.length) {
    return status(t("2 to 6 players with different names, separated by commas"), true);
  }
  if (!evening.shape) return status(t("still loading the contract; try again in a moment"), true);
  evening.modules = [...document.querySelectorAll("#modules input:checked")].map((m) => m.value);
  evening.seats = names.map((name) => ({ name, dirk: false }));
  if (names.length === 2) evening.seats.push({ name: "Dirk", dirk: true });
  evening.values = evening.seats.map(() => ({}));
  evening.answers = [];
  evening.round = 1;
  evening.seat = 0;
  $("evening").hidden = false;
  $("result").hidden = true;
  showViolations([]);
  showRound();
  status(names.length === 2 ? t("{players} and Dirk: count each player's table", { players: names.join(", ") })
    : t("{players}: count each player's table", { players: names.join(", ") }));
}

async function loadModules() {
  const answer = await (await I18N.fetch("/v1/modules")).json();
  const box = $("modules");
  const legend = element("legend", t("Modules"));
  legend.dataset.i18n = "";
  legend.dataset.i18nId = "Modules";
  box.replaceChildren(legend);
  for (const module of answer.modules) {
    evening.names[module.id] = module.name;
    const item = element("label");
    const input = element("input");
    input.type = "checkbox";
    input.value = module.id;
    item.title = module.name;
    item.append(input, ` ${module.id}`);
    box.append(item);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("setup").addEventListener("submit", start);
  $("chart").addEventListener("load", () => { $("chart").hidden = false; });
  $("chart").addEventListener("error", () => { $("chart").hidden = true; });
  $("score").addEventListener("click", scoreRound);
  $("next").addEventListener("click", nextRound);
  I18N.ready
    .then(() => Promise.all([loadModules(), loadShape().then((shape) => { evening.shape = shape; })]))
    .then(() => document.body.classList.add("ready"))
    .catch((error) => status(t("loading: {message}", { message: error.message }), true));
  I18N.onChange(relabel);
});

// The language switched: the round, the counts and the last round's result said again in it
// (the breakdown and the chart asked for again: the referee words them).
async function relabel() {
  if ($("evening").hidden) return;
  const scored = evening.answers.length >= evening.round;
  const next = $("next").hidden;
  showRound();
  $("next").hidden = next;
  $("next").textContent = `${t("Round {round}", { round: evening.round + 1 })} \u25b6`;
  if (!$("refusal").hidden) $("refusal-title").textContent = t("Round {round} is not scored:", { round: evening.round });
  if (scored) {
    const asked = body();
    const answer = await post("/v1/score", asked);
    if (answer.ok) {
      showBreakdown(answer.data);
      await showChart(asked);
    }
  }
}
