// The rejection a call gets when no order of the input stages validates it. The issues name only the keys that were
// validated, so the notes say what the attempt moved or discarded; otherwise a bad value and a moved key look alike.
import type { z } from 'zod';
import type { CompiledInput } from '../../definitions/input/compile-input.js';
import { formatIssuePath } from '../../definitions/input/format-issue-path.js';
import type { KeyRewrite } from './apply-key-aliases.js';
import type { DroppedKey } from './drop-client-keys.js';
import { type ArgumentRecord, selectVariant } from './select-variant.js';

export interface InputRejection {
  readonly ok: false;
  readonly issues: z.core.$ZodIssue[];
  /** `Invalid arguments for tool <name>: Unrecognized key: "querry"`; several issues are joined with `; `. */
  readonly message: string;
  /**
   * Closing hint sentences, in order: `Validated <from> as <to>.` per rewrite, `Dropped undeclared key <key>.` per
   * underscore-rule drop, then `Accepted keys: a, b.` when a key was rejected as unrecognized.
   */
  readonly notes: string[];
  /** Present when the reported attempt rewrote a key or dropped one by the underscore rule. */
  readonly input?: { dropped: string[]; aliased: Array<[from: string, to: string]> };
}

export interface RejectedAttempt {
  /** The arguments the issues describe, after the key stages. */
  readonly args: ArgumentRecord;
  readonly issues: z.core.$ZodIssue[];
  readonly dropped: readonly DroppedKey[];
  readonly aliased: readonly KeyRewrite[];
}

export function rejectInput(compiled: CompiledInput, attempt: RejectedAttempt): InputRejection {
  // Client-list drops (`_meta`, `toolCallId`) are not reported: the caller never wrote them and cannot act on them.
  const dropped = attempt.dropped.filter((drop) => drop.byUnderscoreRule).map((drop) => drop.key);
  const aliased = attempt.aliased.map(([from, to]): [string, string] => [from, to]);
  const notes = [
    ...aliased.map(([from, to]) => `Validated ${from} as ${to}.`),
    ...dropped.map((key) => `Dropped undeclared key ${key}.`),
  ];
  const acceptedKeys = acceptedKeysHint(compiled, attempt);
  if (acceptedKeys !== undefined) notes.push(acceptedKeys);
  return {
    ok: false,
    issues: attempt.issues,
    message: `Invalid arguments for tool ${compiled.toolName}: ${summarizeIssues(attempt.issues)}`,
    notes,
    ...(dropped.length > 0 || aliased.length > 0 ? { input: { dropped, aliased } } : {}),
  };
}

/** Rejects arguments that are not an object at all; there are no keys to prepare. */
export function rejectNonObject(compiled: CompiledInput, raw: unknown): InputRejection {
  const received = Array.isArray(raw) ? 'array' : typeof raw;
  const issue: z.core.$ZodIssue = {
    code: 'invalid_type',
    expected: 'object',
    path: [],
    message: `Invalid input: expected an object of named arguments, received ${received}`,
  };
  return rejectInput(compiled, { args: {}, issues: [issue], dropped: [], aliased: [] });
}

function summarizeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path = formatIssuePath(issue.path);
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}

function acceptedKeysHint(compiled: CompiledInput, attempt: RejectedAttempt): string | undefined {
  const unrecognized = attempt.issues.some((issue) => issue.code === 'unrecognized_keys' && issue.path.length === 0);
  if (!unrecognized) return undefined;
  const variant = selectVariant(compiled, attempt.args);
  const keys = variant === undefined ? [...compiled.declaredKeys] : variant.acceptedKeys;
  return keys.length === 0 ? 'This tool takes no arguments.' : `Accepted keys: ${keys.join(', ')}.`;
}
