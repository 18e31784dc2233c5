// The JSON Schemas the model sees (_specs.ts) stay in step with the validators (rules.ts).
import assert from "node:assert/strict";
import { MAX_COUNT, MAX_INTERVAL } from "./_rrule_parse.ts";
import { CREATE_SPEC, DELETE_SPEC, LIST_SPEC, SNOOZE_SPEC, UPDATE_SPEC } from "./_specs.ts";
import {
  MAX_PROMPT_LENGTH,
  MAX_SNOOZE_SECONDS,
  MIN_SNOOZE_SECONDS,
  validateCreateArgs,
  type Validated,
  validateDeleteArgs,
  validateListArgs,
  validateSnoozeArgs,
  validateUpdateArgs,
} from "./rules.ts";

type Schema = {
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: Schema[];
  description?: string;
};

const props = (spec: { parameters: unknown }) => (spec.parameters as Schema).properties!;

/** A value every field of the schema accepts (the validators must accept it too). */
const SAMPLES: Record<string, unknown> = {
  prompt: "stretch",
  after_seconds: 60,
  at: "2030-01-01T00:00:00Z",
  repeat: { rrule: "FREQ=DAILY", time_zone: "UTC" },
  id: "sch_AbCd1234",
};

function accepts(result: Validated<unknown>): boolean {
  return result.ok;
}

Deno.test("every schema property is a field the validator accepts, and nothing else is", () => {
  const selectors = ["after_seconds", "at", "repeat"];
  const cases: [typeof CREATE_SPEC, (args: unknown) => Validated<unknown>, object][] = [
    [CREATE_SPEC, validateCreateArgs, { prompt: "x", after_seconds: 60 }],
    [UPDATE_SPEC, validateUpdateArgs, { id: SAMPLES.id, prompt: "x" }],
    [DELETE_SPEC, validateDeleteArgs, { id: SAMPLES.id }],
    [LIST_SPEC, validateListArgs, {}],
  ];
  for (const [spec, validate, base] of cases) {
    const schema = spec.parameters as Schema;
    assert.equal(schema.additionalProperties, false, spec.name);
    assert.ok(accepts(validate(base)), spec.name);
    for (const key of Object.keys(props(spec))) {
      const args: Record<string, unknown> = { ...base };
      if (selectors.includes(key)) { for (const other of selectors) delete args[other]; }
      args[key] = SAMPLES[key];
      assert.ok(accepts(validate(args)), `${spec.name}.${key}`);
    }
    for (const key of schema.required ?? []) {
      const args: Record<string, unknown> = { ...base };
      delete args[key];
      assert.ok(!accepts(validate(args)), `${spec.name} without ${key}`);
    }
    assert.ok(!accepts(validate({ ...base, not_in_schema: 1 })), `${spec.name} extra`);
  }
  assert.ok(accepts(validateSnoozeArgs({ id: SAMPLES.id, after_seconds: MIN_SNOOZE_SECONDS })));
  assert.deepEqual(Object.keys(props(SNOOZE_SPEC)), ["id", "after_seconds"]);
});

Deno.test("schema bounds equal the validator bounds", () => {
  for (const spec of [CREATE_SPEC, UPDATE_SPEC]) {
    const prompt = props(spec).prompt!;
    assert.equal(prompt.minLength, 1);
    assert.equal(prompt.maxLength, MAX_PROMPT_LENGTH);
    const long = "x".repeat(MAX_PROMPT_LENGTH);
    assert.ok(accepts(validateCreateArgs({ prompt: long, after_seconds: 1 })));
    assert.ok(!accepts(validateCreateArgs({ prompt: `${long}x`, after_seconds: 1 })));
    assert.equal(props(spec).after_seconds!.minimum, 1);
    const repeat = props(spec).repeat!;
    assert.deepEqual(repeat.required, ["rrule"]);
    assert.equal(repeat.additionalProperties, false);
    assert.deepEqual(Object.keys(repeat.properties!), [
      "rrule",
      "start",
      "time_zone",
      "catch_up_seconds",
    ]);
    assert.equal(repeat.properties!.catch_up_seconds!.minimum, 1);
    const rule = repeat.properties!.rrule!.description!;
    assert.ok(rule.includes(`COUNT (1..${MAX_COUNT})`) && rule.includes(`1..${MAX_INTERVAL}`));
  }
  const seconds = props(SNOOZE_SPEC).after_seconds!;
  assert.equal(seconds.minimum, MIN_SNOOZE_SECONDS);
  assert.equal(seconds.maximum, MAX_SNOOZE_SECONDS);
  const id = "sch_AbCd1234";
  assert.ok(!accepts(validateSnoozeArgs({ id, after_seconds: MIN_SNOOZE_SECONDS - 1 })));
  assert.ok(accepts(validateSnoozeArgs({ id, after_seconds: MAX_SNOOZE_SECONDS })));
  assert.ok(!accepts(validateSnoozeArgs({ id, after_seconds: MAX_SNOOZE_SECONDS + 1 })));
  assert.deepEqual(SNOOZE_SPEC.parameters.required, ["id", "after_seconds"]);
});
