/* The editor's undo history: a snapshot of the document after each finished edit (a stroke, a palette
 * change, a given, a resize, a field), so undo and redo cover every kind of edit alike. A new picture or
 * puzzle starts a new history. Snapshots share nothing with the document on screen, except the picture's
 * reference luma and where its grid lies (`frame`, which a resize replaces, never changes). */
"use strict";

class StudioHistory {
  constructor(limit = 300) {
    this.limit = limit;
    this.reset(null);
  }

  static snapshot(doc) {
    const copy = {
      grid: doc.grid.map((row) => row.slice()), palette: doc.palette.map((c) => ({ ...c })),
      givens: doc.givens.map((g) => g.slice()), title: doc.title || "", author: doc.author || "",
      license: doc.license || "",
    };
    return { doc: copy, key: JSON.stringify(copy), reference: doc.reference || null, frame: doc.frame || null };
  }

  /* A new document: the history holds it alone. */
  reset(doc) {
    this.stack = doc ? [StudioHistory.snapshot(doc)] : [];
    this.at = this.stack.length - 1;
  }

  /* The document after an edit; false when nothing changed since the last snapshot (a click on the same colour). */
  commit(doc) {
    const snap = StudioHistory.snapshot(doc);
    if (this.at >= 0 && this.stack[this.at].key === snap.key) return false;
    this.stack.splice(this.at + 1);
    this.stack.push(snap);
    if (this.stack.length > this.limit) this.stack.shift();
    this.at = this.stack.length - 1;
    return true;
  }

  canUndo() { return this.at > 0; }
  canRedo() { return this.at < this.stack.length - 1; }

  /* The document before the last edit (a fresh copy), or null. */
  undo() { return this.canUndo() ? this.restore(--this.at) : null; }
  redo() { return this.canRedo() ? this.restore(++this.at) : null; }

  restore(at) {
    const snap = this.stack[at];
    return { ...JSON.parse(snap.key), reference: snap.reference, frame: snap.frame };
  }
}
