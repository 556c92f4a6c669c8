// Per-request half of argument preparation: drop client keys → key aliases → validate (zod's strict parse or the
// JSON Schema validator) → on failure, repair and one re-validation; when that still fails and the drop discarded a
// key, one retry with the alias stage first.
import type { z } from 'zod';
import type { CompiledInput } from '../../definitions/input/compile-input.js';
import { applyKeyAliases, type KeyRewrite } from './apply-key-aliases.js';
import { type DroppedKey, dropClientKeys } from './drop-client-keys.js';
import { type InputRejection, rejectInput, rejectNonObject } from './input-rejection.js';
import { repairAtIssues } from './repair-arguments.js';
import type { ArgumentRecord } from './select-variant.js';

export interface InputEvents {
  /** Root keys the drop stage discarded (client-list and underscore-rule alike). */
  readonly ignored: string[];
  readonly aliased: Array<[from: string, to: string]>;
  /** Paths of repaired values (`filters.status`, `ids[0]`). */
  readonly coerced: string[];
}

export interface PreparedInput<TOutput> {
  readonly ok: true;
  readonly value: TOutput;
  /** What the stages changed, for the debug log and the kiln.input.* counters; nothing of it reaches the caller. */
  readonly events: InputEvents;
}

export type PreparedArguments<TOutput> = PreparedInput<TOutput> | InputRejection;

type KeyOrder = 'drop-first' | 'alias-first';

interface KeyOutcome {
  readonly args: ArgumentRecord;
  readonly dropped: readonly DroppedKey[];
  readonly aliased: readonly KeyRewrite[];
}

type Attempt<TOutput> =
  | { readonly ok: true; readonly keys: KeyOutcome; readonly value: TOutput; readonly coerced: readonly string[] }
  | { readonly ok: false; readonly keys: KeyOutcome; readonly issues: z.core.$ZodIssue[] };

/** `undefined` and `null` arguments mean "no arguments"; anything else that is not an object is rejected. */
export function prepareArguments<TOutput>(
  compiled: CompiledInput<TOutput>,
  rawArgs: unknown,
): PreparedArguments<TOutput> {
  const args = rawArgs ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) return rejectNonObject(compiled, rawArgs);

  const first = attempt(compiled, runKeyStages(compiled, args as ArgumentRecord, 'drop-first'));
  if (first.ok) return accept(first);
  if (first.keys.dropped.length === 0) return rejectInput(compiled, { ...first.keys, issues: first.issues });

  // The drop may have discarded a key the alias stage wanted (`_q` declared as an alias, `_query` for `query`).
  const retryKeys = runKeyStages(compiled, args as ArgumentRecord, 'alias-first');
  // Same drops and rewrites means the same arguments (a `_meta` alone, say): the retry would fail identically.
  if (sameKeyOutcome(first.keys, retryKeys)) return rejectInput(compiled, { ...first.keys, issues: first.issues });
  const retry = attempt(compiled, retryKeys);
  if (retry.ok) return accept(retry);
  // The retry's rejection describes the arguments as the caller meant them.
  return rejectInput(compiled, { ...retry.keys, issues: retry.issues });
}

function attempt<TOutput>(compiled: CompiledInput<TOutput>, keys: KeyOutcome): Attempt<TOutput> {
  const validated = compiled.validate(keys.args);
  if (validated.success) return { ok: true, keys, value: validated.data, coerced: [] };
  if (compiled.options.coerce) {
    const repair = repairAtIssues(keys.args, validated.issues);
    if (repair !== undefined) {
      const revalidated = compiled.validate(repair.args);
      if (revalidated.success) return { ok: true, keys, value: revalidated.data, coerced: repair.coerced };
    }
  }
  // A repair that does not validate is discarded whole: the caller sees the rejection its own arguments earned.
  return { ok: false, keys, issues: validated.issues };
}

function runKeyStages(compiled: CompiledInput, args: ArgumentRecord, order: KeyOrder): KeyOutcome {
  if (order === 'drop-first') {
    const drop = dropClientKeys(compiled, args);
    const alias = applyKeyAliases(compiled, drop.args);
    return { args: alias.args, dropped: drop.dropped, aliased: alias.aliased };
  }
  const alias = applyKeyAliases(compiled, args);
  // Still drops what the alias stage could not resolve: an unknown `_x` is a client key in either order.
  const drop = dropClientKeys(compiled, alias.args);
  return { args: drop.args, dropped: drop.dropped, aliased: alias.aliased };
}

function sameKeyOutcome(a: KeyOutcome, b: KeyOutcome): boolean {
  return (
    a.dropped.length === b.dropped.length &&
    a.aliased.length === b.aliased.length &&
    a.dropped.every((drop, i) => drop.key === b.dropped[i]!.key) &&
    a.aliased.every(([from, to], i) => from === b.aliased[i]![0] && to === b.aliased[i]![1])
  );
}

function accept<TOutput>(success: Extract<Attempt<TOutput>, { ok: true }>): PreparedInput<TOutput> {
  return {
    ok: true,
    value: success.value,
    events: {
      ignored: success.keys.dropped.map((drop) => drop.key),
      aliased: success.keys.aliased.map(([from, to]): [string, string] => [from, to]),
      coerced: [...success.coerced],
    },
  };
}
