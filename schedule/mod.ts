/**
 * `@chime/schedule` (work in progress).
 *
 * @module
 */
export {};
