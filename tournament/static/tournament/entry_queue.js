// The table's entry screen when the network drops (docs/results.md, "When the network
// drops"): every save and tap approval is kept in this browser until the server has
// answered it, sent in order with its own request token and the version it was typed
// over, so nothing is saved twice or over a change it never saw. A save the server
// refuses because the hand changed meanwhile is shown with both results until the scorer
// chooses. Approvals with a PIN are never kept: a PIN is not stored in the browser.
// Without this script the forms post as always.
(function () {
  "use strict";
  const hands = document.querySelector(".hands[data-queue]");
  if (!hands) return;
  const text = hands.dataset;  // the page's words, in the reader's language
  const KEY = "dupgin-queue-" + hands.dataset.queue;
  const status = document.getElementById("queue-status");
  let queue = load();
  let sending = false;
  let retry = null;
  let sentSome = false;
  const approved = new Set();  // hands whose approvals were sent since the last refresh
  let notice = "";  // a command the server refused, said until the next one is sent

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || []; } catch (error) { return []; }
  }

  function store() {
    if (queue.length) localStorage.setItem(KEY, JSON.stringify(queue));
    else localStorage.removeItem(KEY);
    show();
  }

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

  function show() {
    const waiting = queue.length;
    let line = waiting
      ? words(text.notSent, { n: waiting }) + (navigator.onLine ? "" : " " + text.offline)
      : text.allSent;
    if (notice) line = notice + " " + (waiting ? line : "");
    status.hidden = !waiting && !sentSome && !notice;
    status.classList.toggle("pending", waiting > 0);
    status.classList.toggle("message-warning", Boolean(notice));
    status.querySelector(".queue-words").textContent = line.trim();
    status.querySelector("button").hidden = !waiting || sending;
    hands.querySelectorAll(".queued-note").forEach(function (note) { note.remove(); });
    queue.forEach(markRow);
  }

  // What a row shows of its commands not sent yet ----------------------------------------
  function rowOf(hand) { return document.getElementById("hand-" + hand); }

  function markRow(command) {
    const row = rowOf(command.hand);
    if (!row) return;
    let note = row.querySelector(".queued-note");
    if (!note) {
      note = document.createElement("div");
      note.className = "queued-note";
      note.setAttribute("role", "status");
      row.appendChild(note);
    }
    const line = document.createElement("p");
    if (command.kind === "enter") {
      line.textContent = words(text.enterQueued, { words: command.words });
      note.appendChild(line);
      if (!command.conflict && text.pin !== "1") {
        [1, 2].forEach(function (seat) {
          if (queue.some(function (c) {
            return c.kind === "approve" && c.entryToken === command.token && c.seat === seat;
          })) return;
          const button = document.createElement("button");
          button.type = "button";
          button.className = "small queued-approve";
          button.textContent = words(text.approves, { seat: seat });
          button.addEventListener("click", function () {
            add({ kind: "approve", hand: command.hand, seat: seat, url: command.approveUrl
              .replace(/\/0\/$/, "/" + seat + "/"), entryToken: command.token,
            fields: [["csrfmiddlewaretoken", command.csrf], ["request_token", token()],
              ["entry_token", command.token]],
            words: words(text.approves, { seat: seat }) });
          });
          note.appendChild(button);
        });
      }
      if (command.conflict) conflict(note, command);
    } else {
      line.textContent = words(text.approvalQueued, { seat: command.seat });
      note.appendChild(line);
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
      command.fields = command.fields.map(function (pair) {
        if (pair[0].endsWith("-seen_version")) return [pair[0], String(command.theirs)];
        if (pair[0].endsWith("-request_token")) return [pair[0], token()];
        return pair;
      });
      const old = command.token;
      command.token = command.fields.find(function (p) {
        return p[0].endsWith("-request_token");
      })[1];
      queue.forEach(function (c) { if (c.entryToken === old) c.entryToken = command.token; });
      queue.forEach(function (c) {
        if (c.entryToken === command.token) {
          c.fields = c.fields.map(function (p) {
            return p[0] === "entry_token" ? [p[0], command.token] : p;
          });
        }
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
      drop(command);
      refresh([command.hand]).then(flush);
    });
    box.append(keep, " ", take);
    note.appendChild(box);
  }

  function drop(command) {
    // A save dropped takes the approvals of it along: they approved what is not saved.
    queue = queue.filter(function (c) {
      return c !== command && !(command.kind === "enter" && c.entryToken === command.token);
    });
    store();
  }

  function add(command) {
    notice = "";
    if (command.kind === "enter") {
      // Typed again before it was sent: the server never saw the first, so only the
      // latest counts, over the version the first was typed over.
      const earlier = queue.find(function (c) {
        return c.kind === "enter" && c.hand === command.hand && !c.conflict;
      });
      if (earlier) {
        command.fields = command.fields.map(function (pair) {
          return pair[0].endsWith("-seen_version")
            ? earlier.fields.find(function (p) { return p[0] === pair[0]; }) : pair;
        });
        drop(earlier);
      }
    }
    queue.push(command);
    store();
    flush();
  }

  // Sending, in order ------------------------------------------------------------------
  function later() {
    clearTimeout(retry);
    retry = setTimeout(flush, 3000);
  }

  async function flush() {
    if (sending || !queue.length) return;
    sending = true;
    show();
    try {
      while (queue.length) {
        const command = queue[0];
        if (command.conflict) break;  // the scorer chooses first
        let outcome;
        try {
          outcome = await send(command);
        } catch (error) {
          outcome = "later";  // no answer: the network, or the server restarting
        }
        if (outcome === "later") { later(); break; }
        if (outcome === "conflict") { store(); break; }
        queue.shift();
        if (outcome === "refused" && command.kind === "enter") drop(command);
        if (command.kind === "approve") approved.add(command.hand);
        sentSome = true;
        store();
      }
    } finally {
      sending = false;
      show();
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

  async function send(command) {
    if (!navigator.onLine) return "later";  // sent when the browser is back online
    const body = new URLSearchParams(command.fields);
    if (command.kind === "approve") {
      const response = await fetch(command.url, {
        method: "POST", body: body, credentials: "same-origin",
        headers: { "Accept": "application/json" } });
      if (response.status >= 500 || !response.ok) return "later";
      const answer = await response.json();
      if (!answer.ok) {
        notice = words(text.refused, { what: command.words, why: answer.error });
        return "refused";
      }
      return "sent";
    }
    const response = await fetch(command.url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "HX-Request": "true" } });
    if (response.status >= 500) return "later";
    const html = await response.text();
    if (response.headers.get("X-Saved-Version")) {
      swap(command.hand, html);
      return "sent";
    }
    const stale = response.headers.get("X-Stale-Version");
    if (stale !== null) {
      const fragment = parse(html);
      const error = fragment.querySelector(".form-errors");
      command.conflict = error ? error.textContent.trim() : text.changed;
      command.theirs = Number(stale);
      return "conflict";
    }
    swap(command.hand, html);  // refused as typed: the row shows why, with what was typed
    return "refused";
  }

  function parse(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  function swap(hand, html) {
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
    const parts = [];
    form.querySelectorAll("select, input[type=text], input[inputmode=numeric], " +
                          "input[type=number]").forEach(function (field) {
      if (field.type === "hidden" || !field.value || field.closest("details:not([open])")) return;
      const label = form.querySelector("label[for='" + field.id + "']");
      const value = field.tagName === "SELECT" ? field.selectedOptions[0].textContent : field.value;
      parts.push((label ? label.textContent.trim() + ": " : "") + value.trim());
    });
    return parts.join(", ");
  }

  document.addEventListener("submit", function (event) {
    const form = event.target;
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
    const fields = Array.from(new FormData(form).entries());
    const value = function (suffix) {
      const pair = fields.find(function (p) { return p[0].endsWith(suffix); });
      return pair ? pair[1] : "";
    };
    if (match[2]) {
      add({ kind: "approve", hand: hand, seat: Number(match[3]), url: form.action,
        fields: fields, words: words(text.approves, { seat: match[3] }) });
      const button = form.querySelector("button");
      if (button) button.disabled = true;
      return;
    }
    add({ kind: "enter", hand: hand, url: form.action, fields: fields,
      token: value("request_token"), csrf: value("csrfmiddlewaretoken"),
      approveUrl: form.action + "approve/0/", words: describe(form) });
  }, true);

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
    if (queue.length) {
      event.preventDefault();
      event.returnValue = "";
    }
  });
  status.querySelector("button").addEventListener("click", flush);
  // Reopened with commands kept from before: say so, and send them when asked.
  show();
  if (queue.length) status.querySelector(".queue-words").textContent =
    words(text.fromBefore, { n: queue.length });
})();
