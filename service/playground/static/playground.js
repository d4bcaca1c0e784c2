// The playground: a game played through the referee's JSON endpoints, drawn by /v1/render.
// The page keeps the game's history (every state and the action that led to it); the server
// keeps nothing. Text from the server is always set as text, never parsed as HTML.
"use strict";

const LEGAL_LIMIT = 500;

const page = {
  history: [],   // {state, action, events, scoring, game_over}; action is null for the setup
  current: -1,
  legal: [],
  pictureUrl: null,
};

const $ = (id) => document.getElementById(id);

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function status(text, isError = false) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  return { status: response.status, ok: response.ok, data };
}

// "take-money · cards blue-5-a, green-2-b": the action's type and its fields but the player.
function summary(action) {
  const parts = [];
  for (const [key, value] of Object.entries(action)) {
    if (key === "type" || key === "player") continue;
    const shown = Array.isArray(value)
      ? value.map((v) => (typeof v === "object" ? JSON.stringify(v) : String(v))).join(", ")
      : typeof value === "object" ? JSON.stringify(value) : String(value);
    parts.push(`${key.replace(/_/g, " ")} ${shown}`);
  }
  const who = action.player ? `${action.player}: ` : "";
  return `${who}${action.type}${parts.length ? " · " + parts.join(" · ") : ""}`;
}

function state() {
  return page.current >= 0 ? page.history[page.current].state : null;
}

// --- showing a state ----------------------------------------------------------------------

async function showPicture() {
  const current = state();
  if (!current) return;
  const body = { state: current };
  if ($("viewer").value) body.player = $("viewer").value;
  const answer = await post("/v1/render", body);
  if (!answer.ok) {
    status(`render: ${answer.data.message || answer.status}`, true);
    return;
  }
  const url = URL.createObjectURL(new Blob([answer.data], { type: "image/svg+xml" }));
  if (page.pictureUrl) URL.revokeObjectURL(page.pictureUrl);
  page.pictureUrl = url;
  $("picture").src = url;
}

// The picture shows once it has loaded (an image without one is drawn broken); until then,
// and should a picture fail, a line says what will be drawn there.
function pictureShown(loaded) {
  $("picture").hidden = !loaded;
  $("no-picture").hidden = loaded;
  if (!loaded) $("no-picture").textContent = "The picture of this state could not be drawn.";
}

function showViewers(current) {
  const select = $("viewer");
  const chosen = select.value;
  select.replaceChildren(element("option", "everything"));
  select.firstChild.value = "";
  for (const player of current.players) {
    const option = element("option", `${player.name}'s view`);
    option.value = player.name;
    select.append(option);
  }
  select.value = current.players.some((p) => p.name === chosen) ? chosen : "";
}

// Who must act, as the referee says (`to_act` of an answer; for a loaded state, of its view):
// the player the game waits for first, then those who may act out of turn.
async function toAct(step) {
  if (!step.to_act) {
    const answer = await post("/v1/view", { state: step.state });
    if (answer.ok) step.to_act = answer.data.to_act;
  }
  return step.to_act || { players: [], actors: [] };
}

function showTurn(step, who) {
  const box = $("turn");
  box.replaceChildren();
  if (step.game_over || step.state.phase === "over") {
    box.append(element("span", "the game is over"));
    return;
  }
  box.append(element("span", `${step.state.phase || "play"}:`, "muted"));
  who.actors.forEach((actor, i) => {
    const item = element("span", null, `actor ${actor.kind}`);
    item.dataset.player = actor.player;
    item.dataset.kind = actor.kind;
    item.append(element("strong", actor.player), ` ${i === 0 ? "to act" : "may act"}: ${actor.what}`);
    if (actor.kind === "turn") {
      item.append(` (${actor.actions_left} action${actor.actions_left === 1 ? "" : "s"} left)`);
    }
    item.append(" ", element("code", actor.rule, "rule"));
    box.append(item);
  });
}

async function showLegalActions() {
  const current = state();
  const list = $("legal-actions");
  list.replaceChildren();
  page.legal = [];
  $("legal-count").textContent = "";
  if (!current || page.history[page.current].game_over) return;
  const answer = await post("/v1/legal-actions", { state: current, limit: LEGAL_LIMIT });
  if (!answer.ok) {
    status(`legal actions: ${answer.data.message}`, true);
    return;
  }
  page.legal = answer.data.actions;
  $("legal-count").textContent = `(${page.legal.length}${answer.data.truncated ? "+, cut short" : ""})`;
  filterLegalActions();
}

function filterLegalActions() {
  const words = $("legal-filter").value.toLowerCase().split(/\s+/).filter(Boolean);
  const list = $("legal-actions");
  list.replaceChildren();
  page.legal.forEach((action) => {
    const text = summary(action);
    if (!words.every((w) => text.toLowerCase().includes(w))) return;
    const item = element("li");
    const apply = element("button", "apply", "apply");
    apply.type = "button";
    apply.addEventListener("click", () => applyAction(action));
    const edit = element("button", "edit", "edit");
    edit.type = "button";
    edit.addEventListener("click", () => {
      $("action-json").value = JSON.stringify(action, null, 2);
    });
    item.append(apply, edit, element("code", text));
    list.append(item);
  });
}

function showHistory() {
  const list = $("history");
  list.replaceChildren();
  page.history.forEach((step, i) => {
    const text = step.action ? summary(step.action) : "new game";
    const item = element("li", text, i === page.current ? "current" : i > page.current ? "future" : "");
    item.title = "show this state";
    item.addEventListener("click", () => goTo(i));
    list.append(item);
  });
  $("back").disabled = page.current <= 0;
  $("forward").disabled = page.current >= page.history.length - 1;
}

// What the step shown did: its events and scoring rounds (a verdict of another step is cleared).
function showResult(step) {
  $("violations").replaceChildren();
  const events = $("events");
  events.replaceChildren();
  if ((step.events || []).length) {
    events.append(element("li", step.action ? `what ${summary(step.action)} did:` : "the setup:", "heading"));
  }
  for (const event of step.events || []) events.append(element("li", summary(event)));
  showScoring(step.scoring || []);
}

function showViolations(violations, heading) {
  const list = $("violations");
  list.replaceChildren();
  if (heading) list.append(element("li", heading, violations.length ? "" : "ok"));
  for (const v of violations) {
    const item = element("li");
    item.append(element("code", v.rule, "rule"), element("span", v.message, "message"));
    list.append(item);
  }
}

function showScoring(rounds) {
  const box = $("scoring");
  box.replaceChildren();
  for (const round of rounds) {
    const table = element("table");
    const head = element("tr");
    head.append(element("th", `round ${round.round}`));
    for (const p of round.players) head.append(element("th", p.name));
    table.append(head);
    const lines = round.players.length ? round.players[0].lines : [];
    lines.forEach((line, i) => {
      const row = element("tr");
      row.append(element("td", line.building || line.category));
      for (const p of round.players) row.append(element("td", String(p.lines[i].points)));
      table.append(row);
    });
    const total = element("tr");
    total.append(element("th", "total"));
    for (const p of round.players) total.append(element("th", String(p.total)));
    table.append(total);
    box.append(table);
  }
}

async function show() {
  const step = page.history[page.current];
  $("state-json").value = JSON.stringify(step.state, null, 1);
  showViewers(step.state);
  showHistory();
  const [who] = await Promise.all([toAct(step), showPicture(), showLegalActions()]);
  showTurn(step, who);
}

// --- changing the state -------------------------------------------------------------------

function goTo(index) {
  if (index < 0 || index >= page.history.length) return;
  page.current = index;
  const step = page.history[index];
  status(`step ${index + 1} of ${page.history.length}: ${step.action ? summary(step.action) : "new game"}`);
  showResult(step);
  show();
}

function start(current, gameOver) {
  page.history = [{ state: current, action: null, events: [], scoring: [], game_over: gameOver }];
  page.current = 0;
  showResult(page.history[0]);
  return show();
}

async function newGame(event) {
  event.preventDefault();
  const players = $("players").value.split(",").map((s) => s.trim()).filter(Boolean);
  const modules = [...document.querySelectorAll("#modules input:checked")].map((m) => m.value);
  const body = { players, modules, seed: Number($("seed").value || 0) };
  const answer = await post("/v1/games", body);
  if (!answer.ok) {
    status(`the game cannot be set up: ${answer.data.message}`, true);
    showViolations(answer.data.violations || []);
    return;
  }
  status(`new game: ${players.join(", ")}${modules.length ? " with " + modules.join(", ") : ""}`);
  await start(answer.data.state, answer.data.game_over);
}

async function applyAction(action) {
  const current = state();
  if (!current) return status("create a game first", true);
  const answer = await post("/v1/apply", { state: current, action });
  if (!answer.ok) {
    status(`refused (${answer.data.error}): ${answer.data.message}`, true);
    showViolations(answer.data.violations || []);
    return;
  }
  page.history = page.history.slice(0, page.current + 1);
  page.history.push({ action, ...answer.data });
  page.current = page.history.length - 1;
  status(`applied ${summary(action)}${answer.data.game_over ? " · the game is over" : ""}`);
  showResult(page.history[page.current]);
  await show();
}

function editedAction() {
  try {
    return JSON.parse($("action-json").value);
  } catch (error) {
    status(`the action is not JSON: ${error.message}`, true);
    return null;
  }
}

async function validateAction() {
  const action = editedAction();
  const current = state();
  if (!action || !current) return;
  const answer = await post("/v1/validate", { state: current, action });
  if (!answer.ok) {
    status(`refused (${answer.data.error}): ${answer.data.message}`, true);
    showViolations(answer.data.violations || []);
    return;
  }
  status(answer.data.valid ? "the action is legal" : "the action is illegal", !answer.data.valid);
  showViolations(answer.data.violations, answer.data.valid ? "legal" : null);
}

async function loadState() {
  let loaded;
  try {
    loaded = JSON.parse($("state-json").value);
  } catch (error) {
    return status(`the state is not JSON: ${error.message}`, true);
  }
  const answer = await post("/v1/legal-actions", { state: loaded, limit: 0 });
  if (!answer.ok) {
    status(`the state is refused (${answer.data.error}): ${answer.data.message}`, true);
    showViolations(answer.data.violations || []);
    return;
  }
  status("state loaded");
  await start(loaded, loaded.phase === "over");
}

async function loadModules() {
  const box = $("modules");
  const response = await fetch("/v1/modules");
  const answer = await response.json();
  box.replaceChildren(element("legend", "Modules"));
  for (const module of answer.modules) {
    const item = element("label");
    const box_ = element("input");
    box_.type = "checkbox";
    box_.value = module.id;
    box_.name = "module";
    item.title = module.name;
    item.append(box_, ` ${module.id}`);
    box.append(item);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("setup").addEventListener("submit", newGame);
  $("picture").addEventListener("load", () => pictureShown(true));
  $("picture").addEventListener("error", () => pictureShown(false));
  $("viewer").addEventListener("change", showPicture);
  $("fit").addEventListener("change", () => $("picture-frame").classList.toggle("fit", $("fit").checked));
  $("legal-filter").addEventListener("input", filterLegalActions);
  $("apply").addEventListener("click", () => {
    const action = editedAction();
    if (action) applyAction(action);
  });
  $("validate").addEventListener("click", validateAction);
  $("back").addEventListener("click", () => goTo(page.current - 1));
  $("forward").addEventListener("click", () => goTo(page.current + 1));
  $("load-state").addEventListener("click", loadState);
  $("back").disabled = true;
  $("forward").disabled = true;
  loadModules().catch((error) => status(`modules: ${error.message}`, true));
});
