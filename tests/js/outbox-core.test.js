// The outbox's rules (static/js/outbox-core.js): order, backoff, what an answer means,
// replays, a race, signing out, and an entry that would replace a waiting one.
// Run by `make test` (node --test tests/js/); no build step.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const core = require("../../static/js/outbox-core.js");

const PULKA = "/pulkas/7/";
const RECORD = "/pulkas/7/deals/";

function deal(id, number, extra = {}) {
  return { id, url: RECORD, pulka: PULKA, user: "5", state: "waiting", params: [["number", String(number)]], ...extra };
}

test("the wait before the next try grows from 2 s to 30 s and stays there", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 50].map(core.backoff), [2000, 5000, 10000, 20000, 30000, 30000, 30000]);
  assert.equal(core.backoff(-1), 2000);
  assert.equal(core.LATE, 20000);
});

test("an entry stored again keeps its place and when it was first entered", () => {
  let [list] = core.upsert([], deal("a", 3), "5", "T1");
  [list] = core.upsert(list, deal("b", 4), "5", "T2");
  const [again, stored] = core.upsert(list, { ...deal("a", 3), label: "Deal 3" }, "5", "T3");

  assert.deepEqual(again.map((e) => e.id), ["a", "b"]);
  assert.equal(stored.at, "T1");
  assert.equal(stored.label, "Deal 3");
  assert.equal(list[0].label, undefined); // the list given is not changed
});

test("a new entry belongs to the account signed in and waits", () => {
  const [, stored] = core.upsert([], { id: "a", url: RECORD, pulka: PULKA, params: [] }, "5", "T1");
  assert.equal(stored.user, "5");
  assert.equal(stored.state, "waiting");
});

test("an entry waits for the older entries of its pulka, not for another pulka's", () => {
  const list = [deal("a", 3), deal("b", 4), { ...deal("c", 9), pulka: "/pulkas/8/" }];

  assert.equal(core.olderWaiting(list, "b", PULKA, "5", {}), true);
  assert.equal(core.olderWaiting(list, "c", "/pulkas/8/", "5", {}), false);
  assert.equal(core.olderWaiting(list, "b", PULKA, "5", { a: true }), false); // a is on its way
  assert.equal(core.olderWaiting([deal("a", 3, { state: "refused" })], "b", PULKA, "5", {}), false);
});

test("what an answer means", () => {
  assert.equal(core.outcome({ status: 200 }), "sent"); // carried out, or a replay of it
  assert.equal(core.outcome({ status: 0 }), "failed");
  assert.equal(core.outcome({ status: 502 }), "failed");
  assert.equal(core.outcome({ status: 503 }), "failed"); // a copy still running: later
  assert.equal(core.outcome({ status: 409, conflict: "3" }), "conflict");
  assert.equal(core.outcome({ status: 409 }), "refused"); // a finished pulka
  assert.equal(core.outcome({ status: 422 }), "refused");
  assert.equal(core.outcome({ status: 200, signedOut: true }), "expired");
});

function round(list, answers, stored = new Map(list.map((e) => [e.id, e]))) {
  const sent = [];
  const due = (entry, held) => entry.state === "waiting" && !held[entry.pulka];
  const send = (entry) => {
    sent.push(entry.id);
    const result = answers[entry.id] || "sent";
    if (result === "sent") stored.delete(entry.id);
    if (result === "conflict") stored.set(entry.id, { ...entry, state: "conflict" });
    return Promise.resolve(result);
  };
  const waiting = [...stored.values()].filter((e) => e.state === "waiting" || e.state === "conflict");
  return core.sendRound(waiting, (id) => stored.get(id) || null, due, send).then((result) => ({ result, sent, stored }));
}

test("a round sends the entries in the order they were entered, one at a time", async () => {
  const { result, sent, stored } = await round([deal("a", 3), deal("b", 4), deal("c", 5)], {});
  assert.equal(result, "done");
  assert.deepEqual(sent, ["a", "b", "c"]);
  assert.equal(stored.size, 0);
});

test("a failure ends the round: the later entries wait for the next, in order", async () => {
  const { result, sent, stored } = await round([deal("a", 3), deal("b", 4)], { a: "failed" });
  assert.equal(result, "failed");
  assert.deepEqual(sent, ["a"]);
  assert.deepEqual([...stored.keys()], ["a", "b"]);
});

test("an expired session ends the round and keeps every entry", async () => {
  const { result, sent, stored } = await round([deal("a", 3), deal("b", 4)], { a: "expired" });
  assert.equal(result, "expired");
  assert.deepEqual(sent, ["a"]);
  assert.equal(stored.size, 2);
});

test("a race lost holds the pulka's later entries until the player chooses; others go", async () => {
  const other = { ...deal("x", 1), pulka: "/pulkas/8/", url: "/pulkas/8/deals/" };
  const { result, sent, stored } = await round([deal("a", 3), deal("b", 4), other], { a: "conflict" });
  assert.equal(result, "done");
  assert.deepEqual(sent, ["a", "x"]); // b waits behind the choice about a
  assert.equal(stored.get("a").state, "conflict");
  assert.ok(stored.has("b"));
});

test("an entry whose answer was lost is sent again, and leaves once answered", async () => {
  // The first try reached the server but its answer never came ("failed"); the server
  // answers the copy as its success (a replay, by the client id): it leaves, once.
  const lost = await round([deal("a", 3), deal("b", 4)], { a: "failed" });
  const again = await round([], {}, lost.stored);
  const after = await round([], {}, again.stored);

  assert.deepEqual(lost.sent, ["a"]);
  assert.deepEqual(again.sent, ["a", "b"]); // the same entry, then the next in order
  assert.deepEqual(after.sent, []);
  assert.equal(after.stored.size, 0);
});

test("an entry for a deal already waiting is found, and the next free number past all", () => {
  const list = [deal("a", 3), deal("b", 4), deal("c", 5, { state: "refused" })];

  assert.equal(core.sameDeal(list, PULKA, RECORD, 3, "5", "new").id, "a");
  assert.equal(core.sameDeal(list, PULKA, RECORD, "4", "5", "new").id, "b");
  assert.equal(core.sameDeal(list, PULKA, RECORD, 3, "5", "a"), null); // itself
  assert.equal(core.sameDeal(list, PULKA, RECORD, 5, "5", "new"), null); // refused: not waiting
  assert.equal(core.sameDeal(list, PULKA, RECORD, 3, "6", "new"), null); // another account's
  assert.equal(core.nextFreeNumber(list, PULKA, RECORD, 3, "5"), 5);
  assert.equal(core.nextFreeNumber(list, PULKA, RECORD, 9, "5"), 9);
});

test("signing out counts what stays unsent; the next account sees none of it", () => {
  const list = [deal("a", 3), deal("b", 4, { state: "conflict" }), deal("c", 5, { state: "refused" }), deal("d", 6, { user: "9" })];

  assert.equal(core.unsent(list, "5"), 2);
  assert.equal(core.unsent(list, "9"), 1);
  assert.deepEqual(core.mine(list, "9").map((e) => e.id), ["d"]);
  assert.deepEqual(core.pending(list, "9").map((e) => e.id), ["d"]);
  assert.equal(core.mine(list, "").length, 4); // nobody signed in: the page asks to sign in
});

test("an entry sent by another tab during the round is not sent again", async () => {
  const list = [deal("a", 3), deal("b", 4)];
  const stored = new Map(list.map((e) => [e.id, e]));
  const sent = [];
  const send = (entry) => {
    sent.push(entry.id);
    stored.delete(entry.id);
    stored.delete("b"); // meanwhile another tab sent b: it is gone from the store
    return Promise.resolve("sent");
  };
  const due = (entry, held) => core.due(entry, held, {}, PULKA, false);
  const result = await core.sendRound(list, (id) => stored.get(id) || null, due, send);

  assert.equal(result, "done");
  assert.deepEqual(sent, ["a"]);
});

test("a round skips an entry in flight and a held pulka; a race lost is asked on its own page once", () => {
  const waiting = deal("a", 3);
  const lost = deal("b", 4, { state: "conflict" });

  assert.equal(core.due(waiting, {}, {}, "/", false), true);
  assert.equal(core.due(waiting, {}, { a: true }, "/", false), false); // a try is in flight
  assert.equal(core.due(waiting, { [PULKA]: true }, {}, "/", false), false); // a choice first
  assert.equal(core.due(lost, {}, {}, PULKA, false), true); // asked on its pulka's page
  assert.equal(core.due(lost, {}, {}, "/pulkas/8/", false), false); // not elsewhere
  assert.equal(core.due(lost, {}, {}, PULKA, true), false); // the question is shown already
  assert.equal(core.due(deal("c", 5, { state: "refused" }), {}, {}, PULKA, false), false);
});
