// The event streams' rules (static/js/stream-core.js): where a page's stream is, when a
// version asks the poll, when the poll's timer may ask while the stream is up.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const core = require("../../static/js/stream-core.js");

test("the table's stream is at the poll's address, with its ticket", () => {
  assert.equal(core.eventsUrl("/pulkas/7/poll/?v=12&t=abc"), "/pulkas/7/events/?v=12&t=abc");
  assert.equal(core.eventsUrl("/watch/tok/poll/"), "/watch/tok/events/");
  assert.equal(core.eventsUrl(null), null);
  assert.equal(core.shownVersion("/pulkas/7/poll/?v=12&t=abc"), "12");
  assert.equal(core.shownVersion("/pulkas/7/poll/"), null);
});

test("a version asks the poll when it is new, or the first after a reconnect", () => {
  assert.equal(core.asksPoll("13", false, "12"), true);
  assert.equal(core.asksPoll("12", false, "12"), false);
  assert.equal(core.asksPoll(12, false, "12"), false);
  assert.equal(core.asksPoll("12", true, "12"), true); // a change may have been missed
});

test("the room's screens poll on a new version, and on each reconnect", () => {
  assert.deepEqual(core.roomHeard("a", true, null), [true, "a"]);
  assert.deepEqual(core.roomHeard("a", false, "a"), [false, "a"]);
  assert.deepEqual(core.roomHeard("b", false, "a"), [true, "b"]);
  assert.deepEqual(core.roomHeard("a", false, null), [false, "a"]); // the first: nothing to compare
});

test("while the stream is up the timer asks only as the fallback", () => {
  const last = 1_000_000;
  assert.equal(core.timerMayPoll(true, true, last + 2000, last), false);
  assert.equal(core.timerMayPoll(true, true, last + core.FALLBACK_MS, last), true);
  assert.equal(core.timerMayPoll(true, false, last + 2000, last), true); // no stream
  assert.equal(core.timerMayPoll(false, true, last + 10, last), true); // asked by an event
});

test("signed out or refused, the stream closes for good and the page's poll says why", () => {
  assert.deepEqual(core.afterEvent("version", false), [true, true, false]);
  assert.deepEqual(core.afterEvent("gone", false), [false, false, true]); // signed out, link revoked
  assert.deepEqual(core.afterEvent("error", false), [false, true, false]); // the browser reconnects
  assert.deepEqual(core.afterEvent("error", true), [false, false, false]); // refused: timers poll
});
