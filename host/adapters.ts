/**
 * The host's adapters to other members: the agent port it drives, the configured storage
 * backend and the configured model.
 *
 * @module
 */
import { type ModelAdapter, OpenAICompatibleAdapter } from "@chime/agent";
import { OfflineModel } from "@chime/offline";
import type { Clock, PersistenceBackend, StorageDriver } from "@chime/session";
import type { ModelSettings, StorageSettings } from "./config.ts";
import { storageDriver } from "./registry.ts";

/**
 * What the host drives of a root agent (a structural slice of `@chime/agent`'s `Agent`).
 */
export interface HostAgent {
  /** The id of the running turn, if any. */
  readonly turnId: string | undefined;
  /**
   * Appends a `user-rpc` prompt with its bound provenance and queues it.
   *
   * @param input text, source and optional `edits`
   * @returns the recorded event
   */
  submit(
    input: {
      readonly text: string;
      readonly source: { readonly kind: "web"; readonly clientTimeZone?: string };
    },
  ): { readonly seq: number; readonly data: { readonly messageId: string } };
  /**
   * Queues a new turn for an existing message with its own original provenance (an old
   * message is read from storage first, so this settles once it is queued).
   *
   * @param messageId the message
   */
  retry(messageId: string): Promise<void>;
  /**
   * Appends an edit of a message, keeping its source zone, and queues it.
   *
   * @param messageId the edited message
   * @param text the new text
   * @returns the new event
   */
  edit(
    messageId: string,
    text: string,
  ): Promise<{ readonly seq: number; readonly data: { readonly messageId: string } }>;
  /** Ends the running turn as `cancelled`; throws `no_running_turn` when none runs. */
  cancel(): void;
  /** Resolves when the agent is next idle. */
  whenIdle(): Promise<void>;
}

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
