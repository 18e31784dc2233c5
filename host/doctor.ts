/**
 * `deno task doctor PATH`: the storage doctor of `@chime/session` (`doctorMain`) with the log
 * checks of every plugin the host can load (`pluginLogChecks`), so a stored `schedule/change`
 * the schedule fold refuses is reported by session and seq like any other damage (README
 * "Failure behaviour"). Exit codes: `0` no damage, `1` damage found, `2` cannot scan.
 *
 * @module
 */
import { doctorMain } from "@chime/session";
import { pluginLogChecks, PLUGINS } from "./registry.ts";

if (import.meta.main) {
  const logChecks = pluginLogChecks(Object.keys(PLUGINS));
  Deno.exit(await doctorMain(Deno.args, console.log, { logChecks }));
}
