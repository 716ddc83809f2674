/* prefscore's outbox, its rules without a page (docs/design.md, "Never lose a deal"):
   which entries wait and in what order, how long to wait before trying again, what an
   answer means, which entry would replace another. outbox.js (the page's outbox) and
   network.js (the table's forms) use them through window.prefscoreOutboxCore; the tests
   (tests/js/, node --test) require this file. No build step: one file, both ways. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.prefscoreOutboxCore = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var BACKOFF = [2000, 5000, 10000, 20000, 30000]; // ms before the next try, try after try
  var LATE = 20000; // ms without an answer before a request is given up (tried again later)

  // The wait before the try after ``tries`` failed ones.
  function backoff(tries) {
    return BACKOFF[Math.min(Math.max(tries, 0), BACKOFF.length - 1)];
  }

  // The entries of ``user`` (all of them when nobody is signed in: the page says to sign in).
  function mine(list, user) {
    return list.filter(function (entry) { return !user || entry.user === user; });
  }

  // Entries still to be sent or to be chosen about, in the order they were entered.
  function pending(list, user) {
    return list.filter(function (entry) {
      return entry.user === user && (entry.state === "waiting" || entry.state === "conflict");
    });
  }

  // ``entry`` stored: a new one at the end, a known one (its id) updated where it is,
  // keeping when it was first entered. Returns [the new list, the entry as stored].
  function upsert(list, entry, user, now) {
    var stored = Object.assign({}, entry);
    stored.user = stored.user || user;
    stored.at = stored.at || now;
    stored.state = stored.state || "waiting";
    var at = -1;
    list.forEach(function (kept, index) { if (kept.id === stored.id) at = index; });
    var next = list.slice();
    if (at < 0) next.push(stored);
    else next[at] = stored = Object.assign({}, list[at], stored, { at: list[at].at });
    return [next, stored];
  }

  // Whether an older entry of the same pulka still has to go first: entries arrive in
  // the order they were entered. ``inFlight``: ids being sent by a form right now.
  function olderWaiting(list, id, pulka, user, inFlight) {
    return list.some(function (entry) {
      return entry.id !== id && entry.pulka === pulka && entry.user === user &&
        (entry.state === "waiting" || entry.state === "conflict") && !(inFlight && inFlight[entry.id]);
    });
  }

  function param(entry, name) {
    var found = (entry.params || []).filter(function (pair) { return pair[0] === name; })[0];
    return found ? found[1] : null;
  }

  // A deal of this pulka with this number, entered before and still on this phone
  // (waiting, or a choice to make): an entry for the same number would replace it, so
  // the player is asked first. ``url``: where the entry posts (recording a deal).
  function sameDeal(list, pulka, url, number, user, exceptId) {
    return list.filter(function (entry) {
      return entry.id !== exceptId && entry.pulka === pulka && entry.url === url &&
        entry.user === user && (entry.state === "waiting" || entry.state === "conflict") &&
        String(param(entry, "number")) === String(number);
    })[0] || null;
  }

  // The first deal number after every deal of this pulka still on this phone.
  function nextFreeNumber(list, pulka, url, number, user) {
    var next = Number(number);
    list.forEach(function (entry) {
      if (entry.pulka !== pulka || entry.url !== url || entry.user !== user) return;
      if (entry.state !== "waiting" && entry.state !== "conflict") return;
      var taken = Number(param(entry, "number"));
      if (taken >= next) next = taken + 1;
    });
    return next;
  }

  // What an answer means for the entry sent: "expired" (the session is gone: kept until
  // the player signs in), "failed" (no answer that counts: kept, sent again later),
  // "sent" (carried out, or answered as a replay: it leaves), "conflict" (another
  // device's deal of that number: the player chooses), "refused" (for good: listed).
  function outcome(answer) {
    if (answer.signedOut) return "expired";
    if (!answer.status || answer.status >= 500) return "failed";
    if (answer.status >= 200 && answer.status < 300) return "sent";
    if (answer.conflict) return "conflict";
    return "refused";
  }

  // One round of sending: each entry of ``entries`` in order, one at a time. A pulka
  // with a choice to make holds its later entries back; a failure or an expired
  // session ends the round (the rest wait for the next). ``find(id)``: the entry as
  // stored now (null once gone); ``due(entry, held)``: whether to send it now;
  // ``send(entry)``: a promise of its outcome. Resolves to "done", "failed" or "expired".
  function sendRound(entries, find, due, send) {
    var held = {};
    var queue = entries.slice();
    function next() {
      var entry = queue.shift();
      if (!entry) return Promise.resolve("done");
      var kept = find(entry.id);
      if (!kept || !due(kept, held)) {
        if (kept && kept.state === "conflict") held[kept.pulka] = true;
        return next();
      }
      return Promise.resolve(send(kept)).then(function (result) {
        if (result === "failed" || result === "expired") return result;
        if (result === "conflict") held[kept.pulka] = true;
        return next();
      });
    }
    return next();
  }

  // Whether a round sends ``entry`` now: not while a try of it is in flight (another
  // round's, another tab's), nor while its pulka waits for a choice (``held``); a
  // waiting entry goes; a race lost is asked again only on its pulka's page
  // (``here``: the page's path) and only when the question is not shown already.
  function due(entry, held, inFlight, here, shown) {
    if (inFlight[entry.id] || held[entry.pulka]) return false;
    if (entry.state === "waiting") return true;
    return entry.state === "conflict" && entry.pulka === here && !shown;
  }

  // How many of the user's entries a sign-out leaves on this phone unsent.
  function unsent(list, user) {
    return pending(list, user).length;
  }

  return {
    BACKOFF: BACKOFF,
    LATE: LATE,
    backoff: backoff,
    mine: mine,
    pending: pending,
    upsert: upsert,
    olderWaiting: olderWaiting,
    sameDeal: sameDeal,
    nextFreeNumber: nextFreeNumber,
    outcome: outcome,
    sendRound: sendRound,
    due: due,
    unsent: unsent,
  };
});
