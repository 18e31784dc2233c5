// The tool arguments are written once (_args.ts): the JSON Schema the model sees is generated
// from them, the validators parse with them, and the exported types (args.ts) equal them.
import assert from "node:assert/strict";
import type * as v from "valibot";
import {
  CREATE_ARGS,
  DELETE_ARGS,
  jsonSchemaOf,
  LIST_ARGS,
  MAX_PROMPT_LENGTH,
  SNOOZE_ARGS,
  UPDATE_ARGS,
} from "./_args.ts";
import { CREATE_SPEC, DELETE_SPEC, LIST_SPEC, SNOOZE_SPEC, UPDATE_SPEC } from "./_specs.ts";
import {
  type CreateArgs,
  type DeleteArgs,
  SCHEDULE_TOOL_NAMES,
  type SnoozeArgs,
  type UpdateArgs,
} from "./args.ts";
import {
  validateCreateArgs,
  type Validated,
  validateDeleteArgs,
  validateListArgs,
  validateSnoozeArgs,
  validateUpdateArgs,
} from "./rules.ts";

// Compile-time drift check: each exported type is exactly what its schema accepts.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
type Plain<T> = { -readonly [K in keyof T]: Plain<T[K]> };
const typesMatch: [
  Equal<Plain<CreateArgs>, Plain<v.InferInput<typeof CREATE_ARGS>>>,
  Equal<Plain<UpdateArgs>, Plain<v.InferInput<typeof UPDATE_ARGS>>>,
  Equal<Plain<DeleteArgs>, Plain<v.InferInput<typeof DELETE_ARGS>>>,
  Equal<Plain<SnoozeArgs>, Plain<v.InferInput<typeof SNOOZE_ARGS>>>,
] = [true, true, true, true];

type Json = {
  type?: string;
  properties?: Record<string, Json>;
  required?: string[];
  additionalProperties?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: Json[];
};

/** What a model that follows the published JSON Schema may send (the subset the tools use). */
function conforms(schema: Json, value: unknown): boolean {
  if (schema.anyOf) return schema.anyOf.some((s) => conforms(s, value));
  switch (schema.type) {
    case "string":
      return typeof value === "string" &&
        [...value].length >= (schema.minLength ?? 0) &&
        [...value].length <= (schema.maxLength ?? Infinity);
    case "integer":
      return Number.isInteger(value) && (value as number) >= (schema.minimum ?? -Infinity) &&
        (value as number) <= (schema.maximum ?? Infinity);
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
      const o = value as Record<string, unknown>;
      const props = schema.properties ?? {};
      if (schema.additionalProperties === false && Object.keys(o).some((k) => !(k in props))) {
        return false;
      }
      if ((schema.required ?? []).some((k) => !(k in o))) return false;
      return Object.entries(o).every(([k, val]) => !props[k] || conforms(props[k], val));
    }
    default:
      throw new TypeError(`unexpected schema ${JSON.stringify(schema)}`);
  }
}

const ID = "sch_AbCd1234";
const LONG = "x".repeat(MAX_PROMPT_LENGTH);
// Shapes only: every selector value here passes the semantic checks that follow the shape.
const CASES: [string, (args: unknown) => Validated<unknown>, unknown][] = [
  ["create", validateCreateArgs, { prompt: "stretch", after_seconds: 60 }],
  ["create", validateCreateArgs, { prompt: LONG, after_seconds: 1 }],
  ["create", validateCreateArgs, { prompt: `${LONG}x`, after_seconds: 1 }],
  ["create", validateCreateArgs, { prompt: "😀".repeat(MAX_PROMPT_LENGTH), after_seconds: 1 }],
  ["create", validateCreateArgs, { prompt: "", after_seconds: 1 }],
  ["create", validateCreateArgs, { prompt: "x", after_seconds: 0 }],
  ["create", validateCreateArgs, { prompt: "x", after_seconds: 1.5 }],
  ["create", validateCreateArgs, { prompt: "x", after_seconds: "60" }],
  ["create", validateCreateArgs, { prompt: 5, after_seconds: 60 }],
  ["create", validateCreateArgs, { after_seconds: 60 }],
  ["create", validateCreateArgs, { prompt: "x", at: "2030-01-01T00:00:00Z" }],
  ["create", validateCreateArgs, { prompt: "x", at: { date: "2030-01-01", time: "09:00" } }],
  ["create", validateCreateArgs, { prompt: "x", at: { date: "2030-01-01" } }],
  ["create", validateCreateArgs, { prompt: "x", at: { date: "2030-01-01", time: "09:00", z: 1 } }],
  ["create", validateCreateArgs, { prompt: "x", at: 5 }],
  ["create", validateCreateArgs, { prompt: "x", repeat: { rrule: "FREQ=DAILY" } }],
  ["create", validateCreateArgs, { prompt: "x", repeat: { rrule: "FREQ=DAILY", x: 1 } }],
  ["create", validateCreateArgs, { prompt: "x", repeat: { rrule: 1 } }],
  ["create", validateCreateArgs, {
    prompt: "x",
    repeat: { rrule: "FREQ=DAILY", catch_up_seconds: 0 },
  }],
  ["create", validateCreateArgs, {
    prompt: "x",
    repeat: { rrule: "FREQ=DAILY", start: { date: "2030-01-01", time: "09:00" }, time_zone: "UTC" },
  }],
  ["create", validateCreateArgs, { prompt: "x", after_seconds: 60, nope: true }],
  ["update", validateUpdateArgs, { id: ID, prompt: "x" }],
  ["update", validateUpdateArgs, { id: ID, after_seconds: 60 }],
  ["update", validateUpdateArgs, { id: 7, prompt: "x" }],
  ["update", validateUpdateArgs, { prompt: "x" }],
  ["delete", validateDeleteArgs, { id: ID }],
  ["delete", validateDeleteArgs, {}],
  ["delete", validateDeleteArgs, { id: ID, also: 1 }],
  ["list", validateListArgs, {}],
  ["list", validateListArgs, { all: true }],
  ["snooze", validateSnoozeArgs, { id: ID, after_seconds: 600 }],
  ["snooze", validateSnoozeArgs, { id: ID, after_seconds: 59 }],
  ["snooze", validateSnoozeArgs, { id: ID, after_seconds: 604_801 }],
  ["snooze", validateSnoozeArgs, { id: ID }],
];
const SPECS = {
  create: CREATE_SPEC,
  update: UPDATE_SPEC,
  delete: DELETE_SPEC,
  list: LIST_SPEC,
  snooze: SNOOZE_SPEC,
} as const;

Deno.test("each tool's JSON Schema is the one generated from its argument schema", () => {
  assert.ok(typesMatch.every(Boolean));
  assert.deepEqual(CREATE_SPEC.parameters, jsonSchemaOf(CREATE_ARGS));
  assert.deepEqual(UPDATE_SPEC.parameters, jsonSchemaOf(UPDATE_ARGS));
  assert.deepEqual(DELETE_SPEC.parameters, jsonSchemaOf(DELETE_ARGS));
  assert.deepEqual(LIST_SPEC.parameters, jsonSchemaOf(LIST_ARGS));
  assert.deepEqual(SNOOZE_SPEC.parameters, jsonSchemaOf(SNOOZE_ARGS));
  for (const [key, spec] of Object.entries(SPECS)) {
    assert.equal(spec.name, SCHEDULE_TOOL_NAMES[key as keyof typeof SPECS]);
    assert.equal("$schema" in spec.parameters, false);
  }
});

Deno.test("the validator accepts a shape exactly when the published JSON Schema does", () => {
  for (const [tool, validate, args] of CASES) {
    const schema = SPECS[tool as keyof typeof SPECS].parameters as Json;
    const result = validate(args);
    assert.equal(result.ok, conforms(schema, args), `${tool} ${JSON.stringify(args)}`);
    if (!result.ok) assert.equal(result.error.code, "invalid_arguments");
  }
});

Deno.test("shape failures keep their codes and name the field", () => {
  for (const rule of ["every_seconds", "cron"]) {
    for (const validate of [validateCreateArgs, validateUpdateArgs]) {
      const result = validate({ id: ID, prompt: "x", [rule]: 60 });
      assert.equal(!result.ok && result.error.code, "unsupported_rule");
    }
  }
  const nested = validateCreateArgs({ prompt: "x", repeat: { rrule: "FREQ=DAILY", x: 1 } });
  assert.match(!nested.ok ? nested.error.message : "", /repeat has unknown field "x"/);
  const top = validateCreateArgs({ prompt: "x", after_seconds: 60, nope: true });
  assert.match(!top.ok ? top.error.message : "", /^Cannot create schedule: unknown field "nope"/);
  for (const validate of [validateListArgs, validateDeleteArgs, validateSnoozeArgs]) {
    const result = validate([]);
    assert.equal(!result.ok && result.error.code, "invalid_arguments");
  }
});
