// A resource template's URI matcher, compiled once at boot. The SDK's UriTemplate.match rebuilds its regular
// expression from the template on every call (escaping each literal part again). For a template whose expressions are
// all plain `{name}` (RFC 6570 level 1, what nearly every resource uses) Kiln builds that same expression once: each
// literal escaped as the SDK escapes it, each variable `([^/,]+)`, anchored at both ends. A template using operators,
// explode or prefixes, and a URI past the SDK's length bound, are matched by the SDK's UriTemplate as they are.
// test/definitions/uri-matcher.test.ts holds both to the same answers over a corpus of templates and URIs.
import type { UriTemplate } from '@modelcontextprotocol/server';

export interface UriMatcher {
  /** The template's variables as the URI fills them, or null when it does not match. */
  match(uri: string): Record<string, string | string[]> | null;
}

/** The SDK refuses (throws for) URIs longer than this; such a URI is left to it. */
const SDK_MAX_URI_LENGTH = 1_000_000;
const PLAIN_VARIABLE = /^[A-Za-z0-9_]+$/;

export function compileUriMatcher(template: UriTemplate): UriMatcher {
  const source = template.toString();
  const parts = plainParts(source);
  if (parts === undefined) return template;
  let pattern = '^';
  const names: string[] = [];
  for (const part of parts) {
    if (part.variable === undefined) pattern += escapeLiteral(part.text);
    else {
      pattern += '([^/,]+)';
      names.push(part.variable);
    }
  }
  const regex = new RegExp(`${pattern}$`);
  return {
    match(uri) {
      if (uri.length > SDK_MAX_URI_LENGTH) return template.match(uri);
      const found = regex.exec(uri);
      if (found === null) return null;
      const variables: Record<string, string> = {};
      for (let index = 0; index < names.length; index++) variables[names[index] as string] = found[index + 1] as string;
      return variables;
    },
  };
}

type Part = { readonly text: string; readonly variable?: undefined } | { readonly variable: string };

/** The template split as the SDK splits it, when every expression is a plain variable name; else undefined. */
function plainParts(source: string): Part[] | undefined {
  const parts: Part[] = [];
  let at = 0;
  while (at < source.length) {
    const open = source.indexOf('{', at);
    if (open < 0) {
      parts.push({ text: source.slice(at) });
      break;
    }
    if (open > at) parts.push({ text: source.slice(at, open) });
    const close = source.indexOf('}', open);
    if (close < 0) return undefined;
    const expression = source.slice(open + 1, close);
    if (!PLAIN_VARIABLE.test(expression)) return undefined;
    parts.push({ variable: expression });
    at = close + 1;
  }
  return parts;
}

/** The characters the SDK escapes in a template's literal text. */
function escapeLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
