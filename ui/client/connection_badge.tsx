/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The connection badge of the open session's stream.
 *
 * @module
 */
import type { VNode } from "preact";
import type { Connection } from "./stream.ts";
import { text } from "./strings.ts";

/** The connection badge (`data-state` is the {@linkcode Connection}). */
export function ConnectionBadge(props: { readonly state: Connection }): VNode {
  return (
    <span
      class={`conn ${props.state}`}
      data-testid="connection-status"
      data-state={props.state}
      role="status"
    >
      <span class="conn-dot" aria-hidden="true" />
      <span class="conn-label">{text(props.state)}</span>
    </span>
  );
}
