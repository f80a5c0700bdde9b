#!/usr/bin/env node
// A minimal Redemption engine speaking the trigger-conformance process protocol, version 1 (docs/protocol.md).
// Plain JavaScript for Node.js 18 or later, no packages. Run it with
//   trigger-conformance run --ruleset redemption --engine-cmd 'node docs/examples/redemption-engine.js'
//
// It is partial on purpose, and says so: its `started` message declares a generation profile that excludes the
// features it does not play (negation, control, "If X, Y", ending the phase, abilities that end once their card is
// gone), so the harness generates only scenarios it can play. It plays scripted actions that signal, move (discard,
// set aside) and play cards; triggered abilities on signals, on a card leaving play and on a card being played;
// mandatory and optional triggers of several players (TA.1, TA.3 to TA.6); both values of the option
// trigger_during_resolution. Anything else in a scenario is answered `skipped`, with the reason.
"use strict";
const readline = require("node:readline");

const NAME = "minimal-redemption-js", VERSION = "0.1.0";
const RULESETS = { redemption: ["reg-glossary"] };
const PROFILES = { redemption: { exclude: [
  "control_triggers", "end_phase", "ends_if_card_leaves", "gain_control", "if_x_y", "negate", "negate_ability"] } };
// The option values it plays: the two others change nothing in the scenarios of its profile.
const OPTIONS = {
  trigger_during_resolution: ["after-pending", "before-pending"],
  mandatory_after_phase: ["lapse", "persist"],
  control_change_holder: ["new-controller", "old-controller"],
};

class Skip extends Error {}

// ---- The game: one play of one scenario -------------------------------------------------------------------------

class Game {
  constructor(scenario, choose) {
    this.scenario = scenario;
    this.options = scenario.options;
    this.choose = choose;  // async (decision, player, question) -> the harness's answer
    this.entries = [];
    this.counters = { E: 0, T: 0 };
    this.position = 0;
    this.zones = {};
    this.controllers = {};
    for (const card of scenario.objects) {
      this.zones[card.id] = card.zone;
      this.controllers[card.id] = card.controller ?? card.owner;
      for (const ability of card.abilities ?? []) {
        for (const word of ["checks_on_play", "ends_if_card_leaves", "intervening_if"]) {
          if (word in ability) throw new Skip(`abilities with '${word}' are not implemented`);
        }
      }
    }
    this.triggers = {};  // trigger id -> its trace entry
    this.fresh = [];     // pending triggers not yet free to activate, in the order they arose
    this.batches = [];   // triggers free together, each batch in activation order
  }

  add(kind, fields) { const entry = { kind, ...fields }; this.entries.push(entry); return entry; }
  newId(prefix) { return `${prefix}${++this.counters[prefix]}`; }

  async play() {
    for (const [step, phase] of this.scenario.script.entries()) {
      this.add("step_begin", { step });
      for (const [index, action] of phase.actions.entries()) {
        const ref = [step, index];
        this.add("action_begin", { action: ref });
        this.perform(action.effect, { action: ref }, null, action.by);
        this.add("action_end", { action: ref });
        await this.activatePending();  // TA.6: nothing else is being carried out
      }
      this.add("step_advance", { from: step });
    }
    return { format: "trigger-conformance/trace/1", entries: this.entries };
  }

  // Carry out an effect's primitive actions in order; the abilities they trigger only become pending (TA.1, TA.6).
  perform(effect, cause, source, player) {
    for (const action of effect) {
      if (action.do === "signal") {
        this.happen("signal", cause, { subject: action.subject ?? source, name: action.name, player });
      } else if (action.do === "move") {
        const from = this.zones[action.object];
        if (from !== undefined && from !== action.to) {
          const type = action.to === "field" ? "enter" : from === "field" ? "leave" : "move";
          this.happen(type, cause, { subject: action.object, player, from, to: action.to });
        }
      } else if (action.do === "play") {
        if (this.zones[action.object] === "hand") {  // a card not in hand cannot be played: nothing happens
          this.happen("play", cause, { subject: action.object, player, from: "hand", to: "field" });
        }
      } else {
        throw new Skip(`the action '${action.do}' is not implemented`);
      }
    }
  }

  // Record an event; every ability whose situation it is triggers for its card's controller (TA.1).
  happen(type, cause, fields) {
    const event = this.add("event", { id: this.newId("E"), position: ++this.position, type, cause });
    for (const [key, value] of Object.entries(fields)) if (value !== null && value !== undefined) event[key] = value;
    const before = { ...this.zones };
    if (event.to !== undefined) this.zones[event.subject] = event.to;
    for (const card of this.scenario.objects) {
      for (const ability of card.abilities ?? []) {
        if (!matches(ability.trigger, event, card.id)) continue;
        // A card leaving its zone triggers its own abilities as it was just before the event (it looks back).
        const looksBack = ["leave", "move"].includes(type) && event.subject === card.id;
        const zone = looksBack ? before[card.id] : this.zones[card.id];
        if (!(ability.active_in ?? ["field"]).includes(zone)) continue;
        const trigger = this.add("trigger", { id: this.newId("T"), ability: ability.id, source: card.id,
                                              controller: this.controllers[card.id], event: event.id });
        this.triggers[trigger.id] = trigger;
        this.fresh.push(trigger.id);
      }
    }
  }

  // TA.6: pending triggers activate one at a time until none is left.
  async activatePending() {
    for (let next; (next = await this.nextTrigger()) !== null; ) await this.takeTurn(this.triggers[next]);
  }

  // Option trigger_during_resolution: triggers that arose while an ability resolved wait for every trigger already
  // free (after-pending: one queue), or go ahead of them (before-pending: a stack of batches).
  async nextTrigger() {
    const last = () => this.batches[this.batches.length - 1];
    if (this.options.trigger_during_resolution === "after-pending") {
      if (!(this.batches.length && last().length) && this.fresh.length) {
        this.batches = [await this.orderBatch(this.fresh)];
        this.fresh = [];
      }
    } else if (this.fresh.length) {
      this.batches.push(await this.orderBatch(this.fresh));
      this.fresh = [];
    }
    while (this.batches.length && !last().length) this.batches.pop();
    return this.batches.length ? last().shift() : null;
  }

  // TA.4, TA.5: the active player's triggers first, then each other player's in turn order; each player orders
  // their own (asked only when they have two or more).
  async orderBatch(ids) {
    const ordered = [];
    for (const player of this.seats()) {
      let mine = ids.filter((id) => this.triggers[id].controller === player);
      if (mine.length > 1) {
        const permutation = await this.choose("order", player, { triggers: mine.map((id) => this.triggers[id]) });
        const chosen = permutation.map((k) => mine[k]);
        this.add("choice", { player, decision: "order", among: mine, chosen });
        mine = chosen;
      }
      ordered.push(...mine);
    }
    return ordered;
  }

  seats() {
    const players = this.scenario.players, start = players.indexOf(this.scenario.active_player);
    return [...players.slice(start), ...players.slice(0, start)];
  }

  // TA.3, TA.5: an optional trigger needs its card in play or set aside, controlled by its holder, and its holder's yes, asked
  // when its turn comes; a mandatory one activates even if its card is gone.
  async takeTurn(trigger) {
    const card = this.scenario.objects.find((c) => c.id === trigger.source);
    const ability = card.abilities.find((a) => a.id === trigger.ability);
    if (ability.optional) {
      if (!["field", "set_aside"].includes(this.zones[card.id]) || this.controllers[card.id] !== trigger.controller) {
        this.add("removed", { trigger: trigger.id, reason: "source_gone" });
        return;
      }
      const use = await this.choose("optional", trigger.controller, { trigger });
      this.add("choice", { player: trigger.controller, decision: "optional", among: [trigger.id], chosen: use });
      if (!use) {
        this.add("removed", { trigger: trigger.id, reason: "declined" });
        return;
      }
    }
    this.add("resolve_begin", { trigger: trigger.id });
    this.perform(ability.effect, { resolution: trigger.id }, trigger.source, trigger.controller);
    this.add("resolve_end", { trigger: trigger.id });
  }
}

// Whether an event satisfies an ability's trigger condition (its `trigger`), for an ability of card `source`.
function matches(pattern, event, source) {
  if (pattern.event !== event.type) return false;
  if ("name" in pattern && pattern.name !== event.name) return false;
  const subject = pattern.subject ?? "any";
  if (subject === "any") return true;
  if (subject === "self") return event.subject === source;
  if (subject === "other") return event.subject !== undefined && event.subject !== source;
  return event.subject === subject;
}

// ---- The protocol ----------------------------------------------------------------------------------------------

const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const receive = async () => { const { value, done } = await lines.next(); return done ? null : JSON.parse(value); };
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");  // a pipe: written at once

function configure(message) {
  if (!(message.ruleset in RULESETS) || !RULESETS[message.ruleset].includes(message.edition)) {
    return { type: "configured", ok: false, reason: `${NAME} does not implement ${message.ruleset} ${message.edition}` };
  }
  for (const [option, value] of Object.entries(message.options)) {
    if (!(OPTIONS[option] ?? []).includes(value)) {
      return { type: "configured", ok: false, reason: `${NAME} does not play ${option}=${JSON.stringify(value)}` };
    }
  }
  return { type: "configured" };
}

async function run(message) {
  const id = message.id;
  let asked = 0;
  const choose = async (decision, player, question) => {
    send({ type: "choose", id, request: ++asked, decision, player, ...question });
    return (await receive()).answer;
  };
  try {
    const trace = await new Game(message.scenario, choose).play();
    return { type: "result", id, result: "trace", trace };
  } catch (error) {
    if (error instanceof Skip) return { type: "result", id, result: "skipped", reason: error.message };
    return { type: "result", id, result: "errored", context: { message: String(error), traceback: String(error.stack) } };
  }
}

async function main() {
  for (let message; (message = await receive()) !== null && message.type !== "stop"; ) {
    if (message.type === "start") {
      send({ type: "started", protocol: 1, name: NAME, version: VERSION, rulesets: RULESETS, language: "javascript",
             profiles: PROFILES });
    } else if (message.type === "configure") {
      send(configure(message));
    } else if (message.type === "run") {
      send(await run(message));
    }
  }
  process.exit(0);
}

main();
