/**
 * {@linkcode Loader}: installs plugins into the scopes of root agents published after they
 * loaded (docs/design.md#decision: only future roots, never earlier ones, children or cold
 * history).
 *
 * @module
 */
import { abortReason, attempt } from "./_abort.ts";
import { OwnerStack } from "./_owners.ts";
import type { Agent } from "./agent.ts";
import {
  AgentError,
  type AgentHandle,
  type AgentScope,
  type Plugin,
  type PreStepHook,
  type ToolDefinition,
} from "./types.ts";

/** A loaded plugin; disposing it ends all its agent scopes and stops future installs. */
export interface PluginHandle extends AsyncDisposable, Disposable {
  /** The plugin's name. */
  readonly name: string;
}

/** One (plugin, agent) scope. */
class Scope implements AgentScope {
  readonly #agent: Agent;
  readonly #controller = new AbortController();
  readonly #registrations: Disposable[] = [];
  readonly #owners = new OwnerStack();
  readonly #release: Disposable;
  readonly #onClose: () => void;
  #closing: Promise<void> | undefined;

  constructor(agent: Agent, onClose: () => void) {
    this.#agent = agent;
    this.#onClose = onClose;
    this.#release = agent.own({ [Symbol.asyncDispose]: () => this.close() });
  }

  get agent(): AgentHandle {
    return this.#agent;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  #check(action: string): void {
    if (this.#closing !== undefined) {
      throw new AgentError("disposed", `Cannot ${action}: the plugin scope has ended`);
    }
  }

  registerTool(tool: ToolDefinition): Disposable {
    this.#check("register tool");
    return this.#track(this.#agent.registerTool(tool));
  }

  addPreStep(hook: PreStepHook): Disposable {
    this.#check("add pre-step hook");
    return this.#track(this.#agent.addPreStep(hook));
  }

  own(owner: AsyncDisposable): void {
    this.#check("own");
    this.#owners.adopt(owner);
  }

  #track(registration: Disposable): Disposable {
    this.#registrations.push(registration);
    return registration;
  }

  /** Revokes tools and hooks, aborts the signal, disposes owners (latest first) and awaits them. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#release[Symbol.dispose]();
      for (const registration of this.#registrations.splice(0).reverse()) {
        registration[Symbol.dispose]();
      }
      this.#controller.abort(abortReason("plugin scope ended"));
      try {
        await this.#owners.disposeAll("plugin scope");
      } finally {
        this.#onClose();
      }
    })();
    return this.#closing;
  }
}

interface Loaded {
  readonly plugin: Plugin;
  readonly scopes: Set<Scope>;
}

/**
 * The plugin loader. The host calls {@linkcode Loader.publish} for every live root agent it
 * creates; each plugin loaded before that call gets its own {@linkcode AgentScope} for it.
 *
 * @example Load a plugin that adds a tool to future root agents
 * ```ts
 * import { Loader } from "@chime/agent";
 * await using loader = new Loader();
 * await using _plugin = await loader.load({
 *   name: "echo",
 *   setup(scope) {
 *     scope.registerTool({
 *       name: "echo",
 *       description: "Echoes its arguments.",
 *       parameters: { type: "object" },
 *       execute: (args) => Promise.resolve(args),
 *     });
 *   },
 * });
 * ```
 */
export class Loader implements AsyncDisposable {
  readonly #loaded = new Set<Loaded>();

  /**
   * Loads a plugin. It sees only root agents published from now on.
   *
   * @param plugin the plugin
   * @returns its handle; `await using` / `[Symbol.asyncDispose]()` unloads it and awaits every
   *   scope's owners, `[Symbol.dispose]()` starts the same teardown without waiting
   * @throws {TypeError} when `plugin` has no name or setup function
   */
  load(plugin: Plugin): Promise<PluginHandle> {
    if (typeof plugin?.name !== "string" || typeof plugin.setup !== "function") {
      return Promise.reject(new TypeError("Cannot load plugin: it needs a name and a setup()"));
    }
    const loaded: Loaded = { plugin, scopes: new Set() };
    this.#loaded.add(loaded);
    let closed: Promise<void> | undefined;
    const close = () => {
      closed ??= (async () => {
        this.#loaded.delete(loaded);
        const results = await Promise.allSettled([...loaded.scopes].map((s) => s.close()));
        const failed = results.flatMap((r) => r.status === "rejected" ? [r.reason] : []);
        if (failed.length > 0) throw failed.length === 1 ? failed[0] : new AggregateError(failed);
      })();
      return closed;
    };
    const handle: PluginHandle = {
      name: plugin.name,
      [Symbol.asyncDispose]: close,
      [Symbol.dispose]: () => void close().catch((e) => globalThis.reportError(e)),
    };
    return Promise.resolve(handle);
  }

  /**
   * Offers a live agent to every loaded plugin. Agents whose session is not a root
   * (`header.delegationDepth !== 0`) and disposed agents are ignored. A setup that throws has
   * everything it registered revoked; the others are unaffected.
   *
   * @param agent a live root agent
   * @returns settles after every setup settled; rejects with the setup error(s)
   */
  async publish(agent: Agent): Promise<void> {
    if ((agent.session.header.delegationDepth ?? 0) !== 0 || agent.disposed) return;
    const setups = [...this.#loaded].map(async (loaded) => {
      const scope = new Scope(agent, () => loaded.scopes.delete(scope));
      loaded.scopes.add(scope);
      try {
        await attempt(() => loaded.plugin.setup(scope));
      } catch (error) {
        try {
          await scope.close();
        } catch (rollback) {
          throw new AggregateError(
            [error, rollback],
            `Cannot set up plugin ${loaded.plugin.name}: setup and its rollback failed`,
          );
        }
        throw error;
      }
    });
    const results = await Promise.allSettled(setups);
    const failed = results.flatMap((r) => r.status === "rejected" ? [r.reason] : []);
    if (failed.length === 1) throw failed[0];
    if (failed.length > 1) throw new AggregateError(failed, "Cannot set up plugins");
  }

  /** Unloads every plugin, ending all scopes. */
  async [Symbol.asyncDispose](): Promise<void> {
    const handles = [...this.#loaded];
    const results = await Promise.allSettled(
      handles.map(async (loaded) => {
        this.#loaded.delete(loaded);
        await Promise.all([...loaded.scopes].map((s) => s.close()));
      }),
    );
    const failed = results.flatMap((r) => r.status === "rejected" ? [r.reason] : []);
    if (failed.length > 0) throw failed[0];
  }
}
