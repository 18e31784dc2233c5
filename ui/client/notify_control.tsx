/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The notification control: asks for permission only when clicked (never on load), says what
 * the browser decided, and holds the chime setting (off by default).
 *
 * @module
 */
import type { VNode } from "preact";
import { icon } from "../icons.ts";
import type { Page } from "./model.ts";
import { text } from "./strings.ts";

/** The notification and chime settings. */
export function NotifyControl(props: { readonly model: Page }): VNode {
  const { alerts } = props.model;
  const permission = alerts.permission.value;
  const delivery = props.model.delivery.value;
  return (
    <div class="notify" data-testid="notify-control" data-permission={permission}>
      {permission === "default" && (
        <button
          type="button"
          class="secondary"
          data-testid="notify-enable"
          onClick={() => void alerts.askPermission()}
        >
          {icon("bell")} {text("notifyAsk")}
        </button>
      )}
      {permission === "granted" && (
        <p class="small notify-state" data-testid="notify-on">
          {icon("check")} {text("notifyOn")}
        </p>
      )}
      {permission === "granted" && delivery !== null && delivery.supported && (
        <label class="small switch">
          <input
            type="checkbox"
            data-testid="push-toggle"
            checked={delivery.on.value}
            onChange={(e) => void delivery.set((e.currentTarget as HTMLInputElement).checked)}
          />{" "}
          {text("pushClosed")}
        </label>
      )}
      {permission === "denied" && <p class="small muted">{text("notifyDenied")}</p>}
      {permission === "unsupported" && <p class="small muted">{text("notifyNone")}</p>}
      <label class="small switch">
        <input
          type="checkbox"
          data-testid="chime-toggle"
          checked={alerts.chimeOn.value}
          onChange={(e) => alerts.setChime((e.currentTarget as HTMLInputElement).checked)}
        />{" "}
        {text("sound")}
      </label>
    </div>
  );
}
