// The bar under the status line: the opening meter (points laid down against the minimum, the
// lay-down it found), the declaration check in Indian rummy, or why a seat is out.
import { t } from "./i18n.js";
import { h, toast } from "./ui.js";
import { pretty } from "./cards.js";
import { translateReason } from "./reasons.js";
import { can, isMyTurn, laysDownOnlyAtOnce } from "./tablestate.js";

export function meterBar(S, actions) {
  const v = S.view;
  // between deals and after the game its advice ("lay new melds…", "draw first") is stale: the
  // deal is over and the hand shown is gone
  if (!v.turn) return null;
  // a seat out of the deal (dropped, a wrong declaration) or out of a pool game (eliminated)
  // gets no turn: "checked on your turn" or an opening to reach would wait for one in vain
  const out = v.seats[S.you] && v.seats[S.you].out;
  // out of the game with no cards: the line is in the hand's place (handBox in handbox.js)
  if (out === "eliminated" && S.arrangement && S.arrangement.all().length === 0) return null;
  if (out) {
    return h("div.meter.out", { "data-out": out },
      h("span", { text: out === "eliminated" ? t("table.outOfGame") : t("table.outOfDeal", { why: t(`seat.out.${out}`) }) }));
  }
  if (v.variant === "indian") return declarationBar(S, actions);
  const o = v.opening;
  if (!o) return null;
  if (o.opened || !o.meter) {
    return h("div.meter.opened", {}, h("span", { text: laysDownOnlyAtOnce(v) ? t("meter.simple") : t("meter.opened") }));
  }
  const m = o.meter;
  const min = o.minimum || 0;
  const pct = min ? Math.min(100, Math.round((m.points / min) * 100)) : 0;
  // no minimum to reach (simple Rami lays the whole hand at once): a bar would read "0 / 0"
  const children = min ? [
    h("span.meter-label", { text: t("meter.label") }),
    h("span.meter-track", { role: "meter", "aria-valuemin": 0, "aria-valuemax": min, "aria-valuenow": m.points, "aria-label": t("meter.aria", { points: m.points, min }) },
      h(`span.meter-fill${m.enough ? ".enough" : ""}`, { style: { width: `${pct}%` } })),
    h("span.meter-value", { "data-meter": m.points, text: t("meter.value", { points: m.points, min }) }),
  ] : [o.partner_opened
    // Rami 2 v 2: the partner's lay-down freed this seat from the minimum
    ? h("span.meter-hint", { "data-hint": "partner-opened", text: t("meter.partnerOpened") })
    : h("span.meter-hint", { text: t("meter.simple") })];
  if (m.melds && m.melds.length) {
    // its name says what it does (a title is no help on a phone), and a tap says what it did
    const help = t("meter.arrangeHelp");
    children.push(h("button.btn.ghost.small", { type: "button", "data-action": "arrange", "data-key": "arrange", text: t("meter.arrange"), title: help,
      "aria-label": t("common.labelValue", { label: t("meter.arrange"), value: help }),
      onclick: () => { S.arrangement.arrange(m.melds); S.selected.clear(); actions.render(); toast(t("meter.arranged")); } }));
  }
  if (m.action && can(S, "open")) {
    const label = laysDownOnlyAtOnce(v) ? t("meter.closeAll") : t("meter.open", { points: m.points });
    children.push(h("button.btn.primary.open-now", { type: "button", "data-action": "open-meter", "data-key": "open-meter", text: label,
      onclick: () => {
        // the arranged copies of the melds' cards leave, not their twins (doDiscard, moves.js)
        S.arrangement.expectGone(S.arrangement.idsOf(m.action.replace(/^open /, "").split(" / ").map((g) => g.split(" "))));
        actions.play(m.action);
      } }));
  } else if (m.enough) {
    const atOnce = laysDownOnlyAtOnce(v);
    const hint = isMyTurn(S) ? (atOnce ? "meter.closeDrawFirst" : "meter.drawFirst") : (atOnce ? "meter.closeOnYourTurn" : "meter.onYourTurn");
    children.push(h("span.meter-hint", { "data-hint": "enough", text: t(hint) }));
  }
  // enough below the minimum: the meter's points are a close's (every card down at once),
  // which needs none
  if (min && m.enough && m.points < min) children.push(h("span.meter-hint", { "data-hint": "no-minimum", text: t("meter.noMinimum") }));
  if (o.must_include) children.push(h("span.meter-hint", { text: t("meter.mustInclude", { card: pretty(o.must_include) }) }));
  // the shape the lay-down needs besides its points (the engine's word): the meter counts only
  // lay-downs of that shape, and in rami71 "0 / 71" beside a hand of runs said nothing of why
  if (o.needs && !m.enough) {
    children.push(h("span.meter-hint", { "data-hint": "needs", "data-needs": o.needs,
      text: t(`meter.needs.${o.needs}`, { card: o.must_include ? pretty(o.must_include) : "" }) }));
  }
  // a phone held sideways cuts the meter to one line (app.css): a tap gives it the focus, and
  // focused it shows whole, as the declaration check does
  return h(`div.meter.opening${m.enough ? ".enough" : ""}`, { tabindex: -1, "data-key": "meter", "data-keep": "content" }, children);
}

function declarationBar(S, actions) {
  const v = S.view;
  const d = v.declaration;
  const parts = [h("span.meter-label", { text: t("declare.label") })];
  if (!d) parts.push(h("span.meter-hint", { text: t("declare.onYourTurn") }));
  else if (d.valid) parts.push(h("span.decl.ok", { "data-declaration": "valid", text: t("declare.ready", { card: d.discard ? pretty(d.discard) : "" }) }));
  else {
    // the engine's reason is English: shown in the player's language (js/reasons.js)
    const why = d.reason ? translateReason(d.reason) : t("declare.notYetWhy");
    parts.push(h("span.decl.no", { "data-declaration": "invalid", title: why, text: t("common.labelValue", { label: t("declare.notYet"), value: why }) }));
  }
  // a phone held sideways cuts the check to one line (app.css), its whole reason in the title,
  // which no finger can show: a tap (or a click) gives the bar the focus, and focused it shows
  // whole. Kept through redraws while focused; out of the Tab order, as it is no control.
  return h("div.meter.declaration", { tabindex: -1, "data-key": "declaration", "data-keep": "content" }, parts);
}
