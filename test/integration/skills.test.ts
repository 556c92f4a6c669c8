// The Skills extension (SEP-2640) as official SDK clients see it on both eras: the capability, skills/list and
// skills/get, skill files through resources/read (bytes matching the published digests), resources/list and
// resources/templates/list entries, and resources/directory/read.
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import {
  GetSkillResultSchema,
  ListSkillsResultSchema,
  ReadResourceDirectoryResultSchema,
} from '@modelcontextprotocol/core/ext/skills';
import type { ProtocolEra } from 'mcp-kiln';
import { createTestingModule, type TestingApp } from 'mcp-kiln/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EverythingModule } from '../../examples/everything/everything.module.js';

const SKILL_URI = 'skill://everything-tour/SKILL.md';

// The SDK's result schemas are the 2026-07-28 ones; a 2025 result carries no cache fields (SEP-2549 is 2026-only).
const CACHE_FIELDS = { ttlMs: true, cacheScope: true } as const;
const ListSkills = ListSkillsResultSchema.partial(CACHE_FIELDS);
const GetSkill = GetSkillResultSchema.partial(CACHE_FIELDS);
const ReadDirectory = ReadResourceDirectoryResultSchema.partial(CACHE_FIELDS);

describe.each<ProtocolEra>(['handshake', 'envelope'])('skills, %s era', (era) => {
  let app: TestingApp;
  let client: Client;

  beforeAll(async () => {
    app = await createTestingModule({ imports: [EverythingModule] }).compile();
    client = await app.connectClient({ era });
  });
  afterAll(() => app.close());

  it('declares the extension with directoryRead (and, on 2026-07-28 only, the Tasks extension beside it)', () => {
    expect(client.getServerCapabilities()?.extensions).toEqual({
      'io.modelcontextprotocol/skills': { directoryRead: true },
      ...(era === 'envelope' ? { 'io.modelcontextprotocol/tasks': {} } : {}),
    });
  });

  it('lists the skill, with cache fields only on the 2026-07-28 wire', async () => {
    const listed = await client.request({ method: 'skills/list', params: {} }, ListSkills);
    expect(listed.skills.map((skill) => skill.uri)).toEqual([SKILL_URI]);
    expect(listed.skills[0]?.frontmatter).toMatchObject({ name: 'everything-tour', metadata: { author: 'kiln' } });
    expect(listed.nextCursor).toBeUndefined();
    if (era === 'envelope') expect(listed).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    else expect(listed).not.toHaveProperty('ttlMs');
  });

  it('gets the skill by URI, and answers -32602 unknown_skill for a URI no skill has', async () => {
    const got = await client.request({ method: 'skills/get', params: { uri: SKILL_URI } }, GetSkill);
    expect(got.skill.uri).toBe(SKILL_URI);
    await expect(
      client.request({ method: 'skills/get', params: { uri: 'skill://nope/SKILL.md' } }, GetSkill),
    ).rejects.toMatchObject({ code: -32602, data: { reason: 'unknown_skill' } });
  });

  it('serves every published file with the bytes its digest covers', async () => {
    const got = await client.request({ method: 'skills/get', params: { uri: SKILL_URI } }, GetSkill);
    const published = got.skill.resources === 'dynamic' ? [] : got.skill.resources;
    expect(published.map((file) => file.uri).sort()).toEqual([
      SKILL_URI,
      'skill://everything-tour/references/FIXTURES.md',
    ]);
    for (const file of published) {
      const { contents } = await client.readResource({ uri: file.uri });
      const text = (contents[0] as { text: string }).text;
      expect(contents[0]?.mimeType).toBe('text/markdown');
      expect(`sha256:${createHash('sha256').update(text).digest('hex')}`).toBe(file.digest);
      expect(Buffer.byteLength(text)).toBe(file.size);
    }
  });

  it('lists SKILL.md among the resources and the skill files as a template', async () => {
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: SKILL_URI, name: 'everything-tour', mimeType: 'text/markdown' }),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toContainEqual(expect.objectContaining({ uriTemplate: 'skill://{+path}' }));
  });

  it('reads directories, and answers -32602 not_a_directory for a file', async () => {
    const read = (uri: string) =>
      client.request({ method: 'resources/directory/read', params: { uri } }, ReadDirectory);
    const top = await read('skill://everything-tour');
    expect(top.resources.map((child) => [child.uri, child.mimeType])).toEqual([
      ['skill://everything-tour/references', 'inode/directory'],
      [SKILL_URI, 'text/markdown'],
    ]);
    expect((await read('skill://everything-tour/references/')).resources.map((child) => child.name)).toEqual([
      'FIXTURES.md',
    ]);
    await expect(read(SKILL_URI)).rejects.toMatchObject({ code: -32602, data: { reason: 'not_a_directory' } });
  });
});
