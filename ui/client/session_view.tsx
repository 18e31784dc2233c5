/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * One open session: the transcript, the composer and the panel slot (the panels the client
 * configuration enabled, e.g. the schedule renderer's reminders), with the panels' services lent
 * to the renderers through the render context.
 *
 * @module
 */
import type { VNode } from "preact";
import { useMemo } from "preact/hooks";
import { eventViews } from "../registry.ts";
import { TranscriptAdapter } from "../transcript.ts";
import type { SessionWindow } from "../window.ts";
import { lang } from "../i18n.ts";
import { Composer } from "./composer.tsx";
import { errorText } from "./error_text.ts";
import { messageStates } from "./lifecycle.ts";
import type { Page } from "./model.ts";
import { Transcript } from "./transcript.tsx";

/** The open session. */
export function SessionView(props: { readonly model: Page; readonly w: SessionWindow }): VNode {
  const { model, w } = props;
  const adapter = useMemo(() => new TranscriptAdapter(), [w]);
  const events = w.events.value;
  const nodes = adapter.present(events, w.views.value);
  const states = useMemo(() => messageStates(events), [events]);
  const h = model.header.value;
  const ctx = model.ctx.value;
  const panels = model.panels.value;
  return (
    <div class={`session${panels.length > 0 ? " with-panel" : ""}`}>
      <div class="col">
        {w.status.value === "loading" && events.length === 0 && <div class="loading" />}
        {w.error.value && (
          <div class="banner warn" role="status" data-testid="window-error">
            {errorText(w.failure.value?.err ?? w.error.value, lang.value)}
          </div>
        )}
        <Transcript
          nodes={nodes}
          registry={eventViews}
          ctx={ctx}
          thinking={model.running.value}
          hello={model.hello.value}
          canLoadOlder={w.nextBefore.value !== null}
          onOlder={() => void w.loadOlder()}
          loadingOlder={w.loadingOlder.value}
          states={states}
          actions={model}
          seedLength={h?.seedLength ?? 0}
          follow={model.follow.value}
        />
        <Composer
          disabled={model.sending.value}
          onSend={model.send}
          running={model.running.value}
          onStop={() => void model.stop()}
          placeholder={model.placeholder.value}
        />
      </div>
      {panels.map(({ definition, model: panel }) => (
        <definition.view
          key={definition.name}
          model={panel}
          ctx={ctx}
          open={model.sheet.value === definition.name}
          onClose={() => model.setSheet(null)}
          focus={model.focusOf(definition.name)}
        />
      ))}
    </div>
  );
}
