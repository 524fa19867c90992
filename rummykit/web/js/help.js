// The help dialog: how to play with taps, drags and keys (all text from the catalogs).
export function helpHtml(t) {
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const keys = [
    ["D", "help.keys.draw"], ["T", "help.keys.take"], ["R", "help.keys.return"], ["O", "help.keys.open"],
    ["M", "help.keys.meld"], ["1–9", "help.keys.layoff"], ["X", "help.keys.discard"], ["G", "help.keys.group"],
    ["S", "help.keys.sort"], ["H", "help.keys.hand"], ["← →", "help.keys.move"],
    [`${t("help.keyNames.home")} / ${t("help.keyNames.end")}`, "help.keys.ends"], [`${t("help.keyNames.shift")} + ← →`, "help.keys.shift"],
    [t("help.keyNames.space"), "help.keys.select"], [t("help.keyNames.esc"), "help.keys.clear"],
  ];
  return `
    <p>${esc(t("help.intro"))}</p>
    <ul>
      <li>${esc(t("help.tap"))}</li>
      <li>${esc(t("help.drag"))}</li>
      <li>${esc(t("help.groups"))}</li>
      <li>${esc(t("help.open"))}</li>
      <li>${esc(t("help.layoff"))}</li>
      <li>${esc(t("help.return"))}</li>
    </ul>
    <h3>${esc(t("help.keysTitle"))}</h3>
    <table class="keys"><tbody>
      ${keys.map(([k, key]) => `<tr><th scope="row"><kbd>${esc(k)}</kbd></th><td>${esc(t(key))}</td></tr>`).join("")}
    </tbody></table>`;
}
