/**
 * `@chime/migrations` (work in progress).
 *
 * @module
 */
export {};
