// Your own agent loop with the schedule plugin (README "Embedding"): a session log in a libSQL
// file, an agent with the keyless offline model, the time-context and schedule plugins, and one
// reminder set and delivered. Run: deno run -A examples/embed/main.ts [DATA_DIR]
import { Agent, Loader } from "@chime/agent";
import { OfflineModel } from "@chime/offline";
import { schedulePlugin } from "@chime/schedule";
import { LibsqlBackend, SessionStore } from "@chime/session";
import { timeContextPlugin } from "@chime/timecontext";

const dir = Deno.args[0] ?? await Deno.makeTempDir();
const timeZone = "Europe/Berlin";
await using backend = await LibsqlBackend.open({ url: `file:${dir}/chime.db` });
await using store = new SessionStore({ backend });
const session = await store.create({ cwd: dir, timeZone });
await using loader = new Loader();
await using _time = await loader.load(timeContextPlugin());
await using _schedule = await loader.load(schedulePlugin());
await using agent = new Agent({ session, store, model: new OfflineModel() });
await loader.publish(agent); // plugins install on agents published after they loaded

const reminded = Promise.withResolvers<void>();
using _replies = session.subscribe((event) => {
  if (event.type !== "assistant/message") return;
  const { text } = event.data as { text: string };
  if (text) console.log(`assistant: ${text}`);
  if (text.startsWith("Reminder")) reminded.resolve();
});
agent.submit({
  text: "remind me in 1 second to stretch",
  source: { kind: "web", clientTimeZone: timeZone },
});
await reminded.promise; // the live owner fires it: a follow-up turn the model answers
await agent.whenIdle();
await store.flush(session);
console.log(`session ${session.id}: ${session.events().length} events in ${dir}/chime.db`);
