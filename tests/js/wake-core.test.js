// The screen kept awake (static/js/wake-core.js): when a lock is wanted, taken again
// after the page is shown, let go when the pulka ends or the switch is off, and nothing
// at all where the browser has no wake lock. Run by `make test` (node --test tests/js/).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const core = require("../../static/js/wake-core.js");

// A browser's wake lock: each request gives a sentinel that the test (or the browser,
// when the page is hidden) can release; every request and release is written down.
function fakeNavigator({ refuse = false } = {}) {
  const log = [];
  const sentinels = [];
  const nav = {
    wakeLock: {
      request(type) {
        log.push(`request ${type}`);
        if (refuse) return Promise.reject(new Error("NotAllowedError"));
        const listeners = [];
        const sentinel = {
          released: false,
          type,
          addEventListener(name, fn) { if (name === "release") listeners.push(fn); },
          release() {
            if (this.released) return Promise.resolve();
            this.released = true;
            log.push("release");
            listeners.forEach((fn) => fn());
            return Promise.resolve();
          },
        };
        sentinels.push(sentinel);
        return Promise.resolve(sentinel);
      },
    },
  };
  return { nav, log, sentinels };
}

const RUNNING = { running: true, enabled: true, visible: true };

function memoryStorage() {
  const values = new Map();
  return {
    getItem: (key) => (values.has(key) ? values.get(key) : null),
    setItem: (key, value) => values.set(key, String(value)),
    removeItem: (key) => values.delete(key),
  };
}

test("a lock is wanted only while the pulka runs, the switch is on and the page is shown", () => {
  assert.equal(core.wanted(RUNNING), true);
  assert.equal(core.wanted({ ...RUNNING, running: false }), false);
  assert.equal(core.wanted({ ...RUNNING, enabled: false }), false);
  assert.equal(core.wanted({ ...RUNNING, visible: false }), false);
});

test("a running pulka takes the screen lock once, however often the page asks", async () => {
  const { nav, log } = fakeNavigator();
  const keeper = core.keeper(nav);
  assert.equal(await keeper.sync(RUNNING), true);
  await keeper.sync(RUNNING);
  await keeper.sync(RUNNING);
  assert.deepEqual(log, ["request screen"]);
  assert.equal(keeper.held(), true);
});

test("the lock the browser let go when the page was hidden is taken again when it is shown", async () => {
  const { nav, log, sentinels } = fakeNavigator();
  const keeper = core.keeper(nav);
  await keeper.sync(RUNNING);
  await sentinels[0].release(); // the browser, as the page goes to the background
  assert.equal(keeper.held(), false);
  await keeper.sync({ ...RUNNING, visible: false });
  assert.deepEqual(log, ["request screen", "release"]);
  await keeper.sync(RUNNING); // visibilitychange: shown again
  assert.deepEqual(log, ["request screen", "release", "request screen"]);
  assert.equal(keeper.held(), true);
});

test("the lock is let go when the pulka ends, and when the switch is turned off", async () => {
  const { nav, log } = fakeNavigator();
  const keeper = core.keeper(nav);
  await keeper.sync(RUNNING);
  await keeper.sync({ ...RUNNING, running: false });
  assert.deepEqual(log, ["request screen", "release"]);
  assert.equal(keeper.held(), false);

  await keeper.sync(RUNNING);
  await keeper.sync({ ...RUNNING, enabled: false });
  assert.deepEqual(log, ["request screen", "release", "request screen", "release"]);
});

test("a lock answered after it stopped being wanted is let go at once", async () => {
  const { nav, log } = fakeNavigator();
  const keeper = core.keeper(nav);
  const asked = keeper.sync(RUNNING);
  await keeper.sync({ ...RUNNING, running: false }); // the pulka ended while asking
  assert.equal(await asked, false);
  assert.deepEqual(log, ["request screen", "release"]);
  assert.equal(keeper.held(), false);
});

test("a refused request leaves no lock, says nothing, and is tried again at the next sync", async () => {
  const { nav, log } = fakeNavigator({ refuse: true });
  const keeper = core.keeper(nav);
  assert.equal(await keeper.sync(RUNNING), false);
  assert.equal(await keeper.sync(RUNNING), false);
  assert.deepEqual(log, ["request screen", "request screen"]);
});

test("without a wake lock (plain http) nothing is asked and nothing throws", async () => {
  assert.equal(core.supported({}), false);
  assert.equal(core.supported(undefined), false);
  assert.equal(core.supported(fakeNavigator().nav), true);
  const keeper = core.keeper({});
  assert.equal(await keeper.sync(RUNNING), false);
  assert.equal(keeper.held(), false);
});

test("the switch is on by default and its choice is remembered", () => {
  const storage = memoryStorage();
  assert.equal(core.enabled(storage), true);
  core.remember(storage, false);
  assert.equal(storage.getItem(core.KEY), "off");
  assert.equal(core.enabled(storage), false);
  core.remember(storage, true);
  assert.equal(core.enabled(storage), true);
  const broken = { getItem() { throw new Error("denied"); }, setItem() { throw new Error("denied"); } };
  assert.equal(core.enabled(broken), true);
  core.remember(broken, false); // does not throw
});
