// Duplicate Gin — the big screen (public/screen.html). Each section marked data-pages
// shows one page of rows at a time (rows carry data-page; the server hides all but the
// first, so without script the first page shows) and turns to the next every
// data-page-ms milliseconds. htmx replaces the content on each poll; the page each
// section was on is shown again at once, so a refresh does not jump back to page 1.
"use strict";

(() => {
  const showing = {}; // section id → the page it shows

  function show(section, page) {
    const pages = Number(section.dataset.pages) || 1;
    const current = ((page % pages) + pages) % pages;
    showing[section.id] = current;
    for (const row of section.querySelectorAll("[data-page]")) {
      row.hidden = Number(row.dataset.page) !== current;
    }
    const pager = section.querySelector("[data-pager]");
    if (pager) {
      pager.textContent = `${current + 1} / ${pages}`;
      pager.hidden = pages < 2;
    }
  }

  function restore(root) {
    for (const section of root.querySelectorAll("[data-pages]")) {
      show(section, showing[section.id] || 0);
    }
  }

  function turn(root) {
    for (const section of root.querySelectorAll("[data-pages]")) {
      show(section, (showing[section.id] || 0) + 1);
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const root = document.getElementById("screen");
    if (!root) {
      return;
    }
    const every = Number(root.dataset.pageMs) || 12000;
    restore(root);
    window.setInterval(() => turn(root), every);
    document.body.addEventListener("htmx:afterSwap", () => restore(root));
  });
})();
