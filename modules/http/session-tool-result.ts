// A tool result as the SDK's 2025 dispatch sends it: its tools/call handler wrapper parses the result with the
// 2025-11-25 wire schema and sends the parsed value, so keys come out in the schema's order (a loose result object:
// unknown keys after the known ones; strict content blocks: unknown keys dropped). The session direct path sends the
// same bytes without the parse; test/http/session-direct-diff.test.ts holds the two to each other.

type Json = Record<string, unknown>;

const RESULT_KEYS = ['_meta', 'content', 'structuredContent', 'isError'];
const ANNOTATION_KEYS = ['audience', 'priority', 'lastModified'];
const CONTENTS_KEYS = ['uri', 'mimeType', '_meta', 'text', 'blob'];
const MEDIA_KEYS = ['type', 'data', 'mimeType', 'annotations', '_meta'];
const BLOCK_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ['type', 'text', 'annotations', '_meta'],
  image: MEDIA_KEYS,
  audio: MEDIA_KEYS,
  resource: ['type', 'resource', 'annotations', '_meta'],
  resource_link: ['name', 'title', 'icons', 'uri', 'description', 'mimeType', 'size', 'annotations', '_meta', 'type'],
};

/** The SDK's contentless normalisation, then the wire schema's key order. */
export function toolResultOnLegacyWire(result: Json): Json {
  const normalised = hasOtherFamily(result) || result.content !== undefined ? result : { ...result, content: [] };
  const out = pick(normalised, RESULT_KEYS);
  for (const key in normalised) if (!(key in out)) out[key] = normalised[key];
  if (Array.isArray(out.content)) out.content = out.content.map(block);
  return out;
}

function hasOtherFamily(result: Json): boolean {
  return 'task' in result || 'inputRequests' in result || 'requestState' in result;
}

function block(value: unknown): unknown {
  if (!isPlainObject(value) || typeof value.type !== 'string') return value;
  const keys = BLOCK_KEYS[value.type];
  if (!keys) return value;
  const out = pick(value, keys);
  if (isPlainObject(out.annotations)) out.annotations = pick(out.annotations, ANNOTATION_KEYS);
  if (value.type === 'resource' && isPlainObject(out.resource)) out.resource = pick(out.resource, CONTENTS_KEYS);
  return out;
}

/** The named keys present in `value`, in the given order. */
function pick(value: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
