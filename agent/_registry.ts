/**
 * The agent-scoped registries of tools and pre-step hooks. Private to `@chime/agent`.
 *
 * @module
 */
import type { ModelToolSpec, PreStepHook, ToolDefinition } from "./types.ts";

/** OpenAI's function-name rule. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Tools by name; registrations are revoked by disposing their handle. */
export class ToolRegistry {
  readonly #tools = new Map<string, ToolDefinition>();

  /** @throws {TypeError} for a bad or duplicate name */
  register(tool: ToolDefinition): Disposable {
    if (typeof tool?.name !== "string" || !TOOL_NAME.test(tool.name)) {
      throw new TypeError(`Cannot register tool: bad name ${String(tool?.name)}`);
    }
    if (typeof tool.execute !== "function") {
      throw new TypeError(`Cannot register tool ${tool.name}: execute is not a function`);
    }
    if (this.#tools.has(tool.name)) {
      throw new TypeError(`Cannot register tool ${tool.name}: the name is taken`);
    }
    this.#tools.set(tool.name, tool);
    return {
      [Symbol.dispose]: () => {
        if (this.#tools.get(tool.name) === tool) this.#tools.delete(tool.name);
      },
    };
  }

  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name);
  }

  /** The specs the model sees now, in registration order. */
  specs(): ModelToolSpec[] {
    return [...this.#tools.values()].map(({ name, description, parameters }) => ({
      name,
      description,
      parameters,
    }));
  }

  clear(): void {
    this.#tools.clear();
  }
}

/** Pre-step hooks in registration order. */
export class HookList {
  readonly #hooks = new Set<{ hook: PreStepHook }>();

  add(hook: PreStepHook): Disposable {
    if (typeof hook !== "function") {
      throw new TypeError("Cannot add pre-step hook: not a function");
    }
    const entry = { hook };
    this.#hooks.add(entry);
    return { [Symbol.dispose]: () => this.#hooks.delete(entry) };
  }

  snapshot(): PreStepHook[] {
    return [...this.#hooks].map((e) => e.hook);
  }

  clear(): void {
    this.#hooks.clear();
  }
}
