/**
 * The names of the client renderer modules bundled in the page (`ui/renderers.ts` maps each to
 * its module). A configuration's `renderers` may name only these; the host reads the list through
 * `@chime/ui/assets`, so it knows no renderer by name.
 *
 * @module
 */

/** Client renderer modules in the built page, by package export name. */
export const RENDERER_NAMES: readonly string[] = ["@chime/ui/schedule", "@chime/ui/push"];
