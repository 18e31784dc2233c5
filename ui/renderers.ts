/**
 * The page's static registry of client renderer modules, by the names `chime.jsonc` uses
 * (`ui/renderer_names.ts` lists the same names for the host). It is the one place the page names
 * a renderer module; the page enables only those `GET /api/client-config` lists.
 *
 * @module
 */
import type { ClientRenderer } from "./client_renderer.ts";
import { SCHEDULE_CLIENT } from "./schedule/mod.ts";
import { PUSH_CLIENT } from "./push/mod.ts";

/** Client renderer modules bundled in the page, by name. */
export const CLIENT_RENDERERS: Readonly<Record<string, ClientRenderer>> = {
  [SCHEDULE_CLIENT.name]: SCHEDULE_CLIENT,
  [PUSH_CLIENT.name]: PUSH_CLIENT,
};
