// The table's entry screen when the network drops (docs/results.md, "When the network
// drops"): every save and tap approval is kept in this browser until the server has
// answered it, sent in order with its own request token (the same at every try) and the
// version it was typed over, so nothing is saved twice or over a change it never saw.
//
// Nothing is ever dropped without the scorer: an answer that is not "stored" keeps the
// command, says why in words and offers the way on. Logged out (the session ended, the
// devices made again) or another account logged in on this browser: log in again and it
// is sent. The account moved to another table by a referee: send it there, or discard it,
// after a confirmation. Changed meanwhile on another device: keep mine or take theirs.
// Refused as typed: correct it and save again, or discard it. No answer (the network, the
// server restarting): tried again. A discard reaches the server as a record of its own,
// kept in the audit log (tournament/views/entry_queue.py). "All sent" is said only once
// every command is acknowledged.
//
// The queue is this account's (tournament/queue_keys.py): kept in local storage under a
// name of the account's own, encrypted with AES-GCM under a key only this account's pages
// carry, so another account's pages on this browser can neither read nor send it. No CSRF
// token is kept: each send reads the browser's current one, and names the account's queue,
// which the server checks (a command is never done as another account). Without Web
// Crypto (a plain-HTTP address other than this machine's) nothing is stored at all: the
// queue lives in the page, and leaving it asks first. Approvals with a PIN are never kept.
// Without this script the forms post as always.
//
// The table terminal (terminal.js, issue 57) sends through this same queue: its page marks
// the hands' box ``data-terminal``; a saved hand is then read again from the terminal's own
// page rather than swapped for the entry page's row, the terminal asks for the approvals
// itself, and it hears of a save discarded or sent again under a new token ("queue:…"
// events on the hands' box).
(function () {
  "use strict";
  const hands = document.querySelector(".hands[data-queue]");
  if (!hands) return;
  const text = hands.dataset;  // the page's words, in the reader's language
  const pageTable = Number(text.queue);
  const NAME = "dupgin-queue-" + text.queueName;
  const status = document.getElementById("queue-status");
  const statusWords = status.querySelector(".queue-words");
  const sendButton = status.querySelector(".queue-send");
  const login = status.querySelector(".queue-login");
  const tables = status.querySelector(".queue-tables");
  let queue = [];
  let sending = false;
  let inFlight = null;  // the command on its way to the server: never dropped or rewritten
  // "table:hand" → {version typed over: version its save made}, for the saves of this page
  // answered: the row may still show the version before (the terminal reads it again
  // after the answer), and a save typed over it here comes after this device's own.
  const savedOver = new Map();
  let retry = null;
  let sentSome = false;
  let blocked = "";  // "login" or "account": the browser's session is not this account's
  let leaving = false;  // the page is left on purpose, the queue stored
  const approved = new Set();  // hands whose approvals were sent since the last refresh
  let notice = "";  // said until the next command is added
  let keptBefore = 0;  // commands found kept when the page opened, said until one is sent

  // Kept encrypted, for this account only ----------------------------------------------
  const subtle = window.isSecureContext && window.crypto && window.crypto.subtle;
  const label = new TextEncoder().encode(NAME);  // the sealed queue is this name's alone
  const key = subtle && text.queueName && text.queueKey
    ? subtle.importKey("raw", bytes(text.queueKey), { name: "AES-GCM" }, false,
      ["encrypt", "decrypt"]).catch(function () { return null; })
    : Promise.resolve(null);

  function bytes(base64) {
    return Uint8Array.from(atob(base64), function (c) { return c.charCodeAt(0); });
  }

  function base64(buffer) {
    let binary = "";
    new Uint8Array(buffer).forEach(function (b) { binary += String.fromCharCode(b); });
    return btoa(binary);
  }

  async function seal(json) {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = await subtle.encrypt({ name: "AES-GCM", iv: iv, additionalData: label },
      await key, new TextEncoder().encode(json));
    return JSON.stringify({ v: 1, iv: base64(iv), data: base64(data) });
  }

  async function unseal(stored) {
    const box = JSON.parse(stored);
    const data = await subtle.decrypt(
      { name: "AES-GCM", iv: bytes(box.iv), additionalData: label }, await key,
      bytes(box.data));
    return JSON.parse(new TextDecoder().decode(data));
  }

  const ready = (async function () {
    if (!(await key)) return;
    const stored = localStorage.getItem(NAME);
    if (stored !== null) {
      try {
        queue = (await unseal(stored)).concat(queue);
      } catch (error) { /* not this key's (SECRET_KEY changed): unreadable, replaced */ }
    }
    adoptClear();
  })();

  function adoptClear() {
    // A queue kept in clear by this screen before it was encrypted (this table's): taken
    // into this account's queue without its CSRF token, and removed from the storage.
    const old = "dupgin-queue-" + pageTable;
    let kept = [];
    try { kept = JSON.parse(localStorage.getItem(old)) || []; } catch (error) { kept = []; }
    localStorage.removeItem(old);
    kept.forEach(function (command) {
      if (!command || !Array.isArray(command.fields)) return;
      delete command.csrf;
      command.fields = command.fields.filter(function (p) {
        return p[0] !== "csrfmiddlewaretoken";
      });
      Object.assign(command, here(), command.kind === "approve"
        ? { token: value(command.fields, "request_token") } : {});
      queue.push(command);
    });
    if (kept.length) store();
  }

  let writing = Promise.resolve();

  function store() {
    // Written in turn, each time the queue as it is then: the last write is the latest.
    writing = writing.then(function () { return ready; }).then(write)
      .catch(function () { /* the storage is full or refused: the page keeps the queue */ });
    show();
    return writing;
  }

  async function write() {
    if (!(await key)) return;  // no Web Crypto: never stored in clear, kept in the page
    if (queue.length) localStorage.setItem(NAME, await seal(JSON.stringify(queue)));
    else localStorage.removeItem(NAME);
  }

  function leave(address) {
    // Away on purpose (to log in, to the table the account was moved to): once stored.
    leaving = true;
    store().then(function () { window.location.href = address; });
  }

  // Words ------------------------------------------------------------------------------
  function words(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_all, name) { return values[name]; });
  }

  function token() {
    // crypto.randomUUID needs HTTPS; a venue's LAN may serve plain HTTP.
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const hex = Array.from(b, function (x) { return x.toString(16).padStart(2, "0"); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" +
      hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function value(fields, suffix) {
    const pair = fields.find(function (p) { return p[0].endsWith(suffix); });
    return pair ? pair[1] : "";
  }

  function here() {
    // Where a command made on this page goes, and whom the server asks about it.
    return { table: pageTable, tableNumber: Number(text.queueTableNumber),
      statusUrl: text.queueStatus, discardUrl: text.queueDiscard };
  }

  function waitingChoice(command) { return Boolean(command.held || command.conflict); }

  function show() {
    const choosing = queue.filter(waitingChoice).length;
    const pending = queue.length - choosing;
    let line = "";
    if (blocked) {
      line = words(blocked === "login" ? text.loggedOut : text.otherAccount,
        { account: text.queueAccount });
    } else if (queue.length) {
      if (pending) {
        line = words(text.notSent, { n: pending }) + (navigator.onLine ? "" : " " + text.offline);
      }
      if (choosing) line += " " + words(text.held, { n: choosing });
    } else {
      line = text.allSent;
    }
    if (keptBefore && !sentSome) line = words(text.fromBefore, { n: keptBefore }) + " " + line;
    if (notice) line = notice + " " + (queue.length || blocked ? line : "");
    status.hidden = !queue.length && !sentSome && !notice && !blocked;
    status.classList.toggle("pending", queue.length > 0);
    status.classList.toggle("message-warning", Boolean(notice || blocked || choosing));
    statusWords.textContent = line.trim();
    login.hidden = !blocked;
    sendButton.hidden = !queue.length || sending;
    hands.querySelectorAll(".queued-note").forEach(function (note) { note.remove(); });
    tables.textContent = "";
    showMoved();
    queue.forEach(function (command) {
      if (command.kind === "discard") return;
      if (command.table === pageTable) {
        const row = rowOf(command.hand);
        if (row) markRow(row, command);
      } else if (!(command.held && command.held.why === "moved")) {  // in its table's box
        markElsewhere(command);
      }
    });
  }

  // What a row shows of its commands not sent yet ----------------------------------------
  function rowOf(hand) { return document.getElementById("hand-" + hand); }

  function noteIn(container) {
    let note = container.querySelector(".queued-note");
    if (!note) {
      note = document.createElement("div");
      note.className = "queued-note";
      note.setAttribute("role", "status");
      container.appendChild(note);
    }
    return note;
  }

  function markRow(row, command) {
    const note = noteIn(row);
    describeIn(note, command);
    if (command.kind === "enter" && !waitingChoice(command) && text.pin !== "1" &&
        !text.terminal) {
      [1, 2].forEach(function (seat) {
        if (queue.some(function (c) {
          return c.kind === "approve" && c.entryToken === command.token && c.seat === seat;
        })) return;
        const button = document.createElement("button");
        button.type = "button";
        button.className = "small queued-approve";
        button.textContent = words(text.approves, { seat: seat });
        button.addEventListener("click", function () {
          const request = token();
          add(Object.assign(here(), { kind: "approve", hand: command.hand, seat: seat,
            url: command.approveUrl.replace(/\/0\/$/, "/" + seat + "/"),
            entryToken: command.token, token: request,
            fields: [["request_token", request], ["entry_token", command.token]],
            words: words(text.approves, { seat: seat }) }));
        });
        note.appendChild(button);
      });
    }
  }

  function markElsewhere(command) {
    // A command kept for another table than this page's (a referee's, say).
    const item = document.createElement("div");
    item.className = "queued-elsewhere";
    const where = document.createElement("p");
    where.textContent = words(text.otherTable,
      { table: command.tableNumber, hand: command.hand });
    item.appendChild(where);
    tables.appendChild(item);
    describeIn(noteIn(item), command);
  }

  function describeIn(note, command) {
    const line = document.createElement("p");
    line.textContent = command.kind === "enter"
      ? words(text.enterQueued, { words: command.words })
      : words(text.approvalQueued, { seat: command.seat });
    note.appendChild(line);
    if (command.conflict) conflict(note, command);
    else if (command.held && command.held.why !== "moved") refused(note, command);
  }

  function refused(note, command) {
    const box = document.createElement("div");
    box.className = "queue-refused message message-warning";
    box.setAttribute("role", "alert");
    const why = document.createElement("p");
    why.textContent = words(command.kind === "enter" ? text.refusedEnter : text.refusedApproval,
      { why: command.held.text });
    box.appendChild(why);
    box.appendChild(discardButton(command));
    note.appendChild(box);
  }

  function discardButton(command) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "small queue-discard";
    button.textContent = text.discard;
    button.addEventListener("click", function () {
      if (!window.confirm(words(text.confirmDiscard, { what: command.words }))) return;
      discard(command, command.held ? command.held.why : "other");
      store();
      flush();
    });
    return button;
  }

  function showMoved() {
    // The tables whose commands wait because this account was moved: one box each.
    const moved = new Map();
    queue.forEach(function (command) {
      if (command.kind === "discard" || !command.held || command.held.why !== "moved") return;
      const group = moved.get(command.table) ||
        { number: command.tableNumber, to: command.held.to, commands: [] };
      group.commands.push(command);
      moved.set(command.table, group);
    });
    moved.forEach(function (group, from) {
      const values = { from: group.number, to: group.to.number, n: group.commands.length };
      const box = document.createElement("div");
      box.className = "queue-moved message message-warning";
      box.setAttribute("role", "alert");
      const what = document.createElement("p");
      what.textContent = words(text.moved, values);
      const send = document.createElement("button");
      send.type = "button";
      send.className = "primary small";
      send.textContent = words(text.sendTo, values);
      send.addEventListener("click", function () {
        if (window.confirm(words(text.confirmSendTo, values))) moveTo(from, group.to);
      });
      const drop = document.createElement("button");
      drop.type = "button";
      drop.className = "small";
      drop.textContent = text.discardAll;
      drop.addEventListener("click", function () {
        if (!window.confirm(words(text.confirmDiscardAll, values))) return;
        group.commands.forEach(function (command) {
          if (queue.includes(command)) discard(command, "moved");
        });
        store();
        flush();
      });
      box.append(what, send, " ", drop);
      tables.appendChild(box);
    });
  }

  function moveTo(from, to) {
    // Sent to the table the account scores now, each with its own token still (a command
    // that had reached the old table is refused there as another's, never done twice),
    // over no version of it (never seen here): a hand entered there meanwhile is shown
    // first. An approval of a version saved at the old table cannot follow.
    const before = "/tables/" + from + "/";
    const after = "/tables/" + to.pk + "/";
    queue.slice().forEach(function (command) {
      if (command.table !== from || command.kind === "discard" || !queue.includes(command)) {
        return;
      }
      if (command.kind === "approve" && !command.entryToken) {
        discard(command, "moved");
        return;
      }
      command.url = command.url.replace(before, after);
      command.statusUrl = command.statusUrl.replace(before, after);
      if (command.approveUrl) command.approveUrl = command.approveUrl.replace(before, after);
      command.table = to.pk;
      command.tableNumber = to.number;
      delete command.held;
      if (command.kind === "enter") {
        command.fields = command.fields.map(function (pair) {
          return pair[0].endsWith("-seen_version") ? [pair[0], "0"] : pair;
        });
      }
    });
    if (to.pk === pageTable) {
      store();
      flush();
    } else {
      leave(to.entry);
    }
  }

  function conflict(note, command) {
    const box = document.createElement("div");
    box.className = "queue-conflict message message-warning";
    box.setAttribute("role", "alert");
    const what = document.createElement("p");
    what.textContent = words(text.conflict, { mine: command.words, theirs: command.conflict });
    box.appendChild(what);
    const keep = document.createElement("button");
    keep.type = "button";
    keep.className = "primary small";
    keep.textContent = text.keepMine;
    keep.addEventListener("click", function () {
      // Mine, as a new version over theirs: the version the server holds now, a new token.
      const fresh = token();
      command.fields = command.fields.map(function (pair) {
        if (pair[0].endsWith("-seen_version")) return [pair[0], String(command.theirs)];
        if (pair[0].endsWith("-request_token")) return [pair[0], fresh];
        return pair;
      });
      const old = command.token;
      command.token = fresh;
      told("queue:retoken", { hand: command.hand, table: command.table, old: old, token: fresh });
      queue.forEach(function (c) {
        if (c.entryToken !== old) return;
        c.entryToken = fresh;
        c.fields = c.fields.map(function (p) { return p[0] === "entry_token" ? [p[0], fresh] : p; });
      });
      delete command.conflict;
      store();
      flush();
    });
    const take = document.createElement("button");
    take.type = "button";
    take.className = "small";
    take.textContent = text.takeTheirs;
    take.addEventListener("click", function () {
      discard(command, "stale");  // recorded as discarded, with the approvals of it
      store();
      (command.table === pageTable ? refresh([command.hand]) : Promise.resolve()).then(flush);
    });
    box.append(keep, " ", take);
    note.appendChild(box);
  }

  function discard(command, why) {
    // Let go by the scorer: out of the queue with the approvals of it (they approved what
    // is not saved); a record of it goes to the server in its place, for the audit log.
    const gone = queue.filter(function (c) {
      return c === command ||
        (command.kind === "enter" && c.kind === "approve" && c.entryToken === command.token);
    });
    queue = queue.filter(function (c) { return !gone.includes(c); });
    told("queue:discarded", { kind: command.kind, hand: command.hand, table: command.table,
      seat: command.seat, token: command.token });
    const typed = command.kind !== "enter" ? [] : command.fields.filter(function (p) {
      return /-(outcome|declarer_seat|declarer_deadwood|opponent_deadwood|false_knock_seat|false_knock_deadwood|seen_version|request_token)$/.test(p[0]);
    });
    const cards = command.kind === "enter" && Boolean(value(command.fields, "-declarer_cards").trim());
    queue.push({ kind: "discard", table: command.table, tableNumber: command.tableNumber,
      hand: command.hand, url: command.discardUrl, statusUrl: command.statusUrl,
      token: command.token, words: command.words,
      fields: typed.concat([["table", String(command.table)], ["command", command.kind],
        ["hand", String(command.hand)], ["seat", String(command.seat || "")],
        ["request_token", command.token], ["why", why],
        ["approvals", String(gone.length - 1)], ["cards", cards ? "1" : ""]]) });
  }

  function followed(command, version) {
    // Saved: a later save of the same hand typed here over the same version while this one
    // was on its way was typed over this one, not over someone else's.
    const over = value(command.fields, "-seen_version");
    const place = command.table + ":" + command.hand;
    if (!savedOver.has(place)) savedOver.set(place, new Map());
    savedOver.get(place).set(over, version);
    queue.forEach(function (c) {
      if (c === command || c.kind !== "enter" || c.table !== command.table ||
          c.hand !== command.hand || value(c.fields, "-seen_version") !== over) return;
      c.fields = c.fields.map(function (pair) {
        return pair[0].endsWith("-seen_version") ? [pair[0], version] : pair;
      });
    });
    store();
  }

  function told(name, detail) {
    hands.dispatchEvent(new CustomEvent(name, { detail: detail }));
  }

  function typedOver(command) {
    // A save typed over a version this page's own save replaced (the row not read again
    // yet): typed over what that save made, and so on along this page's saves.
    const answered = savedOver.get(command.table + ":" + command.hand);
    let over = value(command.fields, "-seen_version");
    const seen = new Set();
    while (answered && answered.has(over) && !seen.has(over)) {
      seen.add(over);
      over = answered.get(over);
    }
    command.fields = command.fields.map(function (pair) {
      return pair[0].endsWith("-seen_version") ? [pair[0], over] : pair;
    });
  }

  function add(command) {
    notice = "";
    if (command.kind === "enter") {
      typedOver(command);
      // Typed again before it was taken: the server never stored the first, so only the
      // latest counts, over the version the first was typed over.
      // One on its way is not replaced: the server will store it, and this one goes after
      // it, over the version it gets (followed(), when its answer comes).
      const earlier = queue.find(function (c) {
        return c.kind === "enter" && c.table === command.table && c.hand === command.hand &&
          !c.conflict && c !== inFlight;
      });
      if (earlier) {
        command.fields = command.fields.map(function (pair) {
          return pair[0].endsWith("-seen_version")
            ? earlier.fields.find(function (p) { return p[0] === pair[0]; }) || pair : pair;
        });
        queue = queue.filter(function (c) {
          return c !== earlier && !(c.kind === "approve" && c.entryToken === earlier.token);
        });
      }
    }
    queue.push(command);
    store();
    flush();
  }

  // Sending, in order --------------------------------------------------------------------
  function later() {
    clearTimeout(retry);
    retry = setTimeout(function () {
      retry = null;
      flush();
    }, 3000);
  }

  let again = false;  // asked to send while sending: once more after, for what came meanwhile

  async function flush() {
    await ready;
    if (sending) again = true;
    if (sending || !queue.length) {
      show();
      return;
    }
    sending = true;
    again = false;
    blocked = "";
    show();
    try {
      // A command waiting for the scorer holds back the later ones of its hand only.
      const held = new Set();
      for (const command of queue.slice()) {
        if (!queue.includes(command)) continue;  // discarded meanwhile
        const place = command.kind === "discard" ? "" : command.table + ":" + command.hand;
        if (waitingChoice(command) || held.has(place)) {
          held.add(place);
          continue;
        }
        let outcome;
        inFlight = command;
        try {
          outcome = await send(command);
        } catch (error) {
          outcome = "later";  // no answer: the network, or the server restarting
        } finally {
          inFlight = null;
        }
        if (outcome === "later") { later(); break; }
        if (outcome === "blocked") break;  // log in again first
        if (outcome === "held") {
          held.add(place);
          store();
          continue;
        }
        queue = queue.filter(function (c) { return c !== command; });
        if (command.kind === "approve" && command.table === pageTable) approved.add(command.hand);
        sentSome = true;
        store();
      }
    } finally {
      sending = false;
      show();
    }
    if (again && !blocked && !retry) {
      again = false;
      flush();
    }
    if (approved.size) {
      // The rows of the approvals sent, as the server holds them (the ✓ of each seat);
      // a row saved shows already what the server answered, and a row being typed in is
      // left alone.
      const rows = Array.from(approved);
      approved.clear();
      refresh(rows);
    }
  }

  function csrf() {
    // The browser's token now (a log-in renews it), never one kept with the queue.
    const name = (text.csrfCookie || "csrftoken") + "=";
    const cookie = document.cookie.split("; ").find(function (c) { return c.startsWith(name); });
    if (cookie) return decodeURIComponent(cookie.slice(name.length));
    const field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function hold(command, why, reason) {
    command.held = { why: why, text: reason };
    return "held";
  }

  async function send(command) {
    if (!navigator.onLine) return "later";  // sent when the browser is back online
    const body = new URLSearchParams(command.fields);
    body.set("csrfmiddlewaretoken", csrf());
    body.set("queue", text.queueName);  // the server refuses it to any other account
    const response = await fetch(command.url, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: command.kind === "enter" ? { "HX-Request": "true" }
        : { "Accept": "application/json" } });
    if (response.type === "opaqueredirect" || [401, 403, 404].includes(response.status)) {
      return why(command, response.status || 302);  // the log-in page, or refused: ask
    }
    if (response.status >= 500) return "later";
    if (!response.ok) return hold(command, "refused", words(text.failed, { status: response.status }));
    if (command.kind === "discard") return discarded(command, await response.json());
    if (command.kind === "approve") {
      const answer = await response.json();
      return answer.ok ? "sent" : hold(command, "refused", answer.error);
    }
    const html = await response.text();
    if (response.headers.get("X-Saved-Version")) {
      followed(command, response.headers.get("X-Saved-Version"));
      if (command.table === pageTable) swap(command.hand, html);
      return "sent";
    }
    const fragment = parse(html);
    const stale = response.headers.get("X-Stale-Version");
    if (stale !== null) {
      const error = fragment.querySelector(".form-errors");
      command.conflict = error ? error.textContent.trim() : text.changed;
      command.theirs = Number(stale);
      return "held";
    }
    // Refused as typed: the row shows why, with what was typed; the save stays kept.
    const reasons = Array.from(fragment.querySelectorAll(".form-errors p, p.error"),
      function (p) { return p.textContent.trim(); });
    if (command.table === pageTable) swap(command.hand, html);
    return hold(command, "refused", reasons.join(" ") || words(text.failed, { status: 200 }));
  }

  async function why(command, code) {
    // Not taken, with no reason the scorer could read: whose session the browser holds
    // now, and which table this account may send the table's commands to.
    let state;
    try {
      const response = await fetch(command.statusUrl, { credentials: "same-origin",
        headers: { "Accept": "application/json" } });
      if (!response.ok) return "later";
      state = await response.json();
    } catch (error) {
      return "later";
    }
    if (!state.account) {
      blocked = "login";
      return "blocked";
    }
    if (state.account !== text.queueName) {
      blocked = "account";
      return "blocked";
    }
    if (state.refused) return hold(command, "refused", state.refused);
    if (state.table && state.table.pk !== command.table) {
      queue.forEach(function (c) {
        if (c.table === command.table && c.kind !== "discard") {
          c.held = { why: "moved", to: state.table };
        }
      });
      return "held";
    }
    return hold(command, "refused", words(text.failed, { status: code }));
  }

  function discarded(command, answer) {
    if (!answer.ok) {
      notice = words(text.refused, { what: command.words, why: answer.error });
    } else if (answer.done) {
      // It had been saved after all, its answer lost: the row as the server holds it.
      notice = words(text.savedBefore, { what: command.words });
      if (command.table === pageTable) approved.add(command.hand);
    }
    return "sent";
  }

  function parse(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  function swap(hand, html) {
    if (text.terminal) {
      refresh([hand]);  // the terminal's own view of the hand, never the entry page's row
      return;
    }
    const fragment = parse(html);
    const fresh = fragment.getElementById("hand-" + hand);
    const row = rowOf(hand);
    if (fresh && row) {
      row.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh);
    }
    ["total-1", "total-2"].forEach(function (id) {
      const total = fragment.getElementById(id);
      const shown = document.getElementById(id);
      if (total && shown) shown.textContent = total.textContent;
    });
  }

  async function refresh(only) {
    // These rows (every row without ``only``) as the server holds them now.
    try {
      const response = await fetch(window.location.href, { credentials: "same-origin" });
      const page = parse(await response.text());
      // The signatures follow the approvals: "ready to sign" may have changed.
      const signatures = page.getElementById("signatures");
      const shown = document.getElementById("signatures");
      if (signatures && shown) shown.replaceWith(signatures);
      page.querySelectorAll(".hands .hand").forEach(function (fresh) {
        if (only && !only.includes(Number(fresh.id.replace("hand-", "")))) return;
        const row = document.getElementById(fresh.id);
        if (row) {
          row.replaceWith(fresh);
          if (window.htmx) window.htmx.process(fresh);
        }
      });
      show();
    } catch (error) { /* still offline: the rows stay as they are */ }
  }

  // Taking over the forms --------------------------------------------------------------
  function describe(form) {
    if (form.dataset.words) return form.dataset.words;  // the terminal's words for it
    const parts = [];
    form.querySelectorAll("select, input[type=text], input[inputmode=numeric], " +
                          "input[type=number]").forEach(function (field) {
      if (field.type === "hidden" || !field.value || field.closest("details:not([open])")) return;
      const label = form.querySelector("label[for='" + field.id + "']");
      const named = label ? label.cloneNode(true) : null;
      if (named) named.querySelectorAll(".req").forEach(function (mark) { mark.remove(); });
      const shown = field.tagName === "SELECT" ? field.selectedOptions[0].textContent : field.value;
      parts.push((named ? named.textContent.trim() + ": " : "") + shown.trim());
    });
    return parts.join(", ");
  }

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (form.matches("form[data-logout]")) {
      loggingOut(event, form);
      return;
    }
    const page = document.getElementById("main") || document.body;
    if (!page.contains(form)) return;
    const match = form.action.match(/\/hands\/(\d+)\/(approve\/(\d+)\/)?$/);
    const kept = match && hands.contains(form) &&
      !(match[2] && form.querySelector("input[name=pin]"));  // a PIN is never kept
    if (!kept) {
      if (!navigator.onLine) {
        // A signature or an approval with a PIN needs the server now: leaving the page
        // for a browser error would lose what is kept.
        event.preventDefault();
        event.stopImmediatePropagation();
        notice = text.needsServer;
        show();
      }
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();  // before htmx: this script sends it
    const hand = Number(match[1]);
    // Never a CSRF token: each send reads the browser's own.
    const fields = Array.from(new FormData(form).entries()).filter(function (p) {
      return p[0] !== "csrfmiddlewaretoken";
    });
    if (match[2]) {
      add(Object.assign(here(), { kind: "approve", hand: hand, seat: Number(match[3]),
        url: form.action, fields: fields, token: value(fields, "request_token"),
        entryToken: value(fields, "entry_token") || undefined,
        words: words(text.approves, { seat: match[3] }) }));
      const button = form.querySelector("button");
      if (button) button.disabled = true;
      return;
    }
    add(Object.assign(here(), { kind: "enter", hand: hand, url: form.action, fields: fields,
      token: value(fields, "request_token"), approveUrl: form.action + "approve/0/",
      words: describe(form) }));
  }, true);

  function loggingOut(event, form) {
    // Logging out keeps what is not sent, for this account: said first (site.js asks on
    // the other pages). Without Web Crypto nothing is stored: leaving the page asks.
    event.queueAsked = true;
    if (!queue.length || !subtle) return;
    if (window.confirm(words(form.dataset.unsent, { account: text.queueAccount }))) {
      leaving = true;
      event.preventDefault();
      store().then(function () { form.submit(); });
    } else {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }

  login.addEventListener("click", function (event) {
    event.preventDefault();
    leave(login.href);
  });

  // No network: the engine's check of a hand waits for the server, and says so.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (navigator.onLine || !hands.contains(event.target)) return;
    event.preventDefault();
    const output = event.target.closest("form") &&
      event.target.closest("form").querySelector("output");
    if (output) output.textContent = text.offline;
  });
  window.addEventListener("online", flush);
  window.addEventListener("offline", show);
  window.addEventListener("beforeunload", function (event) {
    if (queue.length && !leaving) {
      event.preventDefault();
      event.returnValue = "";
    }
  });
  sendButton.addEventListener("click", function () {
    // Again, all of it: a command refused or held for a move is asked about afresh.
    queue.forEach(function (command) { delete command.held; });
    notice = "";
    store();
    flush();
  });
  // Reopened with commands kept from before (a log-in again, say): said, and sent.
  ready.then(function () {
    keptBefore = queue.length;
    show();
    flush();
  });
})();
