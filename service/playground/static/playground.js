// The playground: a game played through the referee's JSON endpoints, drawn by /v1/render.
// The page keeps the game's history (every state and the action that led to it); the server
// keeps nothing. A game's record (alhambra-record/1) can be saved, and a record opened and
// stepped through (POST /v1/replay). A bot may move for any seat (POST /v1/suggest, then
// /v1/apply). Text from the server is always set as text, never parsed as HTML. The page's words
// are said in the chosen language (i18n.js: t, tn), and every request says it (I18N.fetch).
"use strict";

const LEGAL_LIMIT = 500;
const RECORD_FORMAT = "alhambra-record/1";
const BOT_LEVELS = ["random", "basic", "strong"];
const BOT_CONSIDERED_SHOWN = 5;

const page = {
  history: [],   // {state, action, events, scoring, game_over}; action is null for the setup
  current: -1,
  legal: [],
  pictureUrl: null,
  // Where the history starts, for its record: the setup (as POST /v1/games took it), the first
  // state's seal and the actions before history[0] (a game played on from a record's step).
  // null for a state loaded as JSON, which has no setup.
  origin: null,
  // The game's seat tokens by player (a sealing referee gives them with a new game): each
  // request acting for a seat carries its token (CALLERS=players asks for it). null: none.
  tokens: null,
  botLevels: {},  // player -> the level chosen for the seat's bot
};

const $ = (id) => document.getElementById(id);

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function status(text, isError = false) {
  $("status").removeAttribute("data-i18n");  // a status of its own now, not the page's first
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

// A POST of JSON; with `player`, carrying that seat's token when the page holds one.
async function post(path, body, player) {
  const headers = { "content-type": "application/json" };
  const token = player && page.tokens ? page.tokens[player] : undefined;
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await I18N.fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
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

// The picture of a state (everything, or what `player` sees of it) as a blob: URL, or the
// referee's reason it is not drawn (thrown).
async function drawing(current, player) {
  const body = { state: current };
  if (player) body.player = player;
  const answer = await post("/v1/render", body);
  if (!answer.ok) throw new Error(answer.data.message || String(answer.status));
  return URL.createObjectURL(new Blob([answer.data], { type: "image/svg+xml" }));
}

async function showPicture() {
  const current = state();
  if (!current) return;
  let url;
  try {
    url = await drawing(current, $("viewer").value);
  } catch (error) {
    status(t("render: {message}", { message: error.message }), true);
    return;
  }
  if (page.pictureUrl) URL.revokeObjectURL(page.pictureUrl);
  page.pictureUrl = url;
  $("picture").src = url;
}

// A picture shows once it has loaded (an image without one is drawn broken); until then, and
// should a picture fail, a line says what will be drawn there.
function pictureShown(loaded, picture = "picture", placeholder = "no-picture") {
  $(picture).hidden = !loaded;
  $(placeholder).hidden = loaded;
  if (!loaded) {
    $(placeholder).removeAttribute("data-i18n");
    $(placeholder).textContent = t("The picture of this state could not be drawn.");
  }
}

function showViewers(current, select = $("viewer")) {
  const chosen = select.value;
  select.replaceChildren(element("option", t("everything")));
  select.firstChild.value = "";
  for (const player of current.players) {
    const option = element("option", t("{player}'s view", { player: player.name }));
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
    box.append(element("span", t("the game is over")));
    return;
  }
  const phase = step.state.phase || "play";
  const phases = { play: t("play"), "final-placement": t("final placement") };
  box.append(element("span", `${phases[phase] || phase}:`, "muted"));
  who.actors.forEach((actor, i) => {
    const item = element("span", null, `actor ${actor.kind}`);
    item.dataset.player = actor.player;
    item.dataset.kind = actor.kind;
    const what = { what: actor.what };
    item.append(element("strong", actor.player), " " + (i === 0 ? t("to act: {what}", what) : t("may act: {what}", what)));
    if (actor.kind === "turn") {
      item.append(` (${tn("{n} action left", "{n} actions left", actor.actions_left)})`);
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
  // Holding seat tokens (CALLERS=players asks for one), the list is that of the seat the game
  // waits for first, as its token shows it.
  const first = page.tokens ? page.history[page.current].to_act?.players?.[0] : undefined;
  const answer = await post("/v1/legal-actions", { state: current, limit: LEGAL_LIMIT }, first);
  if (!answer.ok) {
    status(t("legal actions: {message}", { message: answer.data.message }), true);
    return;
  }
  page.legal = answer.data.actions;
  const count = page.legal.length;
  $("legal-count").textContent = answer.data.truncated ? t("({n}+, cut short)", { n: count }) : `(${count})`;
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
    const apply = element("button", t("apply"), "apply");
    apply.type = "button";
    apply.addEventListener("click", () => applyAction(action));
    const edit = element("button", t("edit"), "edit");
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
    const text = step.action ? summary(step.action) : t("new game");
    const item = element("li", text, i === page.current ? "current" : i > page.current ? "future" : "");
    item.title = t("show this state");
    item.addEventListener("click", () => goTo(i));
    list.append(item);
  });
  $("back").disabled = page.current <= 0;
  $("forward").disabled = page.current >= page.history.length - 1;
  const recordable = page.origin !== null && page.history.length > 0;
  $("save-record").disabled = !recordable;
  $("view-record").disabled = !recordable;
  $("save-record").title = saveTitle(recordable);
}

function saveTitle(recordable) {
  const why = recordable ? "" : " " + t("(a state loaded as JSON has no setup: a record starts from a new game's)");
  return t("download this game as a record ({format}): its setup and every action of the history",
           { format: RECORD_FORMAT }) + why;
}

// What the step shown did: its events and scoring rounds (a verdict of another step is cleared).
function showResult(step) {
  $("violations").replaceChildren();
  const events = $("events");
  events.replaceChildren();
  if ((step.events || []).length) {
    events.append(element("li", step.action ? t("what {action} did:", { action: summary(step.action) }) : t("the setup:"),
                          "heading"));
  }
  for (const event of step.events || []) events.append(element("li", summary(event)));
  showScoring(step.scoring || []);
}

function violationItems(list, violations) {
  for (const v of violations) {
    const item = element("li");
    item.append(element("code", v.rule, "rule"), element("span", v.message, "message"));
    list.append(item);
  }
}

function showViolations(violations, heading) {
  const list = $("violations");
  list.replaceChildren();
  if (heading) list.append(element("li", heading, violations.length ? "" : "ok"));
  violationItems(list, violations);
}

function showScoring(rounds, box = $("scoring")) {
  box.replaceChildren();
  for (const round of rounds) {
    const table = element("table");
    const head = element("tr");
    head.append(element("th", t("round {round}", { round: round.round })));
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
    total.append(element("th", t("total")));
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
  showBots(step);
  const [who] = await Promise.all([toAct(step), showPicture(), showLegalActions()]);
  showTurn(step, who);
  markBotsToAct(step, who);
}

// --- changing the state -------------------------------------------------------------------

function goTo(index) {
  if (index < 0 || index >= page.history.length) return;
  page.current = index;
  const step = page.history[index];
  status(t("step {step} of {steps}: {what}", { step: index + 1, steps: page.history.length,
                                                 what: step.action ? summary(step.action) : t("new game") }));
  showResult(step);
  show();
}

function start(current, gameOver, origin = null, tokens = null, who = null) {
  page.origin = origin;
  page.tokens = tokens;
  showBotAnswer(null);
  page.history = [{ state: current, action: null, events: [], scoring: [], game_over: gameOver }];
  if (who) page.history[0].to_act = who;
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
    status(t("the game cannot be set up: {message}", { message: answer.data.message }), true);
    showViolations(answer.data.violations || []);
    return;
  }
  status(modules.length ? t("new game: {players} with {modules}", { players: players.join(", "), modules: modules.join(", ") })
    : t("new game: {players}", { players: players.join(", ") }));
  const tokens = answer.data.seat_tokens
    ? Object.fromEntries(answer.data.seat_tokens.map((t) => [t.player, t.token])) : null;
  await start(answer.data.state, answer.data.game_over, { setup: body, seal: answer.data.state.seal, actions: [] },
              tokens, answer.data.to_act);
}

// `by`: who chose the action, when not the person at the page (a seat's bot).
async function applyAction(action, by = "") {
  const current = state();
  if (!current) return status(t("create a game first"), true);
  const answer = await post("/v1/apply", { state: current, action }, action.player);
  if (!answer.ok) {
    status(t("refused ({error}): {message}", { error: answer.data.error, message: answer.data.message }), true);
    showViolations(answer.data.violations || []);
    return;
  }
  page.history = page.history.slice(0, page.current + 1);
  page.history.push({ action, ...answer.data });
  page.current = page.history.length - 1;
  const applied = by ? t("{bot} applied {action}", { bot: by, action: summary(action) })
    : t("applied {action}", { action: summary(action) });
  status(applied + (answer.data.game_over ? ` · ${t("the game is over")}` : ""));
  showResult(page.history[page.current]);
  await show();
}

function editedAction() {
  try {
    return JSON.parse($("action-json").value);
  } catch (error) {
    status(t("the action is not JSON: {message}", { message: error.message }), true);
    return null;
  }
}

async function validateAction() {
  const action = editedAction();
  const current = state();
  if (!action || !current) return;
  const answer = await post("/v1/validate", { state: current, action }, action.player);
  if (!answer.ok) {
    status(t("refused ({error}): {message}", { error: answer.data.error, message: answer.data.message }), true);
    showViolations(answer.data.violations || []);
    return;
  }
  status(answer.data.valid ? t("the action is legal") : t("the action is illegal"), !answer.data.valid);
  showViolations(answer.data.violations, answer.data.valid ? t("legal") : null);
}

async function loadState() {
  let loaded;
  try {
    loaded = JSON.parse($("state-json").value);
  } catch (error) {
    return status(t("the state is not JSON: {message}", { message: error.message }), true);
  }
  const answer = await post("/v1/legal-actions", { state: loaded, limit: 0 });
  if (!answer.ok) {
    status(t("the state is refused ({error}): {message}", { error: answer.data.error, message: answer.data.message }), true);
    showViolations(answer.data.violations || []);
    return;
  }
  status(t("state loaded"));
  await start(loaded, loaded.phase === "over");
}

async function loadModules() {
  const box = $("modules");
  const response = await I18N.fetch("/v1/modules");
  const answer = await response.json();
  const legend = element("legend", t("Modules"));
  legend.dataset.i18n = "";
  legend.dataset.i18nId = "Modules";
  box.replaceChildren(legend);
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

// --- bots (issue 28): a move for a seat, suggested from what it may see --------------------

// One line a seat: its name, the level of its bot and the button asking that bot for a move.
function showBots(step) {
  const list = $("bot-seats");
  const names = step.state.players.map((p) => p.name);
  const shown = [...list.children].map((item) => item.dataset.player);
  const over = Boolean(step.game_over || step.state.phase === "over");
  $("no-bots").hidden = true;
  if (shown.join("\n") !== names.join("\n")) {
    list.replaceChildren();
    for (const name of names) {
      const item = element("li", null, "bot-seat");
      item.dataset.player = name;
      const level = element("select", null, "bot-level");
      level.setAttribute("aria-label", t("{player}'s bot's level", { player: name }));
      for (const value of BOT_LEVELS) level.append(element("option", value));
      level.value = page.botLevels[name] || "basic";
      level.addEventListener("change", () => { page.botLevels[name] = level.value; });
      const move = element("button", t("bot move"), "bot-move");
      move.type = "button";
      move.title = t("ask {player}'s bot for a move (POST /v1/suggest) and apply it", { player: name });
      move.addEventListener("click", () => botMove(name, level.value, move));
      item.append(element("strong", name), level, move);
      list.append(item);
    }
  }
  for (const button of list.querySelectorAll("button.bot-move")) button.disabled = over;
}

// The seats the game waits for, marked (the referee's `to_act`).
function markBotsToAct(step, who) {
  if (page.history[page.current] !== step) return;
  for (const item of $("bot-seats").children) {
    item.classList.toggle("to-act", who.players.includes(item.dataset.player));
  }
}

// What the bot answered: its choice and the best actions it weighed; or why it has no move.
function showBotAnswer(text, isError = false, answer = null) {
  $("bot-said").textContent = text || "";
  $("bot-said").className = isError ? "error" : "";
  $("bot-violations").replaceChildren();
  $("bot-considered").replaceChildren();
  if (!answer) return;
  if (answer.violations) return violationItems($("bot-violations"), answer.violations);
  for (const c of (answer.considered || []).slice(0, BOT_CONSIDERED_SHOWN)) {
    const details = { action: c.action ? summary(c.action) : t("wait"), value: Number(c.value).toFixed(1),
                      simulations: c.simulations };
    $("bot-considered").append(element("li", c.simulations ? t("{action} (value {value}, {simulations} simulations)", details)
      : t("{action} (value {value})", details)));
  }
}

// Asks the seat's bot (POST /v1/suggest, with the seat's token when the page holds one) and
// plays its action with /v1/apply, as a person's move is played. A null action: the bot waits
// (its seat may only act out of turn); 422 nothing-to-decide: the game waits for others.
async function botMove(player, level, button) {
  const current = state();
  if (!current) return status(t("create a game first"), true);
  const body = { state: current, player, level };
  if (level === "strong") body.budget_ms = Number($("bot-budget").value) || 200;
  button.disabled = true;
  showBotAnswer(t("{player}'s bot ({level}) is thinking…", { player, level }));
  try {
    const answer = await post("/v1/suggest", body, player);
    if (state() !== current) return;  // the page moved on meanwhile
    if (!answer.ok) {
      const data = typeof answer.data === "object" ? answer.data : { message: answer.data };
      const error = data.error || answer.status;
      const message = data.message || data.detail || String(answer.status);
      status(t("{player}'s bot: {error}: {message}", { player, error, message }), true);
      // The reason once: as the refusal's rules when it names them, else as its message.
      const none = (data.violations || []).length ? t("{player}'s bot has no move ({error})", { player, error })
        : t("{player}'s bot has no move ({error}): {message}", { player, error, message });
      showBotAnswer(none, true, data);
      return;
    }
    const suggested = answer.data;
    const counts = { legal: suggested.legal, simulated: suggested.simulated };
    const weighed = suggested.simulated ? t("of {legal} legal, {simulated} simulated actions", counts)
      : t("of {legal} legal", counts);
    const bot = t("{player}'s bot ({level})", { player, level: suggested.level });
    if (suggested.action === null) {
      status(t("{bot} waits: it may act out of turn, and does not", { bot }));
      showBotAnswer(t("{bot} waits ({weighed})", { bot, weighed }), false, suggested);
      return;
    }
    showBotAnswer(t("{bot} chose {action} ({weighed})", { bot, action: summary(suggested.action), weighed }),
                  false, suggested);
    await applyAction(suggested.action, bot);
  } finally {
    button.disabled = Boolean(page.history[page.current]?.game_over);
  }
}

// --- the game as a record ------------------------------------------------------------------

// The record of the game played in the page: its setup, the first state's seal (when the
// referee seals), every action of the history and, once the game is over, its final ranking.
function gameRecord() {
  const origin = page.origin;
  const first = page.history[0].state;
  const last = page.history[page.history.length - 1];
  const record = { format: RECORD_FORMAT, edition: first.edition, setup: origin.setup };
  if (origin.seal) record.seal = origin.seal;
  record.actions = [...origin.actions, ...page.history.slice(1).map((step) => step.action)];
  if (last.game_over) record.result = last.state.ranking;
  return record;
}

// A record as a person reads it: one line a field, one line an action.
function recordText(record) {
  const lines = Object.entries(record).map(([key, value]) => {
    const name = JSON.stringify(key);
    if (!Array.isArray(value) || !value.length || key === "setup") return `  ${name}: ${JSON.stringify(value)}`;
    return `  ${name}: [\n${value.map((v) => "    " + JSON.stringify(v)).join(",\n")}\n  ]`;
  });
  return `{\n${lines.join(",\n")}\n}\n`;
}

function saveRecord() {
  if (!page.origin || !page.history.length) return;
  const record = gameRecord();
  const url = URL.createObjectURL(new Blob([recordText(record)], { type: "application/json" }));
  const link = element("a");
  link.href = url;
  link.download = `alhambra-record-seed${record.setup.seed}-${record.actions.length}.json`;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  const saved = { n: record.actions.length, file: link.download };
  status(record.result ? tn("saved the record of {n} action and its result as {file}",
                            "saved the record of {n} actions and its result as {file}", saved.n, saved)
    : tn("saved the record of {n} action as {file}", "saved the record of {n} actions as {file}", saved.n, saved));
}

// --- a record stepped through (POST /v1/replay) ----------------------------------------------

const PICTURES_KEPT = 40;

const rec = {
  record: null,
  n: 0,            // its actions
  limit: 0,        // the last step that can be shown: n, or the index of its first illegal action
  k: 0,            // the step shown: the state after k actions
  steps: new Map(),     // k -> a promise of {state, events, scoring, to_act, game_over}
  pictures: new Map(),  // k -> the blob: URL of its picture, for the chosen viewer
  final: null,     // the whole record's replay (its ranking and its result checked)
  refusal: null,   // its first illegal action, as the referee refused it
  opened: 0,       // counts the records opened: an answer for an earlier one is dropped
};

function recordStatus(text, isError = false) {
  $("record-status").removeAttribute("data-i18n");
  $("record-status").textContent = text;
  $("record-status").className = isError ? "error" : "";
}

function stepOf(answer) {
  return { state: answer.state, events: answer.events, scoring: answer.scoring,
           to_act: answer.to_act, game_over: answer.game_over };
}

// The state after k actions: the next action applied to the state after k - 1 when that is
// known (one action's work; the referee answers the replay's state byte for byte), else the
// record replayed up to k (k actions' work). Each step is asked once and kept.
async function computeStep(record, k, previous) {
  if (previous) {
    try {
      const before = await previous;
      const answer = await post("/v1/apply", { state: before.state, action: record.actions[k - 1] });
      if (answer.ok) return stepOf(answer.data);
    } catch (error) {
      // the replay below says what is wrong, if anything
    }
  }
  const answer = await post("/v1/replay", { record, upto: k });
  if (!answer.ok) throw new Error(`${answer.data.error || answer.status}: ${answer.data.message || ""}`);
  return stepOf(answer.data);
}

function step(k) {
  const steps = rec.steps;
  if (!steps.has(k)) {
    const promise = computeStep(rec.record, k, steps.get(k - 1));
    promise.catch(() => {
      if (steps.get(k) === promise) steps.delete(k);
    });
    steps.set(k, promise);
  }
  return steps.get(k);
}

function forgetPictures() {
  for (const url of rec.pictures.values()) URL.revokeObjectURL(url);
  rec.pictures.clear();
}

function rankingText(entry) {
  return `${entry.place}. ${entry.name}: ${tn("{n} point", "{n} points", entry.score)}`;
}

function showRecordSummary() {
  const { record } = rec;
  const box = $("record-summary");
  box.replaceChildren();
  const add = (term, text) => box.append(element("dt", term), element("dd", text));
  add(t("players"), record.setup.players.join(", "));
  add(t("modules"), (record.setup.modules || []).length ? record.setup.modules.join(", ") : t("none (the base game)"));
  add(t("seed"), String(record.setup.seed ?? 0));
  add(t("edition"), `${record.edition}${record.seal ? ` · ${t("sealed: it carries its first state's seal")}` : ""}`);
  add(t("actions"), String(rec.n));
  add(t("result"), record.result ? record.result.map(rankingText).join(" · ") : t("none given"));
  const refusal = rec.refusal;
  $("record-refusal").hidden = !refusal;
  $("record-refusal-rules").replaceChildren();
  if (refusal) {
    $("record-refusal-text").textContent = t("The record's action at index {index} (action {number}) is illegal "
      + "where it stands: {action}. It can be stepped through up to the state before it (step {index} / {n}).",
    { index: refusal.index, number: refusal.index + 1, action: summary(refusal.action), n: rec.n });
    violationItems($("record-refusal-rules"), refusal.violations);
    $("record-refusal-message").textContent = t("The referee: {message}", { message: refusal.message });
  }
}

function showPosition() {
  $("record-position").textContent = `${rec.k} / ${rec.n}`;
  const slider = $("record-slider");
  slider.max = String(rec.limit);
  slider.value = String(rec.k);
  $("record-first").disabled = $("record-back").disabled = rec.k <= 0;
  $("record-forward").disabled = $("record-last").disabled = rec.k >= rec.limit;
}

function showStep(k, shown) {
  const { record } = rec;
  const action = k > 0 ? record.actions[k - 1] : null;
  $("record-action").textContent = action ? t("action {k} of {n}: {action}", { k, n: rec.n, action: summary(action) })
    : t("the setup, before any action");
  const events = $("record-events");
  events.replaceChildren();
  if (shown.events.length) events.append(element("li", action ? t("what it did:") : t("the setup:"), "heading"));
  for (const event of shown.events) events.append(element("li", summary(event)));
  // The scoring rounds held at this step (a replay's answer holds every round held on the way).
  const held = shown.events.filter((e) => e.type === "scoring-round-held").map((e) => e.round);
  const rounds = shown.scoring.filter((round) => held.includes(round.round));
  $("record-held").hidden = !held.length;
  $("record-held").textContent = held.length
    ? tn("scoring round {rounds} held at this step", "scoring rounds {rounds} held at this step", held.length,
         { rounds: held.join(", ") }) : "";
  showScoring(rounds, $("record-scoring"));
  showEnd(k);
  $("record-state").value = JSON.stringify(shown.state, null, 1);
  $("record-step").dataset.step = String(k);
}

// After the last action: the final ranking and the record's result checked; before an illegal
// action: that action and why it is refused.
function showEnd(k) {
  const final = rec.final;
  const atEnd = final !== null && k === rec.n;
  $("record-end").hidden = !atEnd;
  if (atEnd) {
    const ranking = $("record-ranking");
    ranking.replaceChildren();
    if (!final.ranking.length) {
      ranking.append(element("li", tn("the game is not over after the record's {n} action",
                                      "the game is not over after the record's {n} actions", rec.n)));
    }
    for (const entry of final.ranking) ranking.append(element("li", rankingText(entry)));
    const verdict = final.result.verdict;
    $("record-verdict").className = verdict;
    $("record-verdict").dataset.verdict = verdict;
    $("record-verdict").textContent = {
      agrees: t("The record's result agrees with the replay."),
      disagrees: t("The record's result disagrees with the replay:"),
      absent: t("The record gives no result to check."),
    }[verdict] || t("result: {verdict}", { verdict });
    const differences = $("record-differences");
    differences.replaceChildren();
    for (const line of final.result.differences) differences.append(element("li", line));
  }
  const refusal = rec.refusal;
  const beforeIllegal = refusal !== null && k === refusal.index;
  $("record-next").hidden = !beforeIllegal;
  $("record-next-rules").replaceChildren();
  if (beforeIllegal) {
    $("record-next-text").textContent = t("The next action (index {index}) is illegal: {action}",
                                          { index: refusal.index, action: summary(refusal.action) });
    violationItems($("record-next-rules"), refusal.violations);
  }
}

async function showRecordPicture(k, current) {
  let url = rec.pictures.get(k);
  if (!url) {
    const opened = rec.opened;
    try {
      url = await drawing(current, $("record-viewer").value);
    } catch (error) {
      recordStatus(t("render: {message}", { message: error.message }), true);
      return;
    }
    if (opened !== rec.opened) return URL.revokeObjectURL(url);
    rec.pictures.set(k, url);
    for (const [kept, old] of rec.pictures) {
      if (rec.pictures.size <= PICTURES_KEPT) break;
      if (kept === rec.k || kept === k) continue;
      URL.revokeObjectURL(old);
      rec.pictures.delete(kept);
    }
  }
  if (rec.k !== k) return;
  const picture = $("record-picture");
  picture.dataset.step = String(k);
  if (picture.src !== url) picture.src = url;
}

async function goStep(wanted) {
  if (!rec.record) return;
  const k = Math.max(0, Math.min(rec.limit, wanted));
  rec.k = k;
  showPosition();
  const opened = rec.opened;
  let shown;
  $("record-step").setAttribute("aria-busy", "true");
  try {
    shown = await step(k);
  } catch (error) {
    if (rec.k === k && opened === rec.opened) recordStatus(t("step {k}: {message}", { k, message: error.message }), true);
    return;
  } finally {
    if (rec.k === k) $("record-step").removeAttribute("aria-busy");
  }
  if (rec.k !== k || opened !== rec.opened) return;
  showStep(k, shown);
  await showRecordPicture(k, shown.state);
  if (k < rec.limit && rec.k === k) step(k + 1).catch(() => {});  // forward is then at hand
}

// A record opened: its setup checked by a replay of no action (the format, the edition, the
// setup, every action's shape), then replayed whole once, for its end (the final ranking and
// its result checked) or its first illegal action.
async function openRecord(record, source) {
  const opened = ++rec.opened;
  $("record-problems").replaceChildren();
  recordStatus(t("checking the record ({source})…", { source }));
  const first = await post("/v1/replay", { record, upto: 0 });
  if (opened !== rec.opened) return;
  if (!first.ok) {
    $("record-view").hidden = true;
    rec.record = null;
    recordStatus(t("the record is refused ({error}): {message}",
                   { error: first.data.error || first.status, message: first.data.message || first.data }), true);
    violationItems($("record-problems"), first.data.violations || []);
    return;
  }
  const whole = await post("/v1/replay", { record });
  if (opened !== rec.opened) return;
  forgetPictures();
  const n = (record.actions || []).length;
  Object.assign(rec, { record: { ...record, actions: record.actions || [] }, n, limit: n, k: 0,
                       steps: new Map([[0, Promise.resolve(stepOf(first.data))]]),
                       final: null, refusal: null });
  let note = tn("{n} action, every one legal", "{n} actions, every one legal", n);
  if (whole.ok) {
    rec.final = whole.data;
    rec.steps.set(n, Promise.resolve(stepOf(whole.data)));
  } else if (whole.status === 422 && whole.data.error === "illegal-action") {
    rec.refusal = whole.data;
    rec.limit = whole.data.index;
    note = t("action {k} of {n} is illegal", { k: whole.data.index + 1, n });
  } else {
    note = t("the whole record is not replayed ({error}): {message}",
             { error: whole.data.error || whole.status, message: whole.data.message || "" });
  }
  showViewers(first.data.state, $("record-viewer"));
  showRecordSummary();
  $("record-view").hidden = false;
  recordStatus(t("opened the record ({source}): {note}", { source, note }), rec.refusal !== null || !whole.ok);
  await goStep(0);
}

function openRecordText(text, source) {
  let record;
  try {
    record = JSON.parse(text);
  } catch (error) {
    recordStatus(t("the record ({source}) is not JSON: {message}", { source, message: error.message }), true);
    return;
  }
  if (record === null || typeof record !== "object" || Array.isArray(record)) {
    recordStatus(t("the record ({source}) is not a JSON object", { source }), true);
    return;
  }
  return openRecord(record, source);
}

async function openRecordFile() {
  const file = $("record-file").files[0];
  if (!file) return;
  const text = await file.text();
  $("record-file").value = "";  // the same file may be opened again
  await openRecordText(text, file.name);
}

async function playFromRecord() {
  if (!rec.record) return;
  const k = rec.k;
  const shown = await step(k);
  const record = rec.record;
  status(t("playing on from step {k} of the record", { k }));
  await start(shown.state, shown.game_over,
              { setup: record.setup, seal: record.seal, actions: record.actions.slice(0, k) });
  $("board").scrollIntoView();
}

async function viewGameRecord() {
  if (!page.origin || !page.history.length) return;
  await openRecord(gameRecord(), t("the game above"));
  $("record").scrollIntoView();
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
  $("save-record").addEventListener("click", saveRecord);
  $("view-record").addEventListener("click", viewGameRecord);
  $("back").disabled = true;
  $("forward").disabled = true;
  $("record-file").addEventListener("change", openRecordFile);
  $("record-open").addEventListener("click", () => openRecordText($("record-json").value, "pasted"));
  $("record-first").addEventListener("click", () => goStep(0));
  $("record-back").addEventListener("click", () => goStep(rec.k - 1));
  $("record-forward").addEventListener("click", () => goStep(rec.k + 1));
  $("record-last").addEventListener("click", () => goStep(rec.limit));
  // Dragging the slider asks for the step it rests on, not every step it passes.
  let sliding = null;
  $("record-slider").addEventListener("input", () => {
    $("record-position").textContent = `${$("record-slider").value} / ${rec.n}`;
    clearTimeout(sliding);
    sliding = setTimeout(() => goStep(Number($("record-slider").value)), 150);
  });
  $("record-slider").addEventListener("change", () => {
    clearTimeout(sliding);
    goStep(Number($("record-slider").value));
  });
  $("record-picture").addEventListener("load", () => pictureShown(true, "record-picture", "record-no-picture"));
  $("record-picture").addEventListener("error", () => pictureShown(false, "record-picture", "record-no-picture"));
  $("record-viewer").addEventListener("change", () => {
    forgetPictures();
    goStep(rec.k);
  });
  $("record-fit").addEventListener("change", () => $("record-frame").classList.toggle("fit", $("record-fit").checked));
  $("record-play").addEventListener("click", playFromRecord);
  // The page's words once its language's catalogue is in (i18n.js), and again at each switch.
  I18N.ready.then(() => {
    $("save-record").title = saveTitle(true);
    return loadModules();
  }).catch((error) => status(t("modules: {message}", { message: error.message }), true));
  I18N.onChange(relabel);
});

// The language switched: what the page drew in words is drawn again in the new language (the
// picture, who acts, the legal actions and the bots asked again, saying it).
function relabel() {
  $("save-record").title = saveTitle(true);
  $("bot-seats").replaceChildren();
  if (state()) {
    showResult(page.history[page.current]);
    show();
  }
  if (rec.record) {
    forgetPictures();
    for (const option of $("record-viewer").options) {
      option.textContent = option.value ? t("{player}'s view", { player: option.value }) : t("everything");
    }
    showRecordSummary();
    goStep(rec.k);
  }
}
