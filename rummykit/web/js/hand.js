// The player's own arrangement of the hand: groups the player made, then the loose cards.
// The server only knows the multiset of cards; the order and the groups live here (and in
// localStorage, so a reload keeps them). Each physical card gets a local id ("7H#2") because
// the two decks hold every face twice.

import { parseCard, sortByRank, sortBySuit } from "./cards.js";

export class Arrangement {
  constructor(key) {
    this.key = key; // localStorage key, or null
    this.groups = []; // arrays of ids
    this.loose = []; // ids
    this.deal = null;
    this.counter = 0;
    this.fresh = new Set(); // ids that arrived with the latest state (highlighted)
    this.leaving = new Set(); // ids just sent away (a discard): removed first when the hand shrinks
    this.sortMode = "suit";
    // the loose cards are in the order the last sort left them (no card moved by hand since):
    // a card drawn then goes to its sorted place, not to the end, where a player who sorts
    // had to sort again at every turn
    this.sorted = false;
  }

  static textOf(id) {
    return id.split("#")[0];
  }

  newId(text) {
    this.counter += 1;
    return `${text}#${this.counter}`;
  }

  load() {
    if (!this.key) return;
    try {
      const saved = JSON.parse(localStorage.getItem(this.key) || "null");
      if (saved && Array.isArray(saved.groups) && Array.isArray(saved.loose)) {
        this.deal = saved.deal ?? null;
        this.sortMode = saved.sortMode || "suit";
        this.sorted = saved.sorted === true;
        this.groups = saved.groups.map((g) => g.map((t) => this.newId(t)));
        this.loose = saved.loose.map((t) => this.newId(t));
      }
    } catch {
      /* a broken save is simply forgotten */
    }
  }

  save() {
    if (!this.key) return;
    const data = {
      deal: this.deal,
      sortMode: this.sortMode,
      sorted: this.sorted,
      groups: this.groups.map((g) => g.map(Arrangement.textOf)),
      loose: this.loose.map(Arrangement.textOf),
    };
    try {
      localStorage.setItem(this.key, JSON.stringify(data));
    } catch {
      /* storage full or disabled: the arrangement lasts until reload */
    }
  }

  /** Bring the arrangement in line with the hand the server sent (a list of card texts). */
  reconcile(hand, deal) {
    const hadDeal = this.deal;
    if (deal !== this.deal) {
      this.groups = [];
      this.loose = [];
      this.deal = deal;
    }
    const left = new Map();
    for (const text of hand) left.set(text, (left.get(text) || 0) + 1);
    // cards the player just sent away go first, when the hand now holds fewer of their kind
    const have = new Map();
    for (const id of this.all()) have.set(Arrangement.textOf(id), (have.get(Arrangement.textOf(id)) || 0) + 1);
    for (const id of this.leaving) {
      const text = Arrangement.textOf(id);
      if (this.all().includes(id) && (have.get(text) || 0) > (left.get(text) || 0)) {
        this.remove(id);
        have.set(text, have.get(text) - 1);
      }
    }
    this.leaving = new Set();
    const keep = (id) => {
      const text = Arrangement.textOf(id);
      const n = left.get(text) || 0;
      if (n <= 0) return false;
      left.set(text, n - 1);
      return true;
    };
    this.groups = this.groups.map((g) => g.filter(keep)).filter((g) => g.length > 0);
    this.loose = this.loose.filter(keep);
    const added = [];
    for (const [text, n] of left) for (let i = 0; i < n; i++) added.push(this.newId(text));
    this.fresh = new Set(hadDeal === deal ? added : []);
    this.loose.push(...added);
    if (hadDeal !== deal || (added.length && this.sorted)) this.sortLoose(this.sortMode);
    this.save();
  }

  all() {
    return [...this.groups.flat(), ...this.loose];
  }

  /** These cards are on their way out (an action was sent): the next hand drops them first. */
  expectGone(ids) {
    this.leaving = new Set(ids);
  }

  /** The ids of the cards these melds (lists of card texts, as the engine lays them) take out
   * of the hand: each meld's copies come first from the group that shares most cards with it,
   * so that of two copies of a face the one arranged with that meld leaves. */
  idsOf(melds) {
    const taken = new Set();
    const out = [];
    for (const meld of melds) {
      const count = (g) => g.filter((id) => meld.includes(Arrangement.textOf(id))).length;
      const lists = [...this.groups].sort((a, b) => count(b) - count(a));
      const pool = [...lists.flat(), ...this.loose];
      for (const text of meld) {
        const id = pool.find((x) => !taken.has(x) && Arrangement.textOf(x) === text);
        if (id) {
          taken.add(id);
          out.push(id);
        }
      }
    }
    return out;
  }

  cards(ids) {
    return ids.map((id) => parseCard(Arrangement.textOf(id)));
  }

  sortLoose(mode) {
    this.sortMode = mode;
    const cmp = mode === "rank" ? sortByRank : sortBySuit;
    // a stable sort: of two equal faces, the one first stays first
    this.loose.sort((a, b) => cmp(parseCard(Arrangement.textOf(a)), parseCard(Arrangement.textOf(b))));
    this.sorted = true;
    this.save();
  }

  /** Sort everything: groups are dissolved back into the loose cards. */
  sortAll(mode) {
    this.loose = this.all();
    this.groups = [];
    this.sortLoose(mode);
  }

  remove(id) {
    this.groups = this.groups.map((g) => g.filter((x) => x !== id)).filter((g) => g.length > 0);
    this.loose = this.loose.filter((x) => x !== id);
  }

  /** Where a card is: {group: index or -1 for loose, index}. */
  locate(id) {
    for (let g = 0; g < this.groups.length; g++) {
      const i = this.groups[g].indexOf(id);
      if (i >= 0) return { group: g, index: i };
    }
    const i = this.loose.indexOf(id);
    return i >= 0 ? { group: -1, index: i } : null;
  }

  list(group) {
    return group === -1 ? this.loose : this.groups[group];
  }

  /** Move cards before the card `beforeId` (or to the end of `group` when beforeId is null). */
  move(ids, group, beforeId = null) {
    const target = group === -1 ? this.loose : this.groups[group];
    if (!target) return;
    this.takeOut(ids);
    let at = beforeId ? target.indexOf(beforeId) : -1;
    if (at < 0) at = target.length;
    target.splice(at, 0, ...ids);
    if (group === -1) this.sorted = false;
    this.groups = this.groups.filter((g) => g.length > 0);
    this.save();
  }

  /** Remove ids from their lists in place (empty groups stay until the caller cleans up). */
  takeOut(ids) {
    for (const id of ids) {
      for (const list of [...this.groups, this.loose]) {
        const i = list.indexOf(id);
        if (i >= 0) list.splice(i, 1);
      }
    }
  }

  /** Make a new group of these cards (after the existing groups, or at position `at`). */
  group(ids, at = null) {
    if (!ids.length) return;
    ids.forEach((id) => this.remove(id));
    const g = [...ids];
    if (at === null || at > this.groups.length) this.groups.push(g);
    else this.groups.splice(at, 0, g);
    this.save();
  }

  ungroup(index) {
    const g = this.groups[index];
    if (!g) return;
    this.groups.splice(index, 1);
    this.loose.unshift(...g);
    this.sorted = false;
    this.save();
  }

  ungroupAll() {
    this.loose = this.all();
    this.groups = [];
    this.sortLoose(this.sortMode);
  }

  /** Use melds (lists of card texts, e.g. the opening meter's) as the groups. */
  arrange(melds) {
    this.loose = this.all();
    this.groups = [];
    for (const meld of melds) {
      const ids = [];
      for (const text of meld) {
        const i = this.loose.findIndex((id) => Arrangement.textOf(id) === text);
        if (i < 0) {
          if (text === "X") continue;
          continue;
        }
        ids.push(this.loose.splice(i, 1)[0]);
      }
      if (ids.length) this.groups.push(ids);
    }
    this.sortLoose(this.sortMode);
  }

  /** Move one card one place left (-1) or right (+1), across group borders. */
  nudge(id, dir) {
    const lists = [...this.groups, this.loose];
    const flat = [];
    lists.forEach((list, li) => list.forEach((x) => flat.push([li, x])));
    const i = flat.findIndex(([, x]) => x === id);
    const j = i + dir;
    if (i < 0 || j < 0 || j >= flat.length) return;
    const [li] = flat[i];
    const [lj, other] = flat[j];
    if (li === lists.length - 1 || lj === lists.length - 1) this.sorted = false;
    if (li === lj) {
      const list = lists[li];
      const a = list.indexOf(id);
      const b = list.indexOf(other);
      list[a] = other;
      list[b] = id;
    } else {
      this.takeOut([id]);
      if (dir > 0) lists[lj].unshift(id);
      else lists[lj].push(id);
      this.groups = this.groups.filter((g) => g.length > 0);
    }
    this.save();
  }
}
