/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The chip of one enabled panel in the top bar (phones and tablets): its icon, its label for
 * screen readers and its count; it opens the panel as a sheet.
 *
 * @module
 */
import type { VNode } from "preact";
import { lang } from "../i18n.ts";
import { icon, type IconName } from "../icons.ts";
import type { Page, ShownPanel } from "./model.ts";

/** The chip of a panel (`data-testid="<name>-chip"`, count `"<name>-count"`). */
export function PanelChip(props: { readonly model: Page; readonly panel: ShownPanel }): VNode {
  const { model } = props;
  const { name } = props.panel.definition;
  const open = model.sheet.value === name;
  return (
    <button
      type="button"
      class="chip panel-chip"
      aria-expanded={open}
      aria-controls={name}
      data-testid={`${name}-chip`}
      onClick={() => model.setSheet(open ? null : name)}
    >
      {icon(props.panel.definition.icon as IconName)}
      <span class="sr-only">{props.panel.definition.label(lang.value)}</span>
      <span class="count" data-testid={`${name}-count`}>{props.panel.model.count.value}</span>
    </button>
  );
}
