// Desk entry (templates/director/desk.html): each line is checked by the engine as it is
// typed and saved with Enter, which moves to the next line; a refused line keeps the cursor
// and says why. Without this script each line is a form of its own that saves on Enter.
(function () {
  "use strict";
  const forms = Array.from(document.querySelectorAll("form.desk-form"));
  if (!forms.length) return;

  function parts(form) {
    const input = form.querySelector("input[name=typed]");
    return { input: input, out: document.getElementById(input.getAttribute("aria-describedby")),
             row: form.closest("tr") };
  }

  function say(form, text, refused) {
    const { out } = parts(form);
    out.textContent = text;
    out.classList.toggle("error", Boolean(refused));
  }

  async function send(form, check) {
    const data = new FormData(form);
    if (check) data.set("check", "1");
    const response = await fetch(form.action, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "Accept": "application/json" },
    });
    if (response.status >= 500 || !(response.headers.get("Content-Type") || "").includes("json")) {
      return { ok: false, error: form.dataset.offline || "The server did not answer; try again." };
    }
    return response.json();
  }

  // The paper signatures and the sign-off name the match's revision as the page showed it
  // (their hidden "revision" fields). Each line this page saves moves it on, and its answer
  // says from what to what: the fields follow a move only from the revision they hold, so
  // the page's own saves never make the buttons stale, while a change made elsewhere (it
  // moves the revision without this page knowing) still has them refused, with what changed.
  // Answers may come back out of order: a move waits until the one before it has come.
  const revisions = Array.from(document.querySelectorAll(".desk-finish input[name=revision]"));
  const moves = new Map();
  function follow(move) {
    if (!move || !revisions.length || move.from === move.to) return;
    moves.set(String(move.from), String(move.to));
    let held = revisions[0].value;
    while (moves.has(held)) {
      const to = moves.get(held);
      moves.delete(held);
      held = to;
    }
    revisions.forEach(function (input) { input.value = held; });
  }

  function next(form) {
    const index = forms.indexOf(form);
    const following = forms.slice(index + 1).find(function (f) {
      return !parts(f).input.disabled;
    });
    if (following) {
      const { input } = parts(following);
      input.focus();
      input.select();
    }
  }

  forms.forEach(function (form) {
    const { input } = parts(form);
    // A line already typed is replaced by typing over it, as a spreadsheet's cell.
    input.addEventListener("focus", function () { input.select(); });
    let asked = 0;  // only the latest answer is shown
    let timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      const mine = ++asked;
      if (!input.value.trim()) { say(form, "", false); return; }
      timer = setTimeout(async function () {
        try {
          const answer = await send(form, true);
          if (mine === asked) say(form, answer.ok ? answer.explained : answer.error, !answer.ok);
        } catch (error) {
          if (mine === asked) say(form, "", false);
        }
      }, 120);
    });
    form.addEventListener("submit", async function (event) {
      event.preventDefault();
      clearTimeout(timer);
      const mine = ++asked;
      const typed = input.value.trim();
      if (!typed || typed === input.dataset.saved) { next(form); return; }
      let answer;
      try {
        answer = await send(form, false);
      } catch (error) {
        answer = { ok: false, error: "The server did not answer; the line was not saved." };
      }
      if (mine !== asked) return;
      if (!answer.ok) {
        say(form, answer.error, true);
        input.focus();
        input.select();
        return;
      }
      follow(answer.revision);
      form.querySelector("input[name=seen_version]").value = answer.version;
      form.querySelector("input[name=request_token]").value = answer.request_token;
      input.value = answer.typed;
      input.dataset.saved = answer.typed;
      parts(form).row.classList.add("saved");
      say(form, answer.explained + " (v" + answer.version + ")", false);
      next(form);
    });
  });
  const first = forms.map(function (f) { return parts(f).input; })
    .find(function (input) { return !input.disabled && !input.value; });
  if (first && document.activeElement !== first) first.focus();
})();
