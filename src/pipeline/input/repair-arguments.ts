// Stage 4 of argument preparation: undo the two serialization slips the server can invert with certainty — a
// JSON-stringified array/object (JSON.parse) and a safe integer sent for a string (String(n)) — only at the paths a
// failed parse names. It walks values only; the caller keeps the result only if it then validates.
import type { z } from 'zod';
import { formatIssuePath } from '../../definitions/input/format-issue-path.js';
import type { ArgumentRecord } from './select-variant.js';

type Issue = z.core.$ZodIssue;
type Container = 'array' | 'object';

export interface RepairOutcome {
  readonly args: ArgumentRecord;
  /** Repaired paths, formatted as in rejection messages. */
  readonly coerced: readonly string[];
}

const NO_REPAIR: unique symbol = Symbol('no repair');

/** The repaired copy of `args`, or undefined when no issue named a repairable value. `args` is never mutated. */
export function repairAtIssues(args: ArgumentRecord, issues: readonly Issue[]): RepairOutcome | undefined {
  let repaired: unknown = args;
  const done: (readonly PropertyKey[])[] = [];
  const coerced: string[] = [];
  for (const issue of issues) {
    // One repair per value: a value a repair produced, or one inside it, is never repaired again.
    if (done.some((path) => overlaps(path, issue.path))) continue;
    const found = readPath(args, issue.path);
    if (!found.present) continue;
    const value = repairValue(issue, found.value);
    if (value === NO_REPAIR) continue;
    repaired = writePath(repaired, issue.path, 0, value);
    done.push(issue.path);
    coerced.push(formatIssuePath(issue.path));
  }
  return coerced.length === 0 ? undefined : { args: repaired as ArgumentRecord, coerced };
}

function repairValue(issue: Issue, value: unknown): unknown {
  if (typeof value === 'string') {
    const wanted = expectedContainers(issue);
    if (wanted.size === 0) return NO_REPAIR;
    const parsed = parseJsonContainer(value);
    return parsed !== undefined && wanted.has(parsed.kind) ? parsed.value : NO_REPAIR;
  }
  // -0 stringifies to "0" and a fraction or unsafe integer to digits the caller never sent; only exact ones qualify.
  if (typeof value === 'number' && Number.isSafeInteger(value) && !Object.is(value, -0)) {
    return refusedNumberForString(issue) ? String(value) : NO_REPAIR;
  }
  return NO_REPAIR;
}

/** Containers the issue says were expected, when the value was refused for its type and nothing else. */
function expectedContainers(issue: Issue): ReadonlySet<Container> {
  if (issue.code === 'invalid_type') {
    const kind = containerOf(issue.expected);
    return new Set(kind === undefined ? [] : [kind]);
  }
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return new Set();
  // Every branch must have refused the type; a branch that took the string and failed on content keeps its say.
  if (!issue.errors.every((branch) => branch.some(isTypeRefusalAtRoot))) return new Set();
  const kinds = new Set<Container>();
  for (const branch of issue.errors) {
    for (const inner of branch) {
      if (inner.path.length === 0 && inner.code === 'invalid_type') {
        const kind = containerOf(inner.expected);
        if (kind !== undefined) kinds.add(kind);
      }
    }
  }
  return kinds;
}

function containerOf(expected: string): Container | undefined {
  if (expected === 'array' || expected === 'tuple') return 'array';
  if (expected === 'object' || expected === 'record') return 'object';
  return undefined;
}

function isTypeRefusalAtRoot(issue: Issue): boolean {
  return issue.path.length === 0 && (issue.code === 'invalid_type' || issue.code === 'invalid_value');
}

/**
 * Whether the value failed for being a number where a string would do: a wrong type, a string-only enum, or a
 * union every branch of which refused the type. A number one branch accepted (then failed on range) stays
 * rejected, so -1 cannot slip past `z.number().int().positive()` through a string branch.
 */
function refusedNumberForString(issue: Issue): boolean {
  if (issue.code === 'invalid_type') return issue.expected === 'string';
  if (issue.code === 'invalid_value') return issue.values.length > 0 && issue.values.every(isString);
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return false;
  const refusedByEvery = issue.errors.every((branch) => branch.some(refusesNumberType));
  return refusedByEvery && issue.errors.some((branch) => branch.some(takesString));
}

function refusesNumberType(issue: Issue): boolean {
  if (issue.path.length !== 0) return false;
  if (issue.code === 'invalid_type') return issue.expected !== 'number' && issue.expected !== 'int';
  if (issue.code === 'invalid_value') return !issue.values.some((value) => typeof value === 'number');
  if (issue.code === 'invalid_union') {
    return issue.errors.length > 0 && issue.errors.every((branch) => branch.some(refusesNumberType));
  }
  return false;
}

function takesString(issue: Issue): boolean {
  if (issue.path.length !== 0) return false;
  if (issue.code === 'invalid_type') return issue.expected === 'string';
  if (issue.code === 'invalid_value') return issue.values.some(isString);
  if (issue.code === 'invalid_union') return issue.errors.some((branch) => branch.some(takesString));
  return false;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function parseJsonContainer(text: string): { kind: Container; value: unknown } | undefined {
  const first = text.trimStart()[0];
  if (first !== '[' && first !== '{') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(value)) return { kind: 'array', value };
  if (typeof value === 'object' && value !== null) return { kind: 'object', value };
  return undefined;
}

function overlaps(a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function readPath(root: unknown, path: readonly PropertyKey[]): { present: boolean; value?: unknown } {
  let current = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) {
      return { present: false };
    }
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return { present: true, value: current };
}

/** Copy-on-write along `path`; only the containers on the path are copied. */
function writePath(node: unknown, path: readonly PropertyKey[], depth: number, value: unknown): unknown {
  if (depth === path.length) return value;
  const segment = path[depth]!;
  const container = node as Record<PropertyKey, unknown>;
  const copy: object = Array.isArray(node) ? [...(node as unknown[])] : { ...container };
  // defineProperty, not assignment: a `__proto__` argument key must stay data, never reach the prototype setter.
  Object.defineProperty(copy, segment, {
    value: writePath(container[segment], path, depth + 1, value),
    writable: true,
    enumerable: true,
    configurable: true,
  });
  return copy;
}
