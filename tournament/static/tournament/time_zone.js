// Duplicate Gin — the time zone field of the tournament's settings (issue 27).
//
// Without this script the field is a list of the IANA names grouped by region (an
// <optgroup> each), in which typing a city's first letters jumps to it. With it:
// - a "Find" box above the list keeps only the zones whose name, place or region holds
//   every word typed ("paris", "new york", "asia sh"); Enter or the down arrow moves to
//   the list, and the first match is chosen when the one chosen is filtered out;
// - the browser's own zone (Intl.DateTimeFormat().resolvedOptions().timeZone) is chosen
//   for a new tournament, and offered on a button ("Use my time zone (Europe/Paris)")
//   whenever another zone is chosen.
// The server checks the value whatever happens here (forms.TimeZoneField).
"use strict";

(() => {
  const box = document.querySelector("[data-time-zone]");
  if (!box) {
    return;
  }
  const select = box.querySelector("select");
  const searchRow = box.querySelector(".time-zone-search");
  const search = searchRow.querySelector("input");
  const matches = searchRow.querySelector(".help");
  const suggestion = box.querySelector(".time-zone-suggestion");
  const useButton = suggestion.querySelector("[data-use-zone]");
  const said = box.querySelector("[data-zone-said]");
  const original = Array.from(select.children, (node) => node.cloneNode(true));
  const fill = (template, value) => template.replace("%s", value);

  const words = (text) => text.toLocaleLowerCase().replace(/[_/]/g, " ").split(/\s+/)
    .filter(Boolean);
  const matching = (option, region, wanted) => {
    const text = `${option.value} ${option.textContent} ${region}`.toLocaleLowerCase()
      .replace(/[_/]/g, " ");
    return wanted.every((word) => text.includes(word));
  };
  const restore = () => {
    const chosen = select.value;
    select.replaceChildren(...original.map((node) => node.cloneNode(true)));
    select.value = chosen;
  };

  const filter = () => {
    const wanted = words(search.value);
    const chosen = select.value;
    if (!wanted.length) {
      restore();
      matches.textContent = "";
      return;
    }
    const kept = [];
    let count = 0;
    for (const node of original) {
      if (node.tagName === "OPTGROUP") {
        const group = node.cloneNode(false);
        for (const option of node.children) {
          if (matching(option, node.label, wanted)) {
            group.append(option.cloneNode(true));
            count += 1;
          }
        }
        if (group.children.length) {
          kept.push(group);
        }
      } else if (matching(node, "", wanted)) {
        kept.push(node.cloneNode(true));
        count += 1;
      }
    }
    if (!count) {
      restore();
      matches.textContent = box.dataset.noneLabel;
      return;
    }
    select.replaceChildren(...kept);
    select.value = chosen;
    if (select.value !== chosen) {
      select.selectedIndex = 0;  // the one chosen is filtered out: the first match
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }
    const names = Array.from(select.options, (option) => option.value);
    matches.textContent = fill(box.dataset.matchesLabel,
      names.length > 3 ? `${names.slice(0, 3).join(", ")}, … (${names.length})`
        : names.join(", "));
  };

  searchRow.hidden = false;
  search.addEventListener("input", filter);
  search.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === "ArrowDown") {
      event.preventDefault();  // Enter here never sends the form
      select.focus();
    }
  });

  // The browser's zone, when it is one of the list's.
  let browserZone = "";
  try {
    browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    browserZone = "";
  }
  const known = original.some((node) => node.tagName === "OPTGROUP"
    ? Array.from(node.children).some((option) => option.value === browserZone)
    : node.value === browserZone);
  if (!known) {
    return;
  }
  const offer = () => {
    suggestion.hidden = select.value === browserZone;
  };
  useButton.textContent = fill(box.dataset.useLabel, browserZone);
  useButton.addEventListener("click", () => {
    search.value = "";
    matches.textContent = "";
    restore();
    select.value = browserZone;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    said.textContent = fill(box.dataset.chosenLabel, browserZone);
    select.focus();
  });
  select.addEventListener("change", () => {
    if (select.value !== browserZone) {
      said.textContent = "";
    }
    offer();
  });
  if (box.dataset.suggest === "preselect" && select.value !== browserZone) {
    select.value = browserZone;
    said.textContent = fill(box.dataset.chosenLabel, browserZone);
  }
  offer();
})();
