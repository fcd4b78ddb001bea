// The table device's sign-in step (issue 57): the QR code of its slip opens
// /device/#u=<user name>&p=<password>. The part after "#" never reaches the server (nor its
// logs); this fills the log-in form from it and sends it, so a device that scans its slip
// opens on its table with no page between. Typed by hand, the form works as any log-in.
(function () {
  "use strict";
  const form = document.getElementById("term-start");
  if (!form) return;

  function signIn() {
    if (!window.location.hash) return;
    const given = new URLSearchParams(window.location.hash.slice(1));
    const user = given.get("u");
    const password = given.get("p");
    history.replaceState(null, "", window.location.pathname);  // not kept in the history
    if (!user || !password) return;
    form.querySelector("#id_username").value = user;
    form.querySelector("#id_password").value = password;
    form.querySelector(".term-waiting").hidden = false;
    form.submit();
  }

  window.addEventListener("hashchange", signIn);  // a slip scanned on this very page
  signIn();
})();
