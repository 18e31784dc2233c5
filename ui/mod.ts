/**
 * `@chime/ui` (work in progress).
 *
 * @module
 */
export {};
