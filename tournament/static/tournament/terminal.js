// The table terminal (issue 57; docs/terminal.md): one step at a time, as a Bridgemate.
// The hand and who deals → who went out and how → the deadwood on a keypad (or the cards)
// → the engine's reading in words → each player approves (a tap, or a PIN) → the next
// hand; at the end each player signs. "Back" goes one step back; from an approval it goes
// back to the reading, and saving again makes a new version.
//
// Nothing here decides a rule: the reading is the server's (views/terminal.py, the
// engine's), a save and a tap approval are the entry page's forms sent through the same
// queue (entry_queue.js: kept while offline, sent in order, refusals in words), and a PIN
// approval or a signature goes to the server at once, as on the entry page. What the
// server holds of each hand is in the hands' box (data-…), read again after every save.
(function () {
  "use strict";
  const done = document.getElementById("step-done");
  if (done) {
    // Signed: where each player goes next, looked at again until every one has a table.
    if (done.dataset.poll) setTimeout(function () { window.location.reload(); }, 20000);
    return;
  }
  const hands = document.querySelector(".hands[data-terminal]");
  if (!hands || document.querySelector(".term-main > .message-warning[role=status]")) return;
  const text = hands.dataset;
  const pin = text.pin === "1";
  const count = Number(text.hands);
  const main = document.getElementById("main");
  const status = document.getElementById("queue-status");

  let hand = 0;  // the hand on the screen (0: every hand approved)
  let entry = {};  // what is typed for it
  let steps = [];  // the steps taken to here, for "Back"
  let correcting = false;  // a saved hand typed again
  let keypad = null;  // the keypad's purpose: a field of the entry, or a PIN
  let digits = "";
  let signing = null;  // {revision, signed, totals} read from the server before signing
  let reading = false;  // the signatures are being read
  let shown = null;  // the step on the screen
  let held = false;  // the hand's commands wait for a choice in the queue's words
  const saved = {};  // hand → {token, reading, entry}: saves made on this screen
  // hand → seat → what it approved here (sent, or kept to be sent): "v:<version>", or
  // "t:<token>" of a save of this device the server did not hold yet.
  const approvedHere = {};

  function el(id) { return document.getElementById(id); }

  function words(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_all, name) { return values[name]; });
  }

  function name(seat) { return hands.getAttribute("data-seat-" + seat); }

  function uuid() {
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const hex = Array.from(b, function (x) { return x.toString(16).padStart(2, "0"); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" +
      hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function csrf() {
    const cookieName = (text.csrfCookie || "csrftoken") + "=";
    const cookie = document.cookie.split("; ").find(function (c) { return c.startsWith(cookieName); });
    if (cookie) return decodeURIComponent(cookie.slice(cookieName.length));
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  // What the server holds ----------------------------------------------------------------
  function box(h) { return el("hand-" + h); }

  function confirmed(h) {
    // A save made here that the server holds (or none made here). A later version on the
    // server than the one it was typed over, not its own: the server's is the hand now
    // (a save of this device still kept would be held as changed meanwhile).
    if (!saved[h] || box(h).dataset.token === saved[h].token) return true;
    // An earlier save of this screen, stored while the later one is on its way: not the
    // hand now.
    if (saved[h].earlier.includes(box(h).dataset.token)) return false;
    if (Number(box(h).dataset.version) > saved[h].over) {
      delete saved[h];
      return true;
    }
    return false;
  }

  function approvedSeats(h) {
    // The seats that approved the hand as it is now: on the server, or here.
    const seats = new Set();
    const b = box(h);
    const held = confirmed(h);
    const now = held ? ["v:" + b.dataset.version, "t:" + b.dataset.token] : ["t:" + saved[h].token];
    (approvedHere[h] || new Map()).forEach(function (mark, seat) {
      if (now.includes(mark)) seats.add(seat);
    });
    if (held) {
      (b.dataset.approved || "").trim().split(/\s+/).filter(Boolean)
        .forEach(function (seat) { seats.add(Number(seat)); });
    }
    return seats;
  }

  function approve(h, seat, values) {
    const mark = values.entry_token ? "t:" + values.entry_token : "v:" + values.version;
    (approvedHere[h] = approvedHere[h] || new Map()).set(seat, mark);
  }

  function hasResult(h) { return Boolean(saved[h] || box(h).dataset.token); }

  function waiting() { return status && status.classList.contains("pending"); }

  function heldBack(h) {
    // A command of the hand the queue holds for the scorer's choice (entry_queue.js).
    return box(h).querySelector(".queue-conflict, .queue-refused");
  }

  function currentHand() {
    for (let h = 1; h <= count; h += 1) {
      if (approvedSeats(h).size < 2 || heldBack(h)) return h;  // a refusal brings it back
    }
    return 0;
  }

  // The screen ---------------------------------------------------------------------------
  function show(step) {
    shown = step;
    main.querySelectorAll(".term-step").forEach(function (section) { section.hidden = true; });
    const section = el("step-" + step.name);
    section.hidden = false;
    ({ who: showWho, keypad: showKeypad, cards: showCards, reading: showReading })[step.name]
      ?.(step);
  }

  function go(step) {
    steps.push(step);
    show(step);
  }

  function render() {
    const h = currentHand();
    if (h !== hand) {
      hand = h;
      entry = {};
      steps = [];
      correcting = false;
      keypad = null;
    }
    hands.querySelectorAll(".hand").forEach(function (b) {
      const n = Number(b.dataset.hand);
      b.classList.toggle("current", n === h);
      b.classList.toggle("previous", n === (h || count + 1) - 1);
    });
    const totals = (el("signatures").dataset.totals || "").split(" ");
    document.querySelectorAll(".term-total").forEach(function (t, i) {
      if (totals[i] !== undefined && totals[i] !== "") t.textContent = totals[i];
    });
    el("term-hand-title").textContent = h ? "· " + words(text.handTitle, { hand: h, hands: count }) : "";
    held = Boolean(h && heldBack(h));
    if (held) {
      // The queue asks the scorer first (changed meanwhile, or refused): its choice alone.
      main.querySelectorAll(".term-step").forEach(function (section) { section.hidden = true; });
    } else if (!h) {
      signPhase();
    } else if (hasResult(h) && !correcting) {
      approvePhase(h);
    } else if (keypad && keypad.pin) {
      keypad = null;
      steps = [{ name: "who" }];
      show(steps[0]);
    } else {
      if (!steps.length) steps = [{ name: "who" }];
      const step = steps[steps.length - 1];
      // Shown already (the server's view of another hand came back): left as it is, with
      // the digits typed so far.
      if (step !== shown || el("step-" + step.name).hidden) show(step);
    }
  }

  // Who went out, and how ---------------------------------------------------------------
  function showWho() {
    const dealer = Number(box(hand).dataset.dealer);
    el("who-deal").textContent = words(text.deals, { hand: hand, seat: dealer, name: name(dealer) });
    const note = el("who-false");
    note.hidden = !entry.falseSeat;
    note.textContent = entry.falseSeat
      ? words(text.falseNote, { seat: entry.falseSeat, deadwood: entry.falseDeadwood }) : "";
  }

  function declare(outcome, seat) {
    entry.outcome = outcome;
    entry.seat = seat ? Number(seat) : null;
    entry.cards = null;
    if (outcome === "draw") {
      entry.mine = entry.theirs = "";
      go({ name: "reading" });
    } else if (outcome === "knock") {
      go({ name: "keypad", field: "mine" });
    } else {
      entry.mine = "";
      go({ name: "keypad", field: "theirs" });
    }
  }

  // The keypad: a deadwood, or a PIN -------------------------------------------------------
  function showKeypad(step) {
    keypad = step;
    entry.cards = null;
    digits = step.pin ? "" : String(entry[step.field] ?? "");
    const seat = step.field === "mine" ? entry.seat
      : step.field === "theirs" ? 3 - entry.seat : entry.falseSeat;
    const ask = step.pin ? step.ask
      : step.field === "mine" ? text.askDeclarer
        : step.field === "falseDeadwood" ? text.askFalse
          : entry.outcome === "knock" ? text.askOpponent : text.askOpponentGin;
    el("keypad-q").textContent = step.pin ? ask : words(ask, { seat: seat, name: name(seat) });
    const context = el("keypad-context");
    context.hidden = !step.context;
    context.textContent = step.context || "";
    // A false knock is entered by the counts alone (services.cards).
    el("keypad-cards").hidden = Boolean(step.pin) || step.field === "falseDeadwood" ||
      Boolean(entry.falseSeat);
    error("keypad-error", step.error || "");
    step.error = "";
    showDigits();
  }

  function showDigits() {
    el("keypad-value").textContent = keypad && keypad.pin ? "•".repeat(digits.length) : digits;
    el("keypad-ok").disabled = !digits.length;
  }

  function key(digit) {
    if (digit === "del") digits = digits.slice(0, -1);
    else if (digits.length < (keypad.pin ? 12 : 3)) digits += digit;
    showDigits();
  }

  function keypadOk() {
    if (!digits.length) return;
    if (keypad.pin) {
      keypad.done(digits);
      return;
    }
    entry[keypad.field] = String(Number(digits));
    if (keypad.field === "mine") {
      go({ name: "keypad", field: "theirs" });
    } else if (keypad.field === "theirs") {
      go({ name: "reading" });
    } else {  // a false knock's deadwood: back to who went out
      steps = [{ name: "who" }];
      keypad = null;
      show(steps[0]);
    }
  }

  function error(id, message) {
    const node = el(id);
    node.hidden = !message;
    node.textContent = message || "";
  }

  // The cards instead ---------------------------------------------------------------------
  function showCards() {
    el("cards-declarer-label").textContent = words(text.cardsDeclarer,
      { seat: entry.seat, name: name(entry.seat) });
    el("cards-opponent-label").textContent = words(text.cardsOpponent,
      { seat: 3 - entry.seat, name: name(3 - entry.seat) });
  }

  // The engine's reading -------------------------------------------------------------------
  function fields() {
    const p = "h" + hand + "-";
    const cards = entry.cards || {};
    return [[p + "outcome", entry.outcome], [p + "declarer_seat", entry.seat || ""],
      [p + "declarer_deadwood", cards.declarer ? "" : entry.mine || ""],
      [p + "opponent_deadwood", cards.declarer ? "" : entry.theirs || ""],
      [p + "false_knock_seat", entry.falseSeat || ""],
      [p + "false_knock_deadwood", entry.falseSeat ? entry.falseDeadwood : ""],
      [p + "declarer_cards", cards.declarer || ""], [p + "opponent_cards", cards.opponent || ""],
      [p + "declarer_melds", ""]];
  }

  function typed() {
    // What was typed, in words, for when the engine cannot be asked (no network).
    const values = { declarer: entry.seat, opponent: 3 - entry.seat, mine: entry.mine,
      theirs: entry.theirs };
    const template = entry.cards ? text.typedCards
      : { knock: text.typedKnock, gin: text.typedGin, big_gin: text.typedBigGin,
        draw: text.typedDraw }[entry.outcome];
    const before = entry.falseSeat
      ? words(text.falseNote, { seat: entry.falseSeat, deadwood: entry.falseDeadwood }) + " " : "";
    return before + words(template, values);
  }

  async function showReading() {
    const asked = hand;
    entry.reading = typed();
    el("reading-words").textContent = "…";
    el("reading-line").textContent = "";
    error("reading-error", "");
    el("reading-save").disabled = true;
    const body = new URLSearchParams(fields());
    body.set("h" + hand + "-seen_version", box(hand).dataset.version);
    body.set("h" + hand + "-request_token", uuid());
    body.set("csrfmiddlewaretoken", csrf());
    let answer = null;
    if (navigator.onLine) {
      try {
        const response = await fetch(text.readingUrl.replace("/hands/1/", "/hands/" + hand + "/"),
          { method: "POST", body: body, credentials: "same-origin", redirect: "manual",
            headers: { "Accept": "application/json" } });
        if (response.ok) answer = await response.json();
      } catch (failure) { answer = null; }
    }
    if (asked !== hand || el("step-reading").hidden) return;  // moved on meanwhile
    if (answer && answer.error) {
      el("reading-words").textContent = entry.reading;
      error("reading-error", answer.error);
      return;  // not saved as typed: back, and correct it
    }
    if (answer) {
      entry.reading = answer.reading;
      el("reading-words").textContent = answer.reading;
      el("reading-line").textContent = answer.line;
    } else {
      el("reading-words").textContent = entry.reading;
      el("reading-line").textContent = navigator.onLine ? text.noReading : text.offline;
    }
    el("reading-save").disabled = false;
  }

  function save() {
    const b = box(hand);
    const form = b.querySelector("form.term-save");
    const token = uuid();
    const values = new Map(fields());
    values.set("h" + hand + "-seen_version", b.dataset.version);
    values.set("h" + hand + "-request_token", token);
    form.querySelectorAll("input[type=hidden]").forEach(function (input) {
      if (values.has(input.name)) input.value = values.get(input.name);
    });
    form.dataset.words = typed();
    const before = saved[hand];
    saved[hand] = { token: token, reading: entry.reading, entry: Object.assign({}, entry),
      over: Number(b.dataset.version),
      earlier: before ? before.earlier.concat([before.token]) : [] };
    approvedHere[hand] = new Map();
    correcting = false;
    steps = [];
    form.requestSubmit();  // to the queue (entry_queue.js), as the entry page's save
    render();
  }

  // Approvals -----------------------------------------------------------------------------
  function readingOf(h) {
    return saved[h] && !confirmed(h) ? saved[h].reading : box(h).dataset.reading || saved[h].reading;
  }

  function approvePhase(h) {
    const seat = [1, 2].find(function (s) { return !approvedSeats(h).has(s); });
    const ask = words(text.handTo, { seat: seat, name: name(seat) });
    if (pin) {
      if (keypad && keypad.pin && keypad.kind === "approve" && keypad.seat === seat &&
          !el("step-keypad").hidden) return;
      show({ name: "keypad", pin: true, kind: "approve", seat: seat,
        ask: words(text.pinAsk, { seat: seat, name: name(seat) }),
        context: readingOf(h) + " " + ask + ".",
        done: function (code) { pinApprove(h, seat, code); } });
      return;
    }
    keypad = null;
    main.querySelectorAll(".term-step").forEach(function (section) { section.hidden = true; });
    el("step-approve").hidden = false;
    el("approve-words").textContent = readingOf(h);
    el("approve-q").textContent = ask;
    const button = el("approve-tap");
    button.textContent = words(text.approves, { seat: seat });
    button.dataset.seat = seat;
  }

  function approvalFields(h) {
    // The version the screen shows, or the save made here that the server may not hold yet.
    const unsent = saved[h] && !confirmed(h);
    return { version: unsent ? "" : box(h).dataset.version,
      entry_token: unsent ? saved[h].token : "", request_token: uuid() };
  }

  function tapApprove() {
    const seat = Number(el("approve-tap").dataset.seat);
    const h = hand;
    const form = box(h).querySelector("form.term-approve[data-seat='" + seat + "']");
    const values = approvalFields(h);
    Object.keys(values).forEach(function (field) {
      form.querySelector("input[name=" + field + "]").value = values[field];
    });
    approve(h, seat, values);
    form.requestSubmit();  // kept and sent in order after the save (entry_queue.js)
    render();
  }

  async function post(url, values) {
    // A command that needs the server now (a PIN, a signature): its answer, or why not.
    if (!navigator.onLine) return { ok: false, error: text.needsServer };
    const body = new URLSearchParams(values);
    body.set("csrfmiddlewaretoken", csrf());
    try {
      const response = await fetch(url, { method: "POST", body: body, credentials: "same-origin",
        redirect: "manual", headers: { "Accept": "application/json" } });
      if (!response.ok) return { ok: false, error: words(text.failed, { status: response.status || 302 }) };
      return await response.json();
    } catch (failure) {
      return { ok: false, error: text.needsServer };
    }
  }

  async function sent() {
    // The hand's save still on its way (a PIN approval names the version the server
    // holds): up to ten seconds for the queue to send it, the PIN typed kept meanwhile.
    for (let tenths = 0; tenths < 100 && waiting(); tenths += 1) {
      await new Promise(function (resolve) { setTimeout(resolve, 100); });
    }
    return !waiting();
  }

  async function pinApprove(h, seat, code) {
    el("keypad-ok").disabled = true;  // one approval at a time
    if (waiting() && !(await sent())) {
      keypad.error = text.waitSent;
      show(keypad);
      return;
    }
    const form = box(h).querySelector("form.term-approve[data-seat='" + seat + "']");
    const values = Object.assign(approvalFields(h), { pin: code });
    const answer = await post(form.action, values);
    if (answer.ok) {
      approve(h, seat, values);
      keypad = null;
      render();
    } else {
      keypad.error = answer.error;
      show(keypad);
    }
  }

  function correct() {
    // Back from an approval: the reading of the hand as saved, to correct and save again.
    const b = box(hand);
    entry = saved[hand] && !confirmed(hand) ? Object.assign({}, saved[hand].entry) : {
      outcome: b.dataset.outcome, seat: Number(b.dataset.declarer) || null,
      mine: b.dataset.mine || "", theirs: b.dataset.theirs || "",
      falseSeat: Number(b.dataset.falseSeat) || null, falseDeadwood: b.dataset.falseDeadwood || "" };
    correcting = true;
    keypad = null;
    steps = [{ name: "who" }];
    if (entry.outcome === "knock") steps.push({ name: "keypad", field: "mine" });
    if (entry.outcome !== "draw") steps.push({ name: "keypad", field: "theirs" });
    steps.push({ name: "reading" });
    show(steps[steps.length - 1]);
  }

  function back() {
    if (keypad && keypad.pin) {
      if (keypad.kind === "approve") correct();
      return;
    }
    if (steps.length > 1) {
      steps.pop();
      show(steps[steps.length - 1]);
    } else if (correcting) {
      correcting = false;
      render();
    }
  }

  // Signatures ----------------------------------------------------------------------------
  async function signPhase() {
    main.querySelectorAll(".term-step").forEach(function (section) { section.hidden = true; });
    el("step-sign").hidden = false;
    if (waiting()) {
      el("sign-q").textContent = text.waitSent;
      el("sign-tap").hidden = true;
      return;  // shown again once the queue has sent it all (the hands' box is read again)
    }
    if (!signing) {
      if (reading) return;  // asked already: shown when the answer comes
      el("sign-tap").hidden = true;
      el("sign-q").textContent = "…";
      reading = true;
      signing = await readSignatures();
      reading = false;
      if (!signing) {
        el("sign-q").textContent = text.needsServer;
        setTimeout(function () { if (!hand) render(); }, 3000);
        return;
      }
    }
    const seat = [1, 2].find(function (s) { return !signing.signed.has(s); });
    if (!seat) {
      window.location.reload();  // the table is signed: where the players go next
      return;
    }
    el("sign-totals").textContent = words(text.totals, { one: signing.totals[0], two: signing.totals[1] });
    const ask = words(text.signTo, { seat: seat, name: name(seat) });
    if (pin) {
      show({ name: "keypad", pin: true, kind: "sign", seat: seat, context: ask,
        ask: words(text.pinAsk, { seat: seat, name: name(seat) }), error: signing.error,
        done: function (code) { sign(seat, code); } });
      signing.error = "";
      return;
    }
    el("sign-q").textContent = ask;
    error("sign-error", signing.error || "");
    const button = el("sign-tap");
    button.hidden = false;
    button.disabled = false;
    button.textContent = words(text.signs, { seat: seat });
    button.dataset.seat = seat;
  }

  async function readAgain(h) {
    // The hand as the server holds it now (its box replaced: shown anew by the observer).
    try {
      const response = await fetch(window.location.href, { credentials: "same-origin" });
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = page.getElementById("hand-" + h);
      if (fresh) box(h).replaceWith(document.importNode(fresh, true));
    } catch (failure) {
      render();  // no network: as it is
    }
  }

  async function readSignatures() {
    try {
      const response = await fetch(window.location.href, { credentials: "same-origin" });
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const signatures = page.getElementById("signatures");
      if (!signatures) return null;
      return { revision: signatures.dataset.revision, error: "",
        signed: new Set(signatures.dataset.signed.trim().split(/\s+/).filter(Boolean).map(Number)),
        totals: signatures.dataset.totals.split(" ") };
    } catch (failure) {
      return null;
    }
  }

  async function sign(seat, code) {
    el("sign-tap").disabled = true;  // one signature at a time
    el("keypad-ok").disabled = true;
    const values = { revision: signing.revision, request_token: uuid() };
    if (code) values.pin = code;
    const answer = await post(text.signUrl.replace("/terminal-sign/1/", "/terminal-sign/" + seat + "/"),
      values);
    if (answer.ok) {
      signing.signed.add(seat);
      const fresh = await readSignatures();  // the revision moves with each signature
      if (fresh) signing.revision = fresh.revision;
    } else {
      const fresh = await readSignatures();
      signing = fresh || signing;
      signing.error = answer.error;
    }
    keypad = null;
    signPhase();
  }

  // Taps ----------------------------------------------------------------------------------
  main.addEventListener("click", function (event) {
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    if (button.dataset.declare) declare(button.dataset.declare, button.dataset.seat);
    else if (button.dataset.digit) key(button.dataset.digit);
    else if (button.dataset.falseSeat) {
      entry.falseSeat = Number(button.dataset.falseSeat);
      go({ name: "keypad", field: "falseDeadwood" });
    } else if (button.classList.contains("term-back")) {
      if (button.id === "approve-back") correct();
      else back();
    } else {
      ({ "who-false-knock": function () { go({ name: "false" }); },
        "false-none": function () {
          entry.falseSeat = null;
          entry.falseDeadwood = "";
          steps = [{ name: "who" }];
          show(steps[0]);
        },
        "keypad-ok": keypadOk,
        "keypad-cards": function () { go({ name: "cards" }); },
        "cards-ok": function () {
          entry.cards = { declarer: el("cards-declarer").value, opponent: el("cards-opponent").value };
          go({ name: "reading" });
        },
        "reading-save": save,
        "approve-tap": tapApprove,
        "sign-tap": function () { sign(Number(button.dataset.seat)); } })[button.id]?.();
    }
  });

  // What the server holds, read again (after a save, an approval, a signature): shown anew.
  const watch = new MutationObserver(function () { render(); });
  watch.observe(hands, { childList: true });
  watch.observe(main, { childList: true });
  if (status) {
    new MutationObserver(function () {
      if (!hand || held !== Boolean(heldBack(hand)) || currentHand() !== hand) render();
    })
      .observe(status, { attributes: true, attributeFilter: ["class"] });
  }
  hands.addEventListener("queue:discarded", function (event) {
    const h = event.detail.hand;
    if (event.detail.kind === "approve") {  // that seat approves again, what the server holds
      if (approvedHere[h]) approvedHere[h].delete(event.detail.seat);
      readAgain(h);
    } else if (saved[h] && saved[h].token === event.detail.token) {
      delete saved[h];
      approvedHere[h] = new Map();
      render();
    }
  });
  hands.addEventListener("queue:retoken", function (event) {
    const h = event.detail.hand;
    if (saved[h] && saved[h].token === event.detail.old) saved[h].token = event.detail.token;
    (approvedHere[h] || new Map()).forEach(function (mark, seat, marks) {
      if (mark === "t:" + event.detail.old) marks.set(seat, "t:" + event.detail.token);
    });
  });
  render();
})();
