import assert from "node:assert/strict";
import fc from "fast-check";
import { ReplyAssembler } from "./_stream_assembler.ts";
import { ModelError } from "./types.ts";

function delta(d: object, finish: string | null = null) {
  return { choices: [{ delta: d, finish_reason: finish }] };
}

Deno.test("`ReplyAssembler` rebuilds any split of parallel tool-call arguments", () => {
  const call = fc.record({
    name: fc.stringMatching(/^[a-z_]{1,12}$/),
    args: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), {
      maxKeys: 4,
    }),
  });
  fc.assert(fc.property(fc.array(call, { minLength: 1, maxLength: 4 }), fc.nat(), (calls, seed) => {
    const texts = calls.map((c) => JSON.stringify(c.args));
    const assembler = new ReplyAssembler();
    calls.forEach((c, index) => {
      assembler.push(
        delta({ tool_calls: [{ index, id: `id${index}`, function: { name: c.name } }] }),
      );
    });
    // Interleave fragments of every call, cut at pseudo-random points.
    const cursors = texts.map(() => 0);
    let r = seed;
    while (cursors.some((at, i) => at < texts[i]!.length)) {
      const open = texts.flatMap((t, i) => cursors[i]! < t.length ? [i] : []);
      const index = open[r % open.length]!;
      r = (r * 1103515245 + 12345) % 2 ** 31;
      const text = texts[index]!;
      const at = cursors[index]!;
      const end = Math.min(text.length, at + 1 + (r % 5));
      assembler.push(
        delta({ tool_calls: [{ index, function: { arguments: text.slice(at, end) } }] }),
      );
      cursors[index] = end;
    }
    assembler.push(delta({}, "tool_calls"));
    const reply = assembler.finish();
    assert.deepEqual(
      reply.toolCalls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
      calls.map((c, i) => [`id${i}`, c.name, JSON.parse(texts[i]!)]),
    );
  }));
});

Deno.test("`ReplyAssembler` concatenates text and treats empty arguments as `{}`", () => {
  const assembler = new ReplyAssembler();
  assembler.push(delta({ content: "Hel" }));
  assembler.push({ choices: [] });
  assembler.push(
    delta({ content: "lo", tool_calls: [{ index: 0, id: "c", function: { name: "f" } }] }),
  );
  assembler.push(delta({}, "stop"));
  assert.deepEqual(assembler.finish(), {
    text: "Hello",
    toolCalls: [{ id: "c", name: "f", arguments: "{}" }],
  });
});

Deno.test("`ReplyAssembler` rejects calls without id, non-object arguments and cut streams", () => {
  const bad = (events: object[]) => {
    const assembler = new ReplyAssembler();
    for (const e of events) assembler.push(e);
    assert.throws(
      () => assembler.finish(),
      (e) => e instanceof ModelError && e.code === "model_bad_response",
    );
  };
  bad([delta({ content: "x" })]);
  bad([
    delta({ tool_calls: [{ index: 0, function: { name: "f", arguments: "{}" } }] }),
    delta({}, "tool_calls"),
  ]);
  bad([
    delta({ tool_calls: [{ index: 0, id: "c", function: { name: "f", arguments: "[1]" } }] }),
    delta({}, "tool_calls"),
  ]);
  bad([
    delta({ tool_calls: [{ index: 0, id: "c", function: { name: "f", arguments: "{" } }] }),
    delta({}, "tool_calls"),
  ]);
});
