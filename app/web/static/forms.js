// A <select data-autosubmit> submits its form when changed (no inline handlers: the pages'
// Content Security Policy runs scripts from this site's files only).
document.addEventListener("change", (event) => {
  const el = event.target;
  if (el instanceof HTMLSelectElement && el.dataset.autosubmit !== undefined && el.form) {
    el.form.submit();
  }
});
