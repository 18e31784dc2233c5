/**
 * A storage driver for tests, over `MemoryBackend` of `@chime/session/testing`: what a new
 * driver is (docs/architecture.md "Storage drivers"): one folder with a `StorageDriver`, plus
 * one row in a driver table. Settings `{ kind: "memory-test", name, shared? }`; every open of
 * the same `name` returns the same backend, so a test reads back what a host stored.
 *
 * @module
 */
import { type PersistenceBackend, type StorageDriver, StorageSettingsError } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";

/** Parsed settings of {@linkcode memoryDriver}. */
export type MemorySettings = {
  readonly kind: "memory-test";
  readonly name: string;
  readonly shared?: boolean;
};

/** The backends opened so far, by `name`. */
export const MEMORY_STORES: Map<string, MemoryBackend> = new Map();

/** The fake driver (kind `memory-test`). */
export const memoryDriver: StorageDriver<MemorySettings> = {
  kind: "memory-test",
  parse(raw) {
    for (const key of Object.keys(raw)) {
      if (!key.startsWith("#") && !["kind", "name", "shared"].includes(key)) {
        throw new StorageSettingsError(`unknown key "storage.${key}" (known: kind, name, shared)`);
      }
    }
    const name = typeof raw.name === "string" ? raw.name : "default";
    return {
      kind: "memory-test",
      name,
      ...(raw.shared === true ? { shared: true } : {}),
    };
  },
  shared: (settings) => settings.shared === true,
  directory: () => undefined,
  describe: (settings) => `memory:${settings.name}`,
  open(settings) {
    let backend = MEMORY_STORES.get(settings.name);
    if (backend === undefined) {
      backend = new MemoryBackend();
      MEMORY_STORES.set(settings.name, backend);
    }
    // Disposing a `MemoryBackend` keeps its sessions: a reopen reads them back.
    return Promise.resolve<PersistenceBackend>(backend);
  },
};

/** A driver that claims shared storage but brings no lease table. */
export const leaselessDriver: StorageDriver<MemorySettings> = {
  ...memoryDriver,
  kind: "leaseless-test",
  shared: () => true,
};
