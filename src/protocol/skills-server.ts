// The Skills extension's methods (SEP-2640) on one protocol server, answered from the skills compiled at boot:
// skills/list (paged, entries never split), skills/get (-32602 for a URI no skill has), resources/directory/read
// (direct children; -32602 for anything that is not a served directory) and the skill files through resources/read.

import {
  GetSkillRequestParamsSchema,
  ListSkillsRequestParamsSchema,
  RESOURCES_DIRECTORY_READ_METHOD,
  ReadResourceDirectoryRequestParamsSchema,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
} from '@modelcontextprotocol/core/ext/skills';
import type { ReadResourceResult, Server } from '@modelcontextprotocol/server';
import type { ProtocolEra } from '../context/context.js';
import type { CompiledSkills } from '../definitions/compile-skills.js';
import { kilnError } from '../errors/factories.js';

/** Entries per skills/list page and children per directory page. */
const PAGE_SIZE = 100;

// A listing is cacheable on the 2026-07-28 wire (SEP-2549); the same conservative default the SDK gives every
// cacheable result Kiln sets no hint for. 2025 results carry no cache fields.
const CACHE_FIELDS = { ttlMs: 0, cacheScope: 'private' } as const;

export function serveSkills(server: Server, skills: CompiledSkills, era: ProtocolEra): void {
  const cache = era === 'envelope' ? CACHE_FIELDS : {};
  server.setRequestHandler(SKILLS_LIST_METHOD, { params: ListSkillsRequestParamsSchema }, (params) => {
    const page = pageOf(skills.entries, params?.cursor, SKILLS_LIST_METHOD);
    return { skills: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...cache };
  });
  server.setRequestHandler(SKILLS_GET_METHOD, { params: GetSkillRequestParamsSchema }, (params) => {
    const skill = skills.byUri.get(params.uri);
    if (!skill) throw kilnError('unknown_skill', `No skill is served at ${params.uri}.`, { uri: params.uri });
    return { skill, ...cache };
  });
  server.setRequestHandler(
    RESOURCES_DIRECTORY_READ_METHOD,
    { params: ReadResourceDirectoryRequestParamsSchema },
    (params) => {
      const children = skills.directories.get(params.uri.replace(/\/+$/, ''));
      if (!children) {
        throw kilnError('not_a_directory', `${params.uri} is not a directory this server serves.`, { uri: params.uri });
      }
      const page = pageOf(children, params.cursor, RESOURCES_DIRECTORY_READ_METHOD);
      return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...cache };
    },
  );
}

/** resources/read of a skill file; undefined when the URI names none, so the app's own resources are tried. */
export function readSkillFile(skills: CompiledSkills | undefined, uri: string): ReadResourceResult | undefined {
  const file = skills?.files.get(uri);
  if (!file) return undefined;
  const content =
    file.text !== undefined
      ? { uri, mimeType: file.mimeType, text: file.text }
      : { uri, mimeType: file.mimeType, blob: file.blob ?? '' };
  return { contents: [content] };
}

/** One page of a fixed list; the cursor is the next offset, opaque to clients. */
function pageOf<T>(items: readonly T[], cursor: string | undefined, method: string) {
  let start = 0;
  if (cursor !== undefined && cursor !== '') {
    start = Number.parseInt(Buffer.from(cursor, 'base64url').toString('utf8'), 10);
    if (!Number.isSafeInteger(start) || start < 0 || start > items.length) {
      throw kilnError('invalid_params', `Invalid cursor for ${method}; start again without one.`);
    }
  }
  const end = start + PAGE_SIZE;
  return {
    items: items.slice(start, end),
    nextCursor: end < items.length ? Buffer.from(String(end)).toString('base64url') : undefined,
  };
}
