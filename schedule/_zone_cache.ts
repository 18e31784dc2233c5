// Private: local wall-clock ↔ instant conversion for one IANA zone. Temporal decides every case
// near a transition; far from one, a cached constant offset answers with plain arithmetic, which
// keeps long MINUTELY expansions cheap.

/** Wall-clock milliseconds: the local date-time's fields read as if they were UTC. */
export type WallMs = number;

/** Fields of a wall time, for Temporal. */
function plain(wall: WallMs): Temporal.PlainDateTime {
  const d = new Date(wall);
  return new Temporal.PlainDateTime(
    d.getUTCFullYear(),
    d.getUTCMonth() + 1,
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

/** The wall ms of a Temporal wall-clock value. */
export function wallOfPlain(p: Temporal.PlainDateTime): WallMs {
  const ms = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, p.millisecond);
  // Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear keeps the proleptic year.
  return p.year < 100 ? new Date(ms).setUTCFullYear(p.year) : ms;
}

/** Converts between wall times and instants in one zone (RFC 5545 §3.3.5 for gaps). */
export class ZoneClock {
  readonly zone: string;
  #offset = 0;
  // Instants where #offset is the zone's offset: [#start, #end), the transitions around the last
  // instant learned. Walls whose guess lies in [#from, #to) have exactly one instant: each end is
  // moved inward by its transition's shift, the longest a gap or an overlap there can be.
  #start = Infinity;
  #end = -Infinity;
  #from = Infinity;
  #to = -Infinity;

  constructor(zone: string) {
    this.zone = zone;
  }

  #learn(zoned: Temporal.ZonedDateTime): void {
    // Temporal's "previous" transition is strictly before its instant: asked one nanosecond
    // later, it is the last transition at or before it, so an instant exactly on a transition
    // learns the offset after it for the period after it only (docs/recurring.md "Records").
    const previous = zoned.add({ nanoseconds: 1 }).getTimeZoneTransition("previous");
    const next = zoned.getTimeZoneTransition("next");
    this.#offset = zoned.offsetNanoseconds / 1_000_000;
    const shift = (transition: Temporal.ZonedDateTime) =>
      Math.abs(
        transition.offsetNanoseconds - transition.subtract({ nanoseconds: 1 }).offsetNanoseconds,
      ) / 1_000_000;
    this.#start = previous === null ? -Infinity : previous.epochMilliseconds;
    this.#end = next === null ? Infinity : next.epochMilliseconds;
    this.#from = previous === null ? -Infinity : this.#start + shift(previous);
    this.#to = next === null ? Infinity : this.#end - shift(next);
  }

  /**
   * The instant of a wall time: a nonexistent one moves forward by the gap, an ambiguous one
   * takes the earlier instant (Temporal's `compatible`).
   */
  instant(wall: WallMs): number {
    const guess = wall - this.#offset;
    if (guess >= this.#from && guess < this.#to) return guess;
    const zoned = plain(wall).toZonedDateTime(this.zone, { disambiguation: "compatible" });
    this.#learn(zoned);
    return zoned.epochMilliseconds;
  }

  /** The wall time of an instant. */
  wall(instant: number): WallMs {
    if (instant >= this.#start && instant < this.#end) return instant + this.#offset;
    const zoned = Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(this.zone);
    this.#learn(zoned);
    return wallOfPlain(zoned.toPlainDateTime());
  }

  /** The last transition at or before `instant` when it is within `withinMs`, else undefined. */
  recentTransition(instant: number, withinMs: number): number | undefined {
    this.wall(instant); // learns the window [#start, #end) that holds `instant`
    return instant - this.#start <= withinMs ? this.#start : undefined;
  }
}
