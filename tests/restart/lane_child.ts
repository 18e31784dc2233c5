/**
 * A real host process for the restart lanes: a libSQL (or JSONL) store, a live root agent with a
 * scripted model, and the time-context and schedule plugins installed through the Loader. It
 * prints one JSON line per observation and runs until killed (`SIGKILL` in the lanes).
 *
 * Usage: `deno run -A tests/restart/lane_child.ts '<LaneConfig JSON>'`.
 *
 * @module
 */
import {
  Agent,
  Loader,
  ModelError,
  type ModelRequest,
  ScriptedModel,
  type ScriptedReply,
} from "@chime/agent";
import { STORAGE_DRIVERS } from "@chime/host";
import { type PersistenceBackend, type Session, SessionStore } from "@chime/session";
import { timeContextPlugin } from "@chime/timecontext";
import { schedulePlugin } from "../../schedule/plugin.ts";

/** What one lane process does. */
export interface LaneConfig {
  /** Where the session lives: the `storage` settings of a registered driver. */
  readonly storage:
    | { readonly kind: "libsql"; readonly url: string; readonly shared?: boolean }
    | { readonly kind: "jsonl"; readonly dir: string }
    | { readonly kind: "postgres"; readonly url: string };
  /** The root session id (created on first run, resumed afterwards). */
  readonly sessionId: string;
  /**
   * Reminders to create through the model, `[prompt, seconds, selector?, count?]`, in order;
   * `local` asks for an implicit local `at { date, time }` in the session zone (needs the
   * time-context marker and the message's client zone); `minutely` for a recurring
   * `FREQ=MINUTELY;COUNT=count` series starting `seconds` from now in the implicit zone;
   * otherwise `after_seconds`.
   */
  readonly create?:
    readonly (readonly [string, number, ("after" | "local" | "minutely")?, number?])[];
  /** Fork the root after the creates into this child id and run an agent on it too. */
  readonly forkId?: string;
  /** Resume this already-stored fork child too. */
  readonly resumeFork?: string;
  /** `fail`: the model rejects every reminder follow-up turn. @default "ok" */
  readonly model?: "ok" | "fail";
}

const TIME_ZONE = "Europe/Berlin";

function print(line: Record<string, unknown>): void {
  console.log(JSON.stringify({ t: Date.now(), ...line }));
}

function lastUserText(request: ModelRequest): string {
  const last = request.messages.findLast((m) => m.role !== "system");
  if (last?.role === "tool") return "<tool>";
  const batch: string[] = [];
  for (const message of request.messages.toReversed()) {
    if (message.role !== "user") break;
    batch.push(message.content);
  }
  return batch.join("\n");
}

function model(config: LaneConfig): ScriptedModel {
  return new ScriptedModel((request): ScriptedReply => {
    const text = lastUserText(request);
    if (text === "<tool>") return { text: "done" };
    if (text.includes("<schedule-reminder>")) {
      if (config.model === "fail") {
        throw new ModelError("model_server_error", "Cannot complete: the lane model is down");
      }
      return { text: "reminded" };
    }
    const match = /CREATE (\S+) (\d+) (after|local|minutely) (\d+)/.exec(text);
    if (match === null) return { text: "nothing to do" };
    const seconds = Number(match[2]);
    const local = Temporal.Now.zonedDateTimeISO(TIME_ZONE).add({ seconds: seconds + 1 });
    const at = {
      date: local.toPlainDate().toString(),
      time: local.toPlainTime().toString().slice(0, 8),
    };
    const repeat = { rrule: `FREQ=MINUTELY;COUNT=${match[4]}`, start: at };
    const args = JSON.stringify(
      match[3] === "local"
        ? { prompt: match[1], at }
        : match[3] === "minutely"
        ? { prompt: match[1], repeat }
        : { prompt: match[1], after_seconds: seconds },
    );
    return { toolCalls: [{ id: `call-${match[1]}`, name: "schedule_create", arguments: args }] };
  });
}

/**
 * Opens a lane's storage through the host's driver table (the lanes and their checks open it
 * the same way).
 */
export async function openStorage(storage: LaneConfig["storage"]): Promise<PersistenceBackend> {
  return await STORAGE_DRIVERS[storage.kind]!.open(storage, {});
}

function watch(session: Session): void {
  session.subscribe((event) => {
    if (["followup", "schedule/change", "tool/result", "turn/end"].includes(event.type)) {
      print({ session: session.id, event });
    }
  });
}

async function live(store: SessionStore, loader: Loader, session: Session, config: LaneConfig) {
  watch(session);
  const agent = new Agent({ session, store, model: model(config) });
  await loader.publish(agent);
  return agent;
}

async function main(config: LaneConfig): Promise<void> {
  const store = new SessionStore({ backend: await openStorage(config.storage) });
  store.onFlushed((session, throughSeq) => print({ session: session.id, flushed: throughSeq }));
  const loader = new Loader();
  await loader.load(timeContextPlugin());
  await loader.load(schedulePlugin({
    logger: {
      warn: (message, details) => print({ warn: message, details: String(details) }),
      error: (message, details) => print({ error: message, details: String(details) }),
    },
  }));
  const session = await store.create({ id: config.sessionId, cwd: "/lane", timeZone: TIME_ZONE });
  const agent = await live(store, loader, session, config);
  if (config.resumeFork !== undefined) {
    await live(store, loader, await store.resume(config.resumeFork), config);
  }
  print({ ready: session.id, length: session.length });
  for (const [prompt, seconds, selector = "after", count = 1] of config.create ?? []) {
    agent.submit({
      text: `CREATE ${prompt} ${seconds} ${selector} ${count}`,
      source: { kind: "web", clientTimeZone: TIME_ZONE },
    });
    await agent.whenIdle();
  }
  if (config.forkId !== undefined) {
    await store.flush(session);
    const child = await store.fork(session, { id: config.forkId });
    await store.flush(child);
    await live(store, loader, child, config);
    print({ forked: child.id, seedLength: child.header.seedLength });
  }
  print({ created: (config.create ?? []).length });
  // Timers of the owners keep the process alive only while a reminder is pending.
  setInterval(() => {}, 1 << 30);
}

if (import.meta.main) await main(JSON.parse(Deno.args[0] ?? "{}"));
