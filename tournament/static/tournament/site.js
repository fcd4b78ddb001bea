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
