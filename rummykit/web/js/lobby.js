// The lobby (create or join a room) and the waiting room (seats, bots, link).
import { has, t } from "./i18n.js";
import { h, placeView, toast } from "./ui.js";
import { seats } from "./app.js";

// Used until GET /api/variants answers (and if it never does): the rule book's room options
// (house rules wait for the server's list). Its option names also tell a room's options from
// its house rules when the page shows them.
const CLOCKS = [30, 45, 60, 90, 600];
const FALLBACK = {
  rummy: { players: [2, 3, 4, 5, 6], options: {
    opening: { values: [30, 40, 51], default: 40 },
    clock: { values: CLOCKS, default: 45 },
    length: { values: ["one-deal", "to-200"], default: "one-deal" } } },
  rami51: { players: [2, 4], options: { clock: { values: CLOCKS, default: 45 } } },
  rami71: { players: [2, 4], options: { clock: { values: CLOCKS, default: 45 } } },
  simple: { players: [2, 4], options: { clock: { values: CLOCKS, default: 45 } } },
  indian: { players: [2, 3, 4, 5, 6], options: {
    format: { values: ["pool101", "pool201", "deals", "points"], default: "pool101" },
    deals: { values: "int", default: 2 },
    jokers_from_discard: { values: "bool", default: false },
    clock: { values: CLOCKS, default: 45 } } },
};

// house: the house rules changed from the variant's defaults (only those are sent)
const form = { variant: "rummy", players: 2, options: {}, house: {}, houseOpen: false, name: null, code: null };

export function playersLabel(variant, n) {
  if (["rami51", "rami71", "simple"].includes(variant)) return n === 4 ? t("lobby.twoVsTwo") : t("lobby.oneVsOne");
  return t("lobby.nPlayers", { n });
}

export function optionValueLabel(name, value) {
  if (name === "clock") return value >= 60 && value % 60 === 0 ? t("option.minutes", { n: value / 60 }) : t("option.seconds", { n: value });
  const key = `option.${name}.values.${value}`;
  const s = t(key);
  return s === key ? String(value) : s;
}

/** The room options of a room's ``options`` ("Turn clock: 45 s · …"); house rules apart. */
export function optionsSummary(variant, options) {
  return Object.entries(options || {})
    .filter(([k]) => !(k === "deals" && options.format !== "deals") && !isHouseRule(variant, k))
    .map(([k, v]) => t("common.labelValue", { label: t(`option.${k}.label`),
      value: typeof v === "boolean" ? (v ? t("common.yes") : t("common.no")) : optionValueLabel(k, v) }))
    .join(" · ");
}

function isHouseRule(variant, name) {
  return !(name in ((FALLBACK[variant] || {}).options || {}));
}

export function houseValueLabel(name, value) {
  if (typeof value === "boolean") return value ? t("common.yes") : t("common.no");
  if (name === "first_dealer") return t("lobby.seatN", { n: value + 1 });
  const key = `house.${name}.values.${value}`;
  const s = t(key);
  return s === key ? String(value) : s;
}

/** The label of a house rule: its catalog's, else its field name (a rule this page predates). */
export function houseLabel(name) {
  const key = `house.${name}.label`;
  const s = t(key);
  return s === key ? name : s;
}

/** The house rules a room's ``options`` set, "label: value" each; those equal to the variant's
 * default are left out when the server's list of defaults is known (``variants``). */
export function houseRules(variant, options, variants) {
  const known = variants && variants[variant] ? variants[variant].house_rules || {} : {};
  return Object.entries(options || {})
    .filter(([k, v]) => isHouseRule(variant, k) && !(k in known && known[k].default === v))
    .map(([k, v]) => t("common.labelValue", { label: houseLabel(k), value: houseValueLabel(k, v) }));
}

/** A line listing a room's house rules, or nothing when it has none. */
export function houseRulesLine(variant, options, variants, cls = "p.house-line") {
  const rules = houseRules(variant, options, variants);
  if (!rules.length) return null;
  return h(cls, { "data-house-rules": "" },
    h("strong", { text: t("house.inEffect") }), " ",
    rules.join(" · "));
}

function houseSummaryText() {
  const n = Object.keys(form.house).length;
  return n ? t("house.summary", { n }) : t("house.summaryNone");
}

/** The collapsed section of the create form with the variant's house rules. */
function houseSection(spec) {
  const rules = Object.entries(spec.house_rules || {});
  if (!rules.length) return null;
  const summary = h("summary", { "data-key": "house-summary", text: houseSummaryText() });
  const set = (name, r, value) => {
    if (value === r.default) delete form.house[name];
    else form.house[name] = value;
    summary.textContent = houseSummaryText();
  };
  const fields = rules.map(([name, r]) => {
    const id = `house-${name}`;
    const current = name in form.house ? form.house[name] : r.default;
    const label = h("span", { text: houseLabel(name) });
    if (r.kind === "bool") {
      return h("label.check", { for: id },
        h("input", { id, name, type: "checkbox", checked: !!current, "data-key": id,
          onchange: (e) => set(name, r, e.target.checked) }), label);
    }
    let input;
    if (r.kind === "choice" || r.kind === "seat") {
      const values = r.kind === "choice" ? r.values : [...Array(form.players).keys()].filter((n) => n >= r.min && n <= r.max);
      input = h("select", { id, name, "data-key": id, onchange: (e) => {
        set(name, r, r.kind === "seat" ? Number(e.target.value) : e.target.value);
      } });
      for (const v of values) input.append(h("option", { value: v, selected: v === current, text: houseValueLabel(name, v) }));
    } else {
      input = h("input", { id, name, type: "number", step: 1, min: r.min, max: r.max ?? undefined, value: current, "data-key": id,
        onchange: (e) => {
          const n = Number(e.target.value);
          // an empty or broken field is the default again, and a number past the server's
          // bounds (the field's min and max only guide the arrows) the nearest one, rather
          // than a refused room
          if (e.target.value === "" || !Number.isInteger(n)) { e.target.value = r.default; set(name, r, r.default); }
          else {
            const v = Math.max(r.min ?? n, Math.min(r.max ?? n, n));
            e.target.value = v;
            set(name, r, v);
          }
        } });
    }
    const hint = t(`house.${name}.hint`);
    return h("label.field", { for: id }, label, input,
      hint === `house.${name}.hint` ? null : h("small.muted", { text: hint }));
  });
  return h("details.house-rules", { open: form.houseOpen, "data-key": "house-rules",
    ontoggle: (e) => { form.houseOpen = e.target.open; } },
    summary, h("div.house-list", {}, fields));
}

export function renderLobby(root, S, actions) {
  const variants = S.variants || FALLBACK;
  if (!variants[form.variant]) form.variant = Object.keys(variants)[0];
  const spec = variants[form.variant];
  if (!spec.players.includes(form.players)) form.players = spec.players[0];

  const variantSelect = h("select", { id: "variant", name: "variant", "data-key": "variant",
    onchange: (e) => { form.variant = e.target.value; form.options = {}; form.house = {}; renderLobby(root, S, actions); } });
  for (const v of Object.keys(variants)) {
    variantSelect.append(h("option", { value: v, selected: v === form.variant, text: t(`variant.${v}.name`) }));
  }
  const playersSelect = h("select", { id: "players", name: "players", "data-key": "players",
    onchange: (e) => {
      form.players = Number(e.target.value);
      // the first dealer is one of the seats: the list follows their count
      if ((form.house.first_dealer ?? 0) >= form.players) delete form.house.first_dealer;
      if (spec.house_rules && "first_dealer" in spec.house_rules) renderLobby(root, S, actions);
    } });
  for (const n of spec.players) playersSelect.append(h("option", { value: n, selected: n === form.players, text: playersLabel(form.variant, n) }));

  const optionFields = [];
  // what a choice means, where its name says too little to someone new to the game ("Pool 101",
  // "To 200 points": who wins, and on which total?)
  const optionHints = [];
  for (const [name, o] of Object.entries(spec.options || {})) {
    if (name === "deals" && (form.options.format ?? variants[form.variant].options.format?.default) !== "deals") continue;
    const id = `opt-${name}`;
    const current = name in form.options ? form.options[name] : o.default;
    let input;
    if (Array.isArray(o.values)) {
      input = h("select", { id, name, "data-key": id, onchange: (e) => {
        const raw = e.target.value;
        form.options[name] = typeof o.default === "number" ? Number(raw) : raw;
        if (name === "format" || has(`option.${name}.hints`)) renderLobby(root, S, actions);
      } });
      for (const v of o.values) input.append(h("option", { value: v, selected: v === current, text: optionValueLabel(name, v) }));
      if (has(`option.${name}.hints.${current}`)) {
        optionHints.push(h("p.variant-blurb", { id: `hint-${name}`, "data-option-hint": name, text: t(`option.${name}.hints.${current}`) }));
        input.setAttribute("aria-describedby", `hint-${name}`);
      }
    } else if (o.values === "bool") {
      input = h("input", { id, name, type: "checkbox", "data-key": id, checked: !!current,
        onchange: (e) => { form.options[name] = e.target.checked; } });
      optionFields.push(h("label.check", { for: id }, input, h("span", { text: t(`option.${name}.label`) })));
      continue;
    } else {
      input = h("input", { id, name, type: "number", min: 1, max: 20, value: current, "data-key": id,
        onchange: (e) => { form.options[name] = Number(e.target.value); } });
    }
    optionFields.push(h("label.field", { for: id }, h("span", { text: t(`option.${name}.label`) }), input));
  }

  // the fields' texts are properties, not attributes: a field being typed in then equals its
  // new drawing and is kept, caret and all, when the lobby is drawn again (placeView); the
  // forms read the page's fields, not this drawing's
  const nameInput = h("input", { id: "name", type: "text", maxlength: 24, autocomplete: "nickname",
    oninput: (e) => { form.name = e.target.value; },
    placeholder: t("lobby.namePlaceholder"), "data-key": "name" });
  nameInput.value = form.name ?? (S.prefs.name || "");
  const createForm = h("form.panel.create", { onsubmit: (e) => {
    e.preventDefault();
    const name = e.currentTarget.querySelector("#name").value.trim() || t("lobby.defaultName");
    const options = {};
    for (const [k, o] of Object.entries(spec.options || {})) {
      if (k === "deals" && (form.options.format ?? spec.options.format?.default) !== "deals") continue;
      options[k] = k in form.options ? form.options[k] : o.default;
    }
    for (const [k, v] of Object.entries(form.house)) if (k in (spec.house_rules || {})) options[k] = v;
    actions.create(form.variant, form.players, options, name.slice(0, 24));
  } },
    h("h2", { text: t("lobby.newRoom") }),
    h("label.field", { for: "name" }, h("span", { text: t("lobby.yourName") }), nameInput),
    h("label.field", { for: "variant" }, h("span", { text: t("lobby.game") }), variantSelect),
    h("p.variant-blurb", { text: t(`variant.${form.variant}.blurb`) }),
    // under the game's own words: together they say what is played and how it is won
    ...optionHints,
    h("div.opts", {},
      h("label.field", { for: "players" }, h("span", { text: t("lobby.players") }), playersSelect),
      ...optionFields),
    houseSection(spec),
    h("button.btn.primary.big", { type: "submit", "data-action": "create", "data-key": "create", text: t("lobby.create"), disabled: S.status !== "online" }),
  );

  // room for a whole link pasted (a long host name), not only the code
  const codeInput = h("input", { id: "code", type: "text", maxlength: 300, autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", placeholder: "K7QW3P", "data-key": "code", oninput: (e) => { form.code = e.target.value; } });
  codeInput.value = form.code ?? "";
  const joinForm = h("form.panel.join", { onsubmit: (e) => { e.preventDefault(); actions.join(e.currentTarget.querySelector("#code").value); } },
    h("h2", { text: t("lobby.joinRoom") }),
    h("p", { text: t("lobby.joinHelp") }),
    h("label.field", { for: "code" }, h("span", { text: t("lobby.code") }), codeInput),
    h("button.btn.big", { type: "submit", "data-action": "join", "data-key": "join", text: t("lobby.join") }),
  );

  const mine = Object.entries(seats()).sort((a, b) => (b[1].time || 0) - (a[1].time || 0)).slice(0, 6);
  const recent = mine.length
    ? h("section.panel.recent", {},
        h("h2", { text: t("lobby.yourRooms") }),
        h("ul.recent-list", {}, mine.map(([code, s]) => h("li", {},
          h("a", { href: `/r/${code}`, onclick: (e) => { e.preventDefault(); actions.join(code); } },
            h("strong", { text: code }), " ", s.variant ? t(`variant.${s.variant}.name`) : "",
            " · ", t("lobby.seatN", { n: s.seat + 1 }))))))
    : null;

  placeView(root, h("div.lobby", {},
    h("section.hero", {},
      h("div.hero-cards", { "aria-hidden": "true" }, heroCards()),
      h("div", {}, h("h1", { text: t("lobby.title") }), h("p.tagline", { text: t("lobby.tagline") }))),
    h("div.lobby-grid", {}, createForm, h("div.lobby-side", {}, joinForm, recent))));
}

function heroCards() {
  const faces = [["A", "♠", "black"], ["K", "♥", "red"], ["Q", "♦", "red"], ["★", "", "joker"]];
  return faces.map(([r, s, c], i) => h(`div.card.hero-card.${c}`, { style: { "--i": i } },
    h("span.corner", {}, h("span.rank", { text: r }), h("span.suit", { text: s })),
    h("span.pip", { text: s || "★" })));
}

// ---- the waiting room ----
// the bot levels chosen in the waiting room, by seat, for the room named ``room``
let chosenLevels = { room: null };

export function renderWaiting(root, S, actions) {
  const room = S.room;
  const link = `${location.origin}/r/${room.room}`;
  const seated = S.you !== null && S.you !== undefined;
  // this browser holds a seat here that another tab has (this one was replaced, or has not
  // resumed yet): a second seat would be the same person's, and its token would overwrite the
  // first one's in storage (the server refuses it too)
  const mine = seats()[room.room];
  const elsewhere = !seated && !!(mine && mine.token);
  const teams = room.players === 4 && ["rami51", "rami71", "simple"].includes(room.variant);
  const levelSelect = (seat) => {
    // the level chosen stays chosen when the room is drawn again (someone sits, a bot joins)
    const levels = room.bot_levels || ["easy", "medium", "hard"];
    const chosen = chosenLevels.room === room.room && levels.includes(chosenLevels[seat]) ? chosenLevels[seat] : levels[1];
    const sel = h("select.bot-level", { "aria-label": seatControlName(seat, t("room.botLevel")), "data-key": `level-${seat}`, "data-level-seat": seat,
      onchange: (e) => {
        if (chosenLevels.room !== room.room) chosenLevels = { room: room.room };
        chosenLevels[seat] = e.target.value;
      } });
    for (const lv of levels) sel.append(h("option", { value: lv, text: t(`bot.${lv}`) === `bot.${lv}` ? lv : t(`bot.${lv}`) }));
    // chosen as a property, not an attribute: a focused select then equals its new drawing and
    // is kept through the redraw (placeView)
    sel.value = chosen;
    return sel;
  };
  // the seats' marks, told apart at this table (seatMarks)
  const marks = seatMarks(room.seats.map((seat) => (seat.seat === S.you && seat.kind === "empty" ? { ...seat, kind: "human", name: S.prefs.name || t("lobby.defaultName") } : seat)));
  const seatRows = room.seats.map((seat) => {
    const isMe = seat.seat === S.you;
    // the seat just taken: the server says "seated" before the room shows it taken, and the
    // row in between was an empty seat of one's own, with a button to put a bot in it
    const s = isMe && seat.kind === "empty" ? { ...seat, kind: "human", name: S.prefs.name || t("lobby.defaultName"), connected: true } : seat;
    const controls = [];
    if (s.kind === "empty") {
      if (!seated && !elsewhere) controls.push(h("button.btn.primary", { type: "button", "data-action": "sit", "data-seat": s.seat, "data-key": `sit-${s.seat}`, text: t("room.sitHere"), "aria-label": seatControlName(s.seat, t("room.sitHere")), onclick: () => actions.sit(s.seat) }));
      else {
        // the level is read from the row at the click: the page's select, not this drawing's
        controls.push(levelSelect(s.seat), h("button.btn", { type: "button", "data-action": "add-bot", "data-seat": s.seat, "data-key": `bot-${s.seat}`, text: t("room.addBot"), "aria-label": seatControlName(s.seat, t("room.addBot")), onclick: (e) => actions.addBot(s.seat, e.currentTarget.closest(".seat-row").querySelector("select.bot-level").value) }));
      }
    } else if (s.kind === "bot" && seated) {
      controls.push(h("button.btn.ghost", { type: "button", "data-action": "remove-bot", "data-seat": s.seat, "data-key": `unbot-${s.seat}`, text: t("room.removeBot"), "aria-label": seatControlName(s.seat, t("room.removeBot")), onclick: () => actions.removeBot(s.seat) }));
    }
    const who = s.kind === "empty" ? t("room.emptySeat") : s.kind === "bot" ? botName(s) : s.name;
    return h(`li.seat-row.${s.kind}${isMe ? ".mine" : ""}`, { "data-seat": s.seat },
      h("span.seat-no", { text: t("lobby.seatN", { n: s.seat + 1 }) }),
      h("span.seat-who", {}, avatar(s.kind === "bot" ? t("seat.botInitial") : s.kind === "empty" ? EMPTY_MARK : marks.get(s.seat) || initial(s.name), s.kind === "bot"),
        h("span.seat-name", { text: who }), isMe ? h("span.badge.you", { text: t("room.you") }) : null,
        teams ? h("span.badge", { text: t("room.side", { n: (s.seat % 2) + 1 }) }) : null,
        s.kind === "human" && !s.connected ? h("span.badge.off", { text: t("seat.offline") }) : null,
        // a quick message, as on the table's chips (the live region says it)
        S.said && S.said[s.seat] ? h("span.said", { "data-said": S.said[s.seat].phrase, "aria-hidden": "true", text: t("say.quoted", { phrase: t(`say.phrase.${S.said[s.seat].phrase}`) }) }) : null),
      h("span.seat-controls", {}, controls));
  });
  placeView(root, h("div.waiting", {},
    h("section.panel", {},
      h("h1", { text: t(`variant.${room.variant}.name`) }),
      h("p.muted", { text: `${playersLabel(room.variant, room.players)} · ${optionsSummary(room.variant, room.options)}` }),
      houseRulesLine(room.variant, room.options, S.variants),
      h("div.share", {},
        h("div.code-box", {}, h("span.label", { text: t("room.code") }), h("strong.code", { "data-room-code": room.room, text: room.room })),
        h("input.link", { readonly: true, value: link, "aria-label": t("room.link"), onfocus: (e) => e.target.select() }),
        h("button.btn", { type: "button", "data-action": "copy-link", "data-key": "copy", text: t("room.copyLink"), onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            toast(t("room.copied"));
          } catch {
            // no clipboard for a page served over plain http to another machine (a table on the
            // home network): the toast showed the bare link, as if copied. The link is selected
            // in its field, for the person to copy, and the toast says so.
            const field = document.querySelector(".waiting input.link");
            if (field) { field.focus(); field.select(); }
            toast(t("room.copyByHand"));
          }
        } })),
      h("h2", { text: t("room.seats") }),
      h("ul.seat-list", {}, seatRows),
      h("p.muted", { "data-seat-elsewhere": elsewhere ? "1" : null, text: seated ? t("room.startsWhenFull") : elsewhere ? t("room.seatElsewhere") : t("room.pickSeat") }),
      h("p.muted", { text: t("room.spectators", { n: room.spectators || 0 }) }),
      // people waiting for the table to fill greet each other: the server took quick messages
      // here, and the page had no button to send one nor anything to show one with
      h("div.row", {}, h("button.btn.ghost", { type: "button", "data-action": "leave", text: t("room.leave"), onclick: () => actions.leave() }),
        seated ? h("button.btn.ghost", { type: "button", "data-action": "say", "data-key": "say", text: t("say.button"), onclick: () => actions.say() }) : null))));
}

/** A waiting room's control named with its seat ("Seat 3: Add a bot"): a screen reader going
 * from control to control heard "Add a bot" three times over, never which seat each filled. */
function seatControlName(seat, what) {
  return t("common.labelValue", { label: t("lobby.seatN", { n: seat + 1 }), value: what });
}

export function botName(s) {
  // numbered by seat: the server names every bot of a level alike, and a table of three
  // "Bot (medium)" left the scores, the log and the end screen ambiguous
  if (s.level) return t("seat.bot", { n: s.seat + 1, level: botLevel(s) });
  return s.name || t("seat.botPlain");
}

/** A bot's level in the page's language (the server's word for a level it has no name for). */
export function botLevel(s) {
  const lv = t(`bot.${s.level}`);
  return lv === `bot.${s.level}` ? s.level : lv;
}

/** Characters that draw nothing: white space, the marks that go on another character, and
 * the blank letters a name may hold among others (the server's ``BLANK_LETTERS``). */
const BLANK = /^[\s\p{M}\u115f\u1160\u3164\uffa0\u2800]*$/u;
/** One for every name (each render asks for a seat's initial, a meld's owner's). */
const GRAPHEMES = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;

/** A name's first character as it is drawn (a grapheme: an emoji of two UTF-16 units, a flag,
 * a letter and its accent typed apart), blank ones passed over; upper case. ``name[0]`` took
 * half of an emoji (a lone surrogate, drawn as a box on the avatar and the meld's mark), a
 * bare accent, or a Hangul filler that shows nothing. */
export function initial(name) {
  const first = letters(name)[0];
  if (!first) return "?";
  // a letter whose capital is two ("ß" is "SS") stays as it is: a mark of the initial and
  // a seat's number was of three
  const upper = first.toUpperCase();
  return letters(upper).length === 1 ? upper : first;
}

/** A seat's avatar: its mark in a circle. A mark of two (``seatMarks``: "An", "W2") is set
 * smaller, as wide letters ("Wm") ran out of the circle at the letter's size. */
export function avatar(mark, bot = false) {
  const cls = [bot ? "bot" : null, letters(mark).length > 1 ? "pair" : null].filter(Boolean).join(" ");
  return h("span.avatar", { "aria-hidden": "true", class: cls || null, text: mark });
}

/** A name's characters as drawn (graphemes), the blank ones left out. */
function letters(name) {
  const text = String(name || "");
  const parts = GRAPHEMES ? Array.from(GRAPHEMES.segment(text), (p) => p.segment) : Array.from(text);
  return parts.filter((p) => !BLANK.test(p));
}

/** The mark on an empty seat's avatar in the waiting room. */
export const EMPTY_MARK = "·";

// The letters of other scripts drawn as a Latin one, as the server folds a name before it
// compares it with the bots' (``LOOK_ALIKES`` in server/protocol.py), the small capitals to the
// capital they draw: Вера's Cyrillic "В" and Bob's "B" were two marks drawn alike, and beside a
// bot Вера's read as the bots' avatar letter.
const TWINS = new Map(Array.from(
  // Cyrillic, Greek, the Latin small capitals and the dotless i
  "АВЕКМНОРСТУХЅІЈҮҺԚԜЬ" + "авекмнорстухѕіјүһԁԛԝь" + "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ" + "αβγηικνορτυχ" + "ᴀʙᴄᴅᴇɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢı",
  (c, i) => [c, ("ABEKMHOPCTYXSIJYHQWb" + "abekmhopctyxsijyhdqwb" + "ABEZHIKMNOPTYX" + "abynikvoptux"
    + "ABCDEGHIJKLMNOPRSTUVWYZi")[i]],
));

/** Read alike on an avatar or under a meld: a lower-case l and the digit 1 ("Bl" beside the
 * meld mark "B1" of the bot in seat 1), a letter of another script and its Latin twin. */
const lookAlike = (mark) => Array.from(mark, (c) => TWINS.get(c) || c).join("").replace(/l/g, "1");

/** The marks of a table's people, by seat (the avatar's letters, the mark under each of their
 * melds on a phone), each unlike every other seat's mark at the table in the page's language:
 * the other people's, the bots' (their avatar's letter, "B", and their meld mark with their
 * seat's number, "B2"; "R", "R2" in French) and, in the waiting room, an empty seat's "·".
 * People are put together by their names' initials, and each initial's people take one style:
 * - a person alone with an initial no other seat shows: the initial ("A");
 * - else the initial and the name's next letter ("An", "Al" for Ana and Alberto; "Be" for Ben
 *   at a table with a bot, whose avatar reads "B"), when every one of them has a next letter,
 *   the two-letter marks differ and none reads as a bot's ("Bl" beside the bot in seat 1's
 *   "B1");
 * - else every one of them the initial and their seat's number ("A1", "A2", "A3" for Ana,
 *   Anabel and Alberto; "B1", "B3" for Bea and a person named "B2" beside the bot in seat 2).
 *   Ana and Anabel numbered beside Alberto's "Al" read "A1", "A2" and "Al": two styles for one
 *   letter, and "Al" and "A1" drawn almost alike.
 * A next character that is no letter (a digit, an emoji) counts as none, so a digit after the
 * initial is always the seat's number: a person named "B2" took "B2", the mark of the bot in
 * seat 2. Numbered marks differ from each other and from the bots' (the number
 * is the seat's own), and marks of different initials differ in their first character, so no
 * two seats' marks are alike; every mark is of one or two characters as drawn (a seat's number
 * is of one digit: six seats at most). The marks follow from the seats alone (their order in
 * ``seats`` aside): the same table draws the same marks.
 * ``seats`` are the room's (``{seat, kind, name}``); a seat missing from the result is no
 * person's. */
export function seatMarks(seats) {
  const all = (seats || []).filter(Boolean);
  const people = all.filter((s) => s.kind === "human");
  // what the other seats show: their avatar and, for a bot, its meld mark
  const taken = new Set();
  for (const s of all) {
    if (s.kind === "bot") {
      taken.add(t("seat.botInitial"));
      taken.add(t("seat.botMark", { n: s.seat + 1 }));
    } else if (s.kind === "empty") taken.add(EMPTY_MARK);
  }
  const free = (mark) => ![...taken].some((m) => lookAlike(m) === lookAlike(mark));
  // initials drawn alike are one (Bob's "B" and Вера's Cyrillic "В")
  const byInitial = new Map();
  for (const s of people) {
    const key = lookAlike(initial(s.name));
    byInitial.set(key, [...(byInitial.get(key) || []), s]);
  }
  const marks = new Map();
  for (const group of byInitial.values()) {
    if (group.length === 1 && free(initial(group[0].name))) {
      marks.set(group[0].seat, initial(group[0].name));
      continue;
    }
    const two = group.map((s) => {
      const next = letters(s.name)[1];
      if (!next || !/^\p{L}/u.test(next)) return null;
      const mark = initial(s.name) + next.toLowerCase();
      // a letter that joins the initial when set beside it (Hangul's jamo) makes no second
      return letters(mark).length === 2 ? mark : null;
    });
    const apart = two.every((m) => m && free(m)) && new Set(two.map(lookAlike)).size === two.length;
    group.forEach((s, i) => marks.set(s.seat, apart ? two[i] : `${initial(s.name)}${s.seat + 1}`));
  }
  return marks;
}
