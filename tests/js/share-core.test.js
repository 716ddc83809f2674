// The share sheet's rules (static/js/share-core.js): when the system sheet takes the
// card as a file, what it is given, what the fallback buttons copy.
// Run by `make test` (node --test tests/js/); no build step.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const core = require("../../static/js/share-core.js");

const PROBE = { name: "prefscore-7.png", type: "image/png" };
const DATA = {
  title: "Friday pulka",
  text: "Friday pulka — Friday · Sochi\nAnna: +39\nBoris: −82\nhttps://pref.example/results/abc/",
  url: "https://pref.example/results/abc/",
};

test("the system share sheet is used only where it takes the card as a file", () => {
  const asked = [];
  const files = { share() {}, canShare(data) { asked.push(data); return true; } };
  assert.equal(core.mode(files, PROBE), "files");
  assert.deepEqual(asked, [{ files: [PROBE] }]);

  assert.equal(core.mode({ share() {}, canShare: () => false }, PROBE), "fallback"); // no files
  assert.equal(core.mode({ share() {} }, PROBE), "fallback"); // no canShare: older browsers
  assert.equal(core.mode({}, PROBE), "fallback"); // desktop Firefox, plain http
  assert.equal(core.mode(undefined, PROBE), "fallback");
  const throwing = { share() {}, canShare() { throw new TypeError("bad"); } };
  assert.equal(core.mode(throwing, PROBE), "fallback");
});

test("the share sheet gets the card, the title, the text and the link once", () => {
  const file = { name: "prefscore-7.png" };
  const given = core.payload(DATA, file);
  assert.deepEqual(given.files, [file]);
  assert.equal(given.title, "Friday pulka");
  assert.equal(given.url, DATA.url);
  assert.equal(given.text, "Friday pulka — Friday · Sochi\nAnna: +39\nBoris: −82");
});

test("a result not public is shared as the card and the text, without a link", () => {
  const text = "Friday pulka\nAnna: +39";
  const given = core.payload({ title: "Friday pulka", text, url: "" }, { name: "c.png" });
  assert.equal(given.text, text);
  assert.equal("url" in given, false);
});

test("the copy buttons copy the link, or the whole text with its link", () => {
  assert.equal(core.copied(DATA, "link"), DATA.url);
  assert.equal(core.copied(DATA, "text"), DATA.text);
});

test("a share the person cancelled is not a failure", () => {
  assert.equal(core.cancelled({ name: "AbortError" }), true);
  assert.equal(core.cancelled({ name: "NotAllowedError" }), false);
  assert.equal(core.cancelled(null), false);
});
