// Skills compiled at boot (SEP-2640): inline and from folders, each checked (SKILL.md frontmatter whose name is the
// folder's), digested and laid out for lookups; every problem stops boot with the skill it belongs to.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skill, skillsFromFolder } from 'mcp-kiln';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { compileSkills } from '../../src/definitions/compile-skills.js';
import { bootApp, bootProblems, closeBootedApps, fixtureModule } from '../di/boot-app.js';

afterEach(closeBootedApps);

const skillMd = (name: string, description = `What ${name} does.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;

const digest = (text: string | Buffer) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folderOf(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'kiln-skills-'));
  folders.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe('compileSkills', () => {
  it('builds an inline skill: entry, files, directories and its SKILL.md listing', async () => {
    const md = skillMd('pdf-tools');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff]);
    const problems: string[] = [];
    const skills = await compileSkills(
      [skill('pdf-tools', { 'SKILL.md': md, 'references/FORMS.md': '# Forms\n', 'assets/logo.png': png })],
      problems,
    );
    expect(problems).toEqual([]);
    expect(skills?.entries).toEqual([
      {
        uri: 'skill://pdf-tools/SKILL.md',
        frontmatter: { name: 'pdf-tools', description: 'What pdf-tools does.' },
        resources: expect.arrayContaining([
          { uri: 'skill://pdf-tools/SKILL.md', digest: digest(md), size: Buffer.byteLength(md) },
          { uri: 'skill://pdf-tools/assets/logo.png', digest: digest(png), size: 5 },
        ]),
      },
    ]);
    expect(skills?.files.get('skill://pdf-tools/references/FORMS.md')).toMatchObject({
      mimeType: 'text/markdown',
      text: '# Forms\n',
    });
    expect(skills?.files.get('skill://pdf-tools/assets/logo.png')).toMatchObject({
      mimeType: 'image/png',
      blob: png.toString('base64'),
    });
    expect(skills?.directories.get('skill://pdf-tools')).toEqual([
      { uri: 'skill://pdf-tools/assets', name: 'assets', mimeType: 'inode/directory' },
      { uri: 'skill://pdf-tools/references', name: 'references', mimeType: 'inode/directory' },
      { uri: 'skill://pdf-tools/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: Buffer.byteLength(md) },
    ]);
    expect(skills?.listing).toEqual([
      {
        uri: 'skill://pdf-tools/SKILL.md',
        name: 'pdf-tools',
        description: 'What pdf-tools does.',
        mimeType: 'text/markdown',
        size: Buffer.byteLength(md),
      },
    ]);
  });

  it('reads every skill below a folder, nested or under a prefix, and serves them sorted by URI', async () => {
    const root = folderOf({
      'zeta/SKILL.md': skillMd('zeta'),
      'group/alpha/SKILL.md': skillMd('alpha'),
      'group/alpha/scripts/run.sh': 'echo hi\n',
    });
    const problems: string[] = [];
    const skills = await compileSkills([skillsFromFolder(root, { prefix: 'acme' })], problems);
    expect(problems).toEqual([]);
    expect(skills?.entries.map((entry) => entry.uri)).toEqual([
      'skill://acme/group/alpha/SKILL.md',
      'skill://acme/zeta/SKILL.md',
    ]);
    expect(skills?.directories.get('skill://acme')?.map((child) => child.uri)).toEqual([
      'skill://acme/group',
      'skill://acme/zeta',
    ]);
    expect(skills?.files.get('skill://acme/group/alpha/scripts/run.sh')?.text).toBe('echo hi\n');
  });

  it('is undefined when no module declares a skill', async () => {
    expect(await compileSkills([], [])).toBeUndefined();
  });
});

describe('boot checks of skills', () => {
  it('reports each broken skill with where it came from', async () => {
    const empty = folderOf({ 'notes/README.md': '# no skill here\n' });
    const linked = folderOf({ 'linked/SKILL.md': skillMd('linked') });
    symlinkSync('/etc/hostname', join(linked, 'linked', 'host'));
    const problems = await bootProblems(
      fixtureModule({
        skills: [
          skill('pdf-tools', { 'SKILL.md': skillMd('pdf-utils') }),
          skill('no-frontmatter', { 'SKILL.md': '# Just a heading\n' }),
          skill('twice', { 'SKILL.md': skillMd('twice') }),
          skill('twice', { 'SKILL.md': skillMd('twice') }),
          skillsFromFolder(empty),
          skillsFromFolder(linked),
        ],
      }),
    );
    expect(problems).toEqual([
      `Skills folder ${empty}: no folder below it holds a SKILL.md`,
      `Skills folder ${linked}: ${join('linked', 'host')} is a symlink or special file`,
      expect.stringMatching(
        /^Skill skill\('pdf-tools'\): frontmatter name "pdf-utils" must match the last path segment "pdf-tools"\.$/,
      ),
      expect.stringMatching(/^Skill skill\('no-frontmatter'\): /),
      "Skill skill('twice'): skill://twice/SKILL.md is served twice; skill paths must be unique.",
    ]);
  });

  it('declares the extension (with directoryRead) and the resources capability, even with no @Resource', async () => {
    const app = await bootApp(fixtureModule({ skills: [skill('pdf-tools', { 'SKILL.md': skillMd('pdf-tools') })] }));
    expect(app.runtime.capabilities).toMatchObject({
      resources: { listChanged: true, subscribe: true },
      extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
    });
    expect(app.catalog().resources).toEqual([
      {
        name: 'pdf-tools',
        description: 'What pdf-tools does.',
        uri: 'skill://pdf-tools/SKILL.md',
        isTemplate: false,
        mimeType: 'text/markdown',
      },
    ]);
  });
});
