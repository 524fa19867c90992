// The help dialog: the game's rules in a few lines, then how to play with taps, drags and keys
// (all text from the catalogs). ``variant`` is the table's game, or null in the lobby.
//
// A newcomer read only how to tap and drag: nothing said what a meld, a run or a set is, or
// what wins a deal. And at an Indian rummy table it told of an Open button, laying off on the
// table's melds and returning the card taken, none of which that game has, and said nothing of
// Declare or Drop; at a Simple Rami table it told of laying off, which that game forbids.
const OPENING = ["rummy", "rami51", "rami71"];

export function helpHtml(t, variant = null) {
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const indian = variant === "indian";
  // the lobby's help tells of every game; a table's, of its own
  const opening = variant === null || OPENING.includes(variant);
  const rules = ["help.aim", "help.melds", indian ? "help.jokersIndian" : "help.jokers"];
  if (opening) rules.push("help.opening");
  if (variant === "simple" || variant === null) rules.push("help.simple");
  if (indian || variant === null) rules.push("help.indian");
  const how = [indian ? "help.tapIndian" : "help.tap", opening ? "help.drag" : "help.dragPlain", "help.groups"];
  if (!indian) how.push("help.open");
  if (opening) how.push("help.layoff");
  if (!indian) how.push("help.return");
  if (indian) how.push("help.declare", "help.drop");
  how.push("help.pastDeals");
  const keys = [
    ["D", "help.keys.draw"], ["T", "help.keys.take"],
    ...(indian ? [] : [["R", "help.keys.return"], ["O", "help.keys.open"], ["M", "help.keys.meld"]]),
    ...(opening ? [["1–9", "help.keys.layoff"]] : []),
    ["X", "help.keys.discard"], ["P", "help.keys.pile"], ["G", "help.keys.group"],
    ["S", "help.keys.sort"], ["H", "help.keys.hand"], ["← →", "help.keys.move"],
    [`${t("help.keyNames.home")} / ${t("help.keyNames.end")}`, "help.keys.ends"], [`${t("help.keyNames.shift")} + ← →`, "help.keys.shift"],
    [t("help.keyNames.space"), "help.keys.select"], [t("help.keyNames.esc"), "help.keys.clear"],
  ];
  const title = variant ? t("help.rulesOf", { game: t(`variant.${variant}.name`) }) : t("help.rulesTitle");
  return `
    <h3>${esc(title)}</h3>
    <ul class="help-rules" data-help-variant="${esc(variant || "")}">
      ${rules.map((k) => `<li data-help="${esc(k)}">${esc(t(k))}</li>`).join("")}
    </ul>
    <h3>${esc(t("help.howTitle"))}</h3>
    <p>${esc(t("help.intro"))}</p>
    <ul>
      ${how.map((k) => `<li data-help="${esc(k)}">${esc(t(k))}</li>`).join("")}
    </ul>
    <h3>${esc(t("help.keysTitle"))}</h3>
    <table class="keys"><tbody>
      ${keys.map(([k, key]) => `<tr><th scope="row"><kbd>${esc(k)}</kbd></th><td>${esc(t(key))}</td></tr>`).join("")}
    </tbody></table>`;
}
