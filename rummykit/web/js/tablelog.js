// The log's lines: what a move says ("Ben discarded 7♥"), which lines the log keeps and the
// order its panel shows them in, and the moves rebuilt from a deal's history events. It draws
// nothing: the side panel (sidepanel.js) shows the lines.
import { t } from "./i18n.js";
import { parseCards, pretty } from "./cards.js";
import { subjectName } from "./tablestate.js";

/** One line for the log from a state's "last": {seat, action, auto}; ``taken`` is the card a
 * take took, when known (else the latest take of that seat among the deal's events), for a
 * timeout what the clock did: ``{draw, card, undone}``, for a draw of the face-up indicator ``{card}``,
 * for a lay-down ``{close}`` (every card but one, which needs no minimum),
 * for a declaration ``{valid}``, for a drop
 * ``{cost}``. */
export function describeAction(last, S, taken = null) {
  const who = subjectName(S, last.seat);
  const text = String(last.action || "");
  const [verb, ...rest] = text.split(/\s+/);
  const args = rest.join(" ");
  const auto = last.auto ? ` ${t("log.auto")}` : "";
  const cardsPretty = (s) => parseCards(s.replace(/\b(low|high)\b/g, "")).map((c) => pretty(c)).join(" ");
  try {
    switch (verb) {
      // the indicator lying face up under the stock is drawn in sight of everyone
      case "draw": return (taken && taken.card ? t("log.drawIndicator", { who, card: pretty(taken.card) }) : t("log.draw", { who })) + auto;
      case "take": {
        const ev = taken ? { card: taken } : [...S.events].reverse().find((e) => e.action === "take" && e.seat === last.seat);
        return t("log.take", { who, card: ev && ev.card ? pretty(ev.card) : "" }) + auto;
      }
      // the card given back, as the take's line names the card taken
      case "return": return (taken ? t("log.returnCard", { who, card: pretty(taken) }) : t("log.return", { who })) + auto;
      case "discard": return t("log.discard", { who, card: pretty(rest[0]) }) + auto;
      // a close (every card but the one discarded to end the deal) needs no minimum: logged as
      // an opening, a Rami close of 18 points read as an opening below 51, and simple Rami has
      // no opening at all
      case "open": return t(taken && taken.close ? "log.close" : "log.open", { who, melds: args.split("/").map(cardsPretty).join(" · ") }) + auto;
      case "meld": return t("log.meld", { who, meld: cardsPretty(args) }) + auto;
      case "layoff": return t("log.layoff", { who, card: pretty(rest[1]), n: rest[0] }) + auto;
      case "swap": return t("log.swap", { who, card: pretty(rest[1]), n: rest[0] }) + auto;
      // a wrong declaration is no win: "Ben declared", the deal going on, read as one
      case "declare": return t(taken && taken.valid === false ? "log.declareWrong" : "log.declare", { who }) + auto;
      case "drop": return (taken && typeof taken.cost === "number" ? t("log.dropCost", { who, n: taken.cost }) : t("log.drop", { who })) + auto;
      // the clock draws only when the player had not: after one's own draw it just discards
      // a card owed (the discard taken, a freed joker) makes it undo the turn first: the card
      // taken goes back to the pile and the melds laid back to the hand, which the log's
      // earlier lines of the turn no longer describe
      case "timeout": {
        if (!taken || !taken.card) return t("log.timeout", { who });
        const key = taken.undone
          ? (taken.draw ? "log.timeoutUndoneDrew" : "log.timeoutUndoneDiscarded")
          : (taken.draw ? "log.timeoutDrew" : "log.timeoutDiscarded");
        return t(key, { who, card: pretty(taken.card) });
      }
      case "restock": return t("log.restock", { n: Number(rest[0]) });
      default: return `${who}: ${text}`;
    }
  } catch {
    return `${who}: ${text}`;
  }
}

/** The log's newest ``n`` lines. The first one kept is always a deal's line: when the oldest
 * moves kept are a deal's whose line would go, that line stays in the place of one more move
 * (a deal of more than ``n`` moves still reads under its line, on an open page as after a
 * reload). */
export function keepLog(log, n = 40) {
  if (log.length <= n) return log;
  const kept = log.slice(-n);
  if (kept[0].deal) return kept;
  const gone = log.slice(0, log.length - n);
  let heading = null;
  for (let i = gone.length - 1; i >= 0 && !heading; i--) if (gone[i].deal) heading = gone[i];
  return heading ? [heading, ...kept.slice(1)] : kept;
}

/** The heading of the log's lines said in the waiting room, before the first deal. */
const BEFORE_GAME = { before: true, get text() { return t("log.beforeGame"); } };

/** The log's lines as its panel shows them: the newest ``n`` (as ``keepLog`` keeps them, so
 * the oldest deal shown keeps its line), the newest deal first, each deal's line above its
 * moves and the moves newest first. The current deal's line is then always the panel's first:
 * at the foot of a list of newest-first moves a long deal's line fell below the panel's scroll
 * height, or out of the lines shown, and nothing on screen said which deal the moves were. */
export function panelLog(log, n = 12) {
  const deals = [];
  for (const line of keepLog(log, n)) {
    if (line.deal) deals.push({ head: line, moves: [] });
    else {
      if (!deals.length) deals.push({ head: null, moves: [] });
      deals[deals.length - 1].moves.push(line);
    }
  }
  // quick messages before any deal's line were said in the waiting room (keepLog keeps a
  // deal's line first whenever one went): under no line they read, at the foot, as the oldest
  // moves of deal 1; under a line of their own, as said before the game
  if (deals.length && !deals[0].head && deals[0].moves.every((l) => l.said)) deals[0].head = BEFORE_GAME;
  return deals.reverse().flatMap((d) => (d.head ? [d.head] : []).concat(d.moves.reverse()));
}

/** What a history event adds to its action's text: the card a take took; for the clock's
 * play, whether it drew and the card it discarded. */
export function eventDetail(e) {
  if (e.action === "take" || e.action === "return") return e.card;
  if (e.action === "timeout") return { draw: !!e.draw, card: e.card, undone: !!e.undone };
  // Indian rummy: whether a declaration was wrong (the declarer may be out, the deal going on)
  // and what a drop cost, as the engine's event says
  if (e.action === "draw" && e.card) return { card: e.card };
  if (e.action === "declare") return { valid: e.valid !== false };
  if (e.action === "drop") return { cost: e.cost };
  // a close: every card but the one to discard, which needs no minimum
  if (e.action === "open") return { close: !!e.close };
  return null;
}

/** A deal's history event (docs/engine.md, "History events") as the action that made it, for
 * a page that enters mid-deal; a restock as nobody's "restock N" (the log says it: the stock
 * filled again and the pile gone to one card, with no word, read as a fault); null for the
 * deal's end. */
export function eventAction(e) {
  if (e.action === "restock") return { seat: null, action: `restock ${e.stock}`, auto: false };
  if (e.seat === null || e.seat === undefined) return null;
  const text = {
    draw: "draw", take: "take", return: "return", declare: "declare", drop: "drop", timeout: "timeout",
    discard: `discard ${e.card}`, open: `open ${(e.melds || []).join(" / ")}`, meld: `meld ${e.meld}`,
    layoff: `layoff ${e.number} ${e.card}`, swap: `swap ${e.number} ${e.card}`,
  }[e.action];
  return text ? { seat: e.seat, action: text, auto: false } : null;
}
