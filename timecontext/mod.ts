/**
 * `@chime/timecontext` (work in progress).
 *
 * @module
 */
export {};
