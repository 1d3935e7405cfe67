// What the two games played in rounds share (The Tank War, Tank Wars):
// the rounds played, the states after each (the service's `replay`), the
// one shown and stepping through them, the last round's events, and the
// review. A view names its elements by a prefix (`war-`, `cobi-`) and
// gives how a round and an event are written, what a new round resets,
// and its status line.

import { $, act, shell, t } from "./common.js";
import { clearReview, showReview, verdictAt } from "./review.js";

export class Rounds {
  // `api`: the game's client; `prefix`: its elements' ids; `name`: the
  // game's name id; `first`: the player whose chance the review charts;
  // `roundText(round, i)`, `eventText(event)`: how they are written;
  // `newRound()`: what a view resets when a round begins; `describe()`:
  // its status line; `writeRounds(rounds)`, optional: the fragment's text.
  constructor(options) {
    Object.assign(this, options);
    this.start = null; // the default state
    this.rounds = []; // the rounds played
    this.states = []; // states[i]: after i rounds
    this.events = null; // the last round's events, when played here
    this.at = 0; // the state shown
    this.reviewed = null; // the rounds the shown review judged
  }

  current() {
    return this.states[this.at];
  }

  latest() {
    return this.at === this.rounds.length;
  }

  // The rounds as the fragment writes them (the view's `writeRounds`,
  // or JSON).
  written() {
    return this.writeRounds ? this.writeRounds(this.rounds) : JSON.stringify(this.rounds);
  }

  // The fragment's entries for the rounds and the one shown.
  entries() {
    const entries = [];
    if (this.rounds.length) entries.push(["rounds", this.written()]);
    if (!this.latest()) entries.push(["at", String(this.at)]);
    return entries;
  }

  // Sets up `rounds` from the start, once the service has replayed them.
  async setUp(rounds, at) {
    this.start ??= await this.api("GET", "initial");
    const states = [this.start];
    if (rounds.length) {
      const replayed = await this.api("POST", "replay", { rounds });
      states.push(...replayed.states);
    }
    this.rounds = rounds;
    this.states = states;
    this.events = null;
    this.at = Math.max(0, Math.min(at, rounds.length));
    this.newRound();
    await this.describe();
  }

  // The rounds a fragment names, or a new game when the service refuses
  // them (its refusal thrown, to be said).
  async open(rounds, at) {
    try {
      await this.setUp(rounds, at);
    } catch (error) {
      await this.setUp([], 0);
      throw error;
    }
  }

  // `round` was played and `answer` is `apply`'s.
  played(round, answer) {
    this.rounds.push(round);
    this.states.push(answer.state);
    this.events = answer.events;
    this.at = this.rounds.length;
    this.newRound();
  }

  async show(at) {
    this.at = Math.max(0, Math.min(at, this.rounds.length));
    this.newRound();
    shell.render();
    await act(() => this.describe());
  }

  async review() {
    const answer = await this.api("POST", "annotate", { rounds: this.rounds });
    this.reviewed = this.written();
    showReview(answer, t(this.name), this.first, (step) => this.show(step));
    return answer;
  }

  // The rounds list, the last round's events, the steps, the review.
  render() {
    const id = (name) => $(`${this.prefix}${name}`);
    const list = id("rounds");
    list.replaceChildren();
    this.rounds.forEach((round, i) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `${i + 1}. ${this.roundText(round)}`;
      button.dataset.step = String(i + 1);
      if (this.at === i + 1) button.setAttribute("aria-current", "step");
      item.append(button);
      list.append(item);
    });
    const events = id("events");
    events.replaceChildren();
    for (const e of (this.latest() && this.events) || []) {
      const item = document.createElement("li");
      item.textContent = this.eventText(e);
      events.append(item);
    }
    id("previous").disabled = this.at === 0;
    id("next").disabled = this.latest();
    id("review").disabled = this.rounds.length === 0 || shell.busy;
    if (this.reviewed !== this.written()) {
      this.reviewed = null;
      clearReview();
    }
    verdictAt(this.at);
  }

  wire() {
    const id = (name) => $(`${this.prefix}${name}`);
    id("new").addEventListener("click", () => act(() => this.setUp([], 0)));
    id("previous").addEventListener("click", () => this.show(this.at - 1));
    id("next").addEventListener("click", () => this.show(this.at + 1));
    id("rounds").addEventListener("click", (event) => {
      const step = Number(event.target.closest("button")?.dataset.step);
      if (step) this.show(step);
    });
  }
}
