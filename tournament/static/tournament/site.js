// Duplicate Gin — the site's own script. The Content-Security-Policy forbids inline
// handlers, so behaviour is attached here, by data attributes.
"use strict";

// <select data-submit-on-change>: choosing an option submits its form (the language menu).
document.addEventListener("change", (event) => {
  const field = event.target.closest("[data-submit-on-change]");
  if (field && field.form) {
    field.form.requestSubmit();
  }
});

// The new-stage form: the fields of one kind of stage only (a Swiss stage's rounds, a
// knockout's third-place match and qualification) show while that kind is chosen.
function showStageFields(form) {
  const kind = form.querySelector("select[name=kind]");
  if (!kind) {
    return;
  }
  form.querySelectorAll("fieldset[data-for-kind]").forEach((fieldset) => {
    fieldset.hidden = fieldset.dataset.forKind !== kind.value;
  });
}
document.querySelectorAll("form[data-stage-form]").forEach(showStageFields);
document.addEventListener("change", (event) => {
  const form = event.target.closest("form[data-stage-form]");
  if (form && event.target.name === "kind") {
    showStageFields(form);
  }
});

// A save the server could not make because the database did not answer comes back as a
// 503 fragment (X-Not-Saved, tournament/db_unavailable.py): htmx swaps no error by itself,
// so it is shown at the top of the hand's row, the form kept as typed with its request
// token — pressing Save again is harmless (a form sent twice is saved once).
document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr;
  if (xhr.status === 503 && xhr.getResponseHeader("X-Not-Saved")) {
    event.detail.target.querySelectorAll(".not-saved").forEach((old) => old.remove());
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

// Logging out while this account's table screen keeps entries not sent yet (entry_queue.js,
// kept encrypted under the name the log-out form carries): asked first; they stay for this
// account and are sent when it logs in again. The entry screen asks itself (its count).
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-logout]");
  if (!form || event.queueAsked || !form.dataset.queueName) {
    return;
  }
  let kept = null;
  try {
    kept = window.localStorage.getItem("dupgin-queue-" + form.dataset.queueName);
  } catch (error) {
    return;  // no storage: nothing was kept
  }
  const question = form.dataset.unsent.replace(/\{account\}/g, form.dataset.account);
  if (kept !== null && !window.confirm(question)) {
    event.preventDefault();
  }
});
