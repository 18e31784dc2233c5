/**
 * The host's adapters to other members: the agent port it drives, the configured storage
 * backend and the configured model.
 *
 * @module
 */
import { type Agent, type ModelAdapter, OpenAICompatibleAdapter } from "@chime/agent";
import type { AgentHandle } from "@chime/contract";
import { OfflineModel } from "@chime/offline";
import type { Clock, PersistenceBackend, StorageDriver } from "@chime/session";
import type { ModelSettings, StorageSettings } from "./config.ts";
import { storageDriver } from "../registry.ts";

/**
 * What the host drives of a root agent: the `Agent` of `@chime/agent` as its routes use it
 * (prompts, retries, edits, cancel, idleness), which is also the plugin contract's
 * `AgentHandle` that plugin routes get (`WebHost.agentFor`, `contract/web.ts`).
 */
export type HostAgent =
  & Pick<Agent, "turnId" | "submit" | "retry" | "edit" | "cancel" | "whenIdle">
  & AgentHandle;

/**
 * Opens the configured backend through its driver (`host/registry.ts`), making its local data
 * directory first when it has one.
 *
 * @param storage resolved storage settings
 * @param options in shared mode `fence`, the fencing token this host holds for each session;
 *   `drivers`, the table `storage.kind` resolves against (default `STORAGE_DRIVERS`)
 * @returns the open backend
 */
export async function openBackend(
  storage: StorageSettings,
  options: {
    readonly fence?: (sessionId: string) => number | undefined;
    readonly drivers?: Readonly<Record<string, StorageDriver>>;
  } = {},
): Promise<PersistenceBackend> {
  const driver = storageDriver(
    storage.kind,
    options.drivers === undefined ? {} : { drivers: options.drivers },
  );
  const dir = driver.directory(storage);
  if (dir !== undefined) await Deno.mkdir(dir, { recursive: true });
  return await driver.open(storage, options.fence === undefined ? {} : { fence: options.fence });
}

/**
 * Builds the configured model adapter, carrying `settings.contextTokens` (the agent fits each
 * request into it; absent: the adapter's default, README "Configuration").
 *
 * @param settings the model settings after env overrides
 * @param clock the clock the OpenAI-compatible adapter uses for retries
 * @returns the adapter, or `undefined` for `{ kind: 'none' }` (turns end with `model_missing`)
 */
export function createModel(settings: ModelSettings, clock: Clock): ModelAdapter | undefined {
  if (settings.kind === "none") return undefined;
  const contextTokens = settings.contextTokens;
  if (settings.kind === "offline") {
    const offline = new OfflineModel();
    if (contextTokens === undefined) return offline;
    return { name: offline.name, contextTokens, complete: (request) => offline.complete(request) };
  }
  return new OpenAICompatibleAdapter({
    baseURL: settings.baseURL,
    model: settings.model,
    apiKey: settings.apiKey,
    clock,
    ...(contextTokens === undefined ? {} : { contextTokens }),
  });
}
