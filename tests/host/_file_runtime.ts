/**
 * A host runtime over a real libSQL file in `dir` with a scripted model (tests that need real
 * storage through the host, e.g. a restart on the same file).
 *
 * @module
 */
import type { ModelAdapter } from "@chime/agent";
import { HostRuntime } from "@chime/host";
import { LibsqlBackend } from "@chime/session/libsql";

/**
 * Opens the runtime.
 *
 * @param dir the data directory (`chime.db` inside)
 * @param model the model
 * @param plugins plugin names @default the web-schedule pair
 * @returns the runtime (dispose to close it)
 */
export async function fileRuntime(
  dir: string,
  model: ModelAdapter,
  plugins: readonly string[] = ["@chime/timecontext", "@chime/schedule"],
): Promise<HostRuntime> {
  const url = `file:${dir}/chime.db`;
  return await HostRuntime.open({
    config: {
      storage: { kind: "libsql", url },
      model: { kind: "offline", reason: "test" },
      plugins,
      renderers: [],
      cwd: "/",
    },
    backend: await LibsqlBackend.open({ url }),
    model,
  });
}
