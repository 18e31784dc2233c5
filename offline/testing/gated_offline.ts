/**
 * The keyless offline model behind a gate the test holds, recording every request: while the
 * gate is shut a model call stays in flight, so a turn is observably running (Stop, queue).
 * Not published.
 *
 * @module
 */
import { OfflineModel } from "../model.ts";
import { ScriptedModel } from "@chime/agent";
import type { ModelRequest } from "@chime/agent";

/** The model, its requests, the gate and a signal of the first call. */
export interface GatedOffline {
  /** The model to give the agent. */
  readonly model: ScriptedModel;
  /** Every request, in order. */
  readonly requests: ModelRequest[];
  /** Resolve to let calls answer. */
  readonly hold: PromiseWithResolvers<void>;
  /** Resolves when the first call arrived. */
  readonly entered: PromiseWithResolvers<void>;
}

/**
 * Builds the gated offline model.
 *
 * @param gated start with the gate shut @default false
 * @returns the model and its controls
 */
export function gatedOffline(gated = false): GatedOffline {
  const offline = new OfflineModel();
  const hold = Promise.withResolvers<void>();
  const entered = Promise.withResolvers<void>();
  if (!gated) hold.resolve();
  const requests: ModelRequest[] = [];
  const model = new ScriptedModel(async (request) => {
    requests.push(request);
    entered.resolve();
    await hold.promise;
    return await offline.complete(request);
  });
  return { model, requests, hold, entered };
}
