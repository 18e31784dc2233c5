/**
 * `@chime/host` (work in progress).
 *
 * @module
 */
export {};
