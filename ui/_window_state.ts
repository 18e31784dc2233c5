/**
 * The synchronous state of a session window: signals plus the merge primitives the async
 * flows in `window.ts` share. Internal; never exported from the package.
 *
 * @module
 */
import { batch, signal } from "@preact/signals";
import { deepEqual } from "./_deep_equal.ts";
import {
  type BufferEntry,
  type EventSnapshot,
  isDense,
  type OlderExit,
  type OlderPage,
  type WindowStatus,
} from "./window_types.ts";
import type { EventView, WireEvent } from "./wire.ts";

/** An in-flight older page with the sidecars it stages for seqs below the window. */
export interface OlderFlight {
  readonly gen: number;
  readonly staged: Map<number, BufferEntry>;
  promise: Promise<OlderExit>;
}

/** Signals and merge primitives of one window. */
export class WindowState {
  readonly events = signal<readonly WireEvent[]>([]);
  readonly views = signal<ReadonlyMap<number, EventView>>(new Map());
  readonly tail = signal(-1);
  readonly nextBefore = signal<number | null>(null);
  readonly status = signal<WindowStatus>("idle");
  readonly error = signal<string | null>(null);
  /** The failure behind {@linkcode error}, for a sentence in the UI language. */
  readonly failure = signal<{ readonly err: unknown } | null>(null);
  readonly generation = signal(0);
  readonly durableBefore = signal(0);
  readonly bufferSize = signal(0);
  readonly olderLoading = signal(false);
  readonly buffer = new Map<number, BufferEntry>();
  readonly #onConflict: (what: string, seq: number) => void;

  constructor(onConflict: (what: string, seq: number) => void) {
    this.#onConflict = onConflict;
  }

  /** Reports an identity conflict (the window starts a full resync). */
  conflict(what: string, seq: number): "conflict" {
    this.#onConflict(what, seq);
    return "conflict";
  }

  first(): number {
    return this.events.value[0]?.seq ?? this.tail.value + 1;
  }

  held(seq: number): WireEvent | undefined {
    return this.events.value[seq - this.first()];
  }

  sameAsHeld(event: WireEvent): boolean {
    return deepEqual(this.held(event.seq), event);
  }

  setView(seq: number, view: EventView): void {
    this.views.value = new Map(this.views.value).set(seq, view);
  }

  append(entry: BufferEntry): void {
    this.events.value = [...this.events.value, entry.event];
    this.tail.value = entry.event.seq;
    if (entry.view) this.setView(entry.event.seq, entry.view);
  }

  /** Appends the next seq, then drains the buffer; `false` on a conflict. */
  appendAndDrain(entry: BufferEntry): boolean {
    let ok = true;
    batch(() => {
      this.append(entry);
      ok = this.drain();
    });
    return ok;
  }

  failed(err: unknown): void {
    batch(() => {
      this.error.value = err instanceof Error ? err.message : String(err);
      this.failure.value = { err };
    });
  }

  sortedBuffer(): BufferEntry[] {
    return [...this.buffer.values()].sort((a, b) => a.event.seq - b.event.seq);
  }

  /** Holds a live event beyond a gap; identical duplicates merge their view. */
  hold(
    event: WireEvent,
    view: EventView | undefined,
  ): "buffered" | "duplicate" | "upgraded" | "conflict" {
    const held = this.buffer.get(event.seq);
    if (held && !deepEqual(held.event, event)) return this.conflict("buffered event", event.seq);
    const merged = view ?? held?.view;
    this.buffer.set(event.seq, { event, ...(merged ? { view: merged } : {}) });
    this.bufferSize.value = this.buffer.size;
    return held ? (view ? "upgraded" : "duplicate") : "buffered";
  }

  /**
   * Moves covered and contiguous buffered entries into the window, keeping the rest
   * (not-yet-covered events stay in the existing liveBuffer,
   * docs/design.md#browser-session-window).
   *
   * @returns `false` after an identity conflict
   */
  drain(): boolean {
    for (const entry of this.sortedBuffer()) {
      const seq = entry.event.seq;
      if (seq > this.tail.value + 1) break;
      this.buffer.delete(seq);
      if (seq === this.tail.value + 1) this.append(entry);
      else if (seq >= this.first()) {
        if (!this.sameAsHeld(entry.event)) {
          this.bufferSize.value = this.buffer.size;
          this.conflict("buffered event", seq);
          return false;
        }
        if (entry.view) this.setView(seq, entry.view);
      }
    }
    this.bufferSize.value = this.buffer.size;
    return true;
  }

  /** Replaces the window by a tail page, then drains the buffer; `false` on a conflict. */
  replace(page: OlderPage): boolean {
    if (!isDense(page.events)) throw new SyntaxError("Cannot load history: events not dense");
    let ok = true;
    batch(() => {
      this.events.value = page.events;
      this.views.value = viewMap(page.views);
      this.tail.value = page.events.at(-1)?.seq ?? -1;
      this.nextBefore.value = page.nextBefore;
      this.error.value = null;
      this.failure.value = null;
      this.status.value = "ready";
      ok = this.drain();
    });
    return ok;
  }

  /**
   * Merges a repair snapshot: overlap must be identical, new events must connect at
   * `tail + 1`, buffered entries must match; the rest of the buffer is kept. Every held event
   * from `from` (the first seq the snapshot was asked for) to the tail must be in the
   * snapshot: a host whose log is now shorter lost events the window shows (a conflict).
   */
  mergeSnapshot(snap: EventSnapshot, from: number): "repaired" | "conflict" {
    const tail = this.tail.value;
    if (from <= tail) {
      const first = snap.events[0]?.seq ?? Infinity;
      const last = snap.events.at(-1)?.seq ?? -1;
      if (first > from || last < tail) {
        return this.conflict("repair snapshot lacks a held event", Math.max(from, last + 1));
      }
    }
    let exit: "repaired" | "conflict" = "repaired";
    batch(() => {
      for (const event of snap.events) {
        const seq = event.seq;
        const view = snap.views[String(seq)];
        if (seq < this.first()) continue;
        const buffered = this.buffer.get(seq);
        if (buffered && !deepEqual(buffered.event, event)) {
          exit = this.conflict("repair snapshot vs buffer", seq);
          return;
        }
        if (seq <= this.tail.value) {
          if (!this.sameAsHeld(event)) {
            exit = this.conflict("repair snapshot", seq);
            return;
          }
          if (view) this.setView(seq, view);
        } else if (seq === this.tail.value + 1) {
          const merged = view ?? buffered?.view;
          this.append({ event, ...(merged ? { view: merged } : {}) });
          this.buffer.delete(seq);
        } else {
          exit = this.conflict("repair snapshot does not connect", seq);
          return;
        }
      }
      this.error.value = null;
      this.failure.value = null;
      if (!this.drain()) exit = "conflict";
    });
    return exit;
  }

  /**
   * Prepends an older page to the current array (which kept receiving live events) and
   * attaches staged sidecars whose event the page returned identically.
   */
  prepend(page: OlderPage, staged: ReadonlyMap<number, BufferEntry>): "prepended" | "conflict" {
    const last = page.events.at(-1);
    if (!isDense(page.events) || (last !== undefined && last.seq !== this.first() - 1)) {
      return this.conflict("older page", this.first());
    }
    const base = page.events[0]?.seq ?? 0;
    batch(() => {
      const views = new Map(this.views.value);
      for (const [seq, view] of viewMap(page.views)) views.set(seq, view);
      for (const [seq, entry] of staged) {
        const got = page.events[seq - base];
        if (entry.view && got?.seq === seq && deepEqual(got, entry.event)) {
          views.set(seq, entry.view);
        }
      }
      this.views.value = views;
      this.events.value = [...page.events, ...this.events.value];
      this.nextBefore.value = page.nextBefore;
      this.error.value = null;
      this.failure.value = null;
    });
    return "prepended";
  }

  clear(): void {
    this.buffer.clear();
    this.events.value = [];
    this.views.value = new Map();
    this.tail.value = -1;
    this.nextBefore.value = null;
    this.bufferSize.value = 0;
  }
}

/**
 * Turns a JSON `views` object into a map by numeric seq.
 *
 * @param views views keyed by decimal seq
 * @returns the map
 */
export function viewMap(views: Readonly<Record<string, EventView>>): Map<number, EventView> {
  return new Map(Object.entries(views).map(([k, v]) => [Number(k), v]));
}
