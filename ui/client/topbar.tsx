/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The top bar: the drawer button (phones), the page's one `<h1>` (the session title), fork
 * parentage and zone, the chip of each enabled panel (phones), fork, connection, language.
 *
 * @module
 */
import type { VNode } from "preact";
import { lang } from "../i18n.ts";
import { icon } from "../icons.ts";
import { ConnectionBadge } from "./connection_badge.tsx";
import { LangToggle } from "./lang_toggle.tsx";
import type { Page } from "./model.ts";
import { PanelChip } from "./panel_chip.tsx";
import { isRenaming, SessionAdminButtons, SessionTitle } from "./session_admin.tsx";
import { connection } from "./stream.ts";
import { text } from "./strings.ts";

/** The top bar. */
export function Topbar(props: { readonly model: Page }): VNode {
  const { model } = props;
  const w = model.win.value;
  const h = model.header.value;
  const id = model.current.value;
  const summary = model.sessions.value.find((s) => s.header.id === id);
  const view = model.views.value.find((v) => v.definition.name === model.view.value);
  const title = model.missing.value !== null
    ? text("missingTitle")
    : id
    ? summary?.title || text("untitled")
    : view
    ? view.definition.label(lang.value)
    : "chime";
  const parent = summary?.forkOf ?? (h?.lineage ? { id: h.lineage.parentId, title: null } : null);
  return (
    <header class={`topbar${w && isRenaming(model) ? " renaming" : ""}`}>
      <button
        type="button"
        class="ghost icon-only menu-button"
        aria-label={text("menu")}
        aria-expanded={model.drawer.value}
        aria-controls="sessions"
        data-testid="open-drawer"
        onClick={() => model.setDrawer(!model.drawer.peek())}
      >
        {icon("menu")}
      </button>
      <div class="title">
        {w
          ? <SessionTitle model={model} title={title} />
          : <h1 data-testid="page-title">{title}</h1>}
        {(parent || h?.timeZone) && (
          <p class="sub">
            {parent && (
              <span data-testid="header-fork-of">
                {icon("fork")} {text("forkOf")} {parent.title || parent.id.slice(0, 8)}
              </span>
            )}
            {h?.timeZone && (
              <span class="zone-label">
                {text("zone")}: {h.timeZone}
              </span>
            )}
          </p>
        )}
      </div>
      <div class="tools">
        {w &&
          model.panels.value.map((panel) => (
            <PanelChip key={panel.definition.name} model={model} panel={panel} />
          ))}
        {w && (
          <button
            type="button"
            class="ghost fork-button"
            data-testid="fork-session"
            title={text("forkTitle")}
            aria-label={text("fork")}
            disabled={model.busy.value}
            onClick={() => void model.fork()}
          >
            {icon("fork")}
            <span class="label" aria-hidden="true">{text("fork")}</span>
          </button>
        )}
        {w && <SessionAdminButtons model={model} />}
        {w && <ConnectionBadge state={connection.value} />}
        <LangToggle />
      </div>
    </header>
  );
}
