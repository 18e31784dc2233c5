/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * One open session: the transcript, the composer and the reminders panel, with the schedule
 * renderer's services (snooze, stop, outcomes) lent through the render context.
 *
 * @module
 */
import type { VNode } from "preact";
import { useEffect, useMemo } from "preact/hooks";
import type { RenderContext } from "../registry.ts";
import { eventViews } from "../registry.ts";
import { promptsById, SCHEDULE_SERVICES, type ScheduleServices } from "../schedule.ts";
import { TranscriptAdapter } from "../transcript.ts";
import type { SessionWindow } from "../window.ts";
import { Composer } from "./composer.tsx";
import { messageStates } from "./lifecycle.ts";
import type { Page } from "./model.ts";
import { durableScheduleMark } from "./reminders.ts";
import { RemindersPanel } from "./reminders_panel.tsx";
import { Transcript } from "./transcript.tsx";

/** The open session. */
export function SessionView(props: { readonly model: Page; readonly w: SessionWindow }): VNode {
  const { model, w } = props;
  const adapter = useMemo(() => new TranscriptAdapter(), [w]);
  const events = w.events.value;
  const nodes = adapter.present(events, w.views.value);
  const states = useMemo(() => messageStates(events), [events]);
  const prompts = useMemo(() => promptsById(events), [events]);
  const reminders = model.reminders.value;
  const outcomes = model.outcomes.value;
  const h = model.header.value;
  // A create, delete or dispatch became durable: the host's fold changed.
  const mark = durableScheduleMark(events, w.durableBefore.value);
  useEffect(() => {
    const id = model.current.peek();
    if (mark >= 0 && id) void model.refreshReminders(id);
  }, [w, mark]);
  const services: ScheduleServices = useMemo(() => ({
    activeRecurring: new Set(reminders.filter((r) => r.kind === "recurring").map((r) => r.id)),
    promptOf: (id) => prompts.get(id) ?? reminders.find((r) => r.id === id)?.prompt,
    outcome: (key) => outcomes.get(key),
    snooze: (id, seconds, key) => void model.snooze(id, seconds, key),
    stop: (id, key) => void model.stopRepeating(id, key),
  }), [reminders, outcomes, prompts]);
  const base = model.ctx.value;
  const ctx: RenderContext = useMemo(
    () => ({ ...base, services: { [SCHEDULE_SERVICES]: services } }),
    [base, services],
  );
  return (
    <div class="session">
      <div class="col">
        {w.status.value === "loading" && events.length === 0 && <div class="loading" />}
        {w.error.value && <div class="banner warn" role="status">{w.error.value}</div>}
        <Transcript
          nodes={nodes}
          registry={eventViews}
          ctx={ctx}
          thinking={model.running.value}
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
        />
      </div>
      <RemindersPanel
        reminders={reminders}
        ctx={ctx}
        open={model.sheet.value}
        onClose={() => model.setSheet(false)}
      />
    </div>
  );
}
