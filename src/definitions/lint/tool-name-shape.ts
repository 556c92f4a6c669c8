// The shape the authoring guide asks of a tool name beyond snake_case: {server}_{verb}_{noun}, the noun dropped only
// when the verb is a complete action on its own (git_pull, git_status). A name is judged on words, which a machine
// reads only roughly, so these are warnings: a single word (no domain, no object), or a name ending in a verb that
// leaves "…what?" unanswered (notes_search: search what?).

/**
 * Verbs that take an object: a name ending in one is missing its noun, or has it before the verb. Words as often
 * nouns as verbs (export, update, query, count) are left out: `billing_export` names a thing.
 */
const OBJECT_VERBS = new Set([
  'add',
  'compare',
  'connect',
  'convert',
  'create',
  'delete',
  'download',
  'edit',
  'fetch',
  'find',
  'generate',
  'get',
  'list',
  'load',
  'parse',
  'put',
  'read',
  'remove',
  'render',
  'resolve',
  'save',
  'search',
  'send',
  'set',
  'upload',
  'validate',
  'write',
]);

/** What is wrong with a snake_case tool name's shape, or undefined when it reads as {server}_{verb}_{noun}. */
export function toolNameShapeProblem(name: string): string | undefined {
  const words = name.split('_');
  if (words.length === 1) {
    return (
      `name '${name}' is one word, naming neither the domain nor the object; ` +
      'use {server}_{verb}_{noun} (for example notes_search_notes)'
    );
  }
  const last = words.at(-1) as string;
  if (OBJECT_VERBS.has(last)) {
    const prefix = words.slice(0, -1).join('_');
    return (
      `name '${name}' ends in the verb '${last}' (${last} what?); name the object after the verb ` +
      `(${prefix}_${last}_<noun>), or swap the words if the noun came first`
    );
  }
  return undefined;
}
