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
