// The skills an app serves (SEP-2640), compiled once at boot from every module's `skills`: each skill's files are
// read into memory, its entry built and checked by the SDK's `skillEntry` (SKILL.md frontmatter, name rules,
// digests, sizes), and the directory tree, the SKILL.md listings and the file contents laid out for lookups by URI.
// The SDK's skill builder (about 60 KB and three files) is loaded only when a module declares a skill.
import { DIRECTORY_MIME_TYPE, SKILL_LIMITS } from '@modelcontextprotocol/core/ext/skills';
import type { Resource } from '@modelcontextprotocol/server';
import type { Skill } from '@modelcontextprotocol/server/ext/skills';
import type { nodeSkillFiles } from '@modelcontextprotocol/server/ext/skills/node';
import type { SkillDeclaration, SkillFileContents } from '../../decorators/skill.js';

const SKILL_ROOT = 'skill://';
const SKILL_MD = 'SKILL.md';

/** One file of a skill, as resources/read serves it: text when it is valid UTF-8, otherwise a base64 blob. */
export interface SkillFile {
  readonly uri: string;
  readonly mimeType: string;
  readonly size: number;
  readonly text?: string;
  readonly blob?: string;
}

/** A child of a skill directory, as resources/directory/read lists it. */
export interface DirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size?: number;
}

export interface CompiledSkills {
  /** Every skill entry, sorted by URI: what skills/list pages through and skills/get answers from. */
  readonly entries: readonly Skill[];
  readonly byUri: ReadonlyMap<string, Skill>;
  readonly files: ReadonlyMap<string, SkillFile>;
  /** Directory URI (no trailing slash) → its direct children, subdirectories first. */
  readonly directories: ReadonlyMap<string, readonly DirectoryChild[]>;
  /** Each SKILL.md as resources/list shows it: named and described by its frontmatter. */
  readonly listing: readonly Resource[];
}

interface SkillSource {
  /** Where the skill came from, for boot errors. */
  readonly origin: string;
  readonly path: string;
  readonly files: SkillFileContents;
}

/** Undefined when no module declares a skill; the problems are boot errors, one per skill or folder. */
export async function compileSkills(
  declarations: readonly SkillDeclaration[],
  problems: string[],
): Promise<CompiledSkills | undefined> {
  if (declarations.length === 0) return undefined;
  const { SkillCatalogError, skillEntry } = await import('@modelcontextprotocol/server/ext/skills');
  const sources: SkillSource[] = [];
  for (const declaration of declarations) {
    if (declaration.kind === 'inline') {
      sources.push({ origin: `skill('${declaration.path}')`, path: declaration.path, files: declaration.files });
      continue;
    }
    try {
      sources.push(...(await readFolder(declaration.root, declaration.prefix)));
    } catch (error) {
      problems.push(`Skills folder ${declaration.root}: ${(error as Error).message}`);
    }
  }

  const byUri = new Map<string, Skill>();
  const files = new Map<string, SkillFile>();
  for (const source of sources) {
    let entry: Skill;
    try {
      entry = await skillEntry(source.path, source.files);
    } catch (error) {
      const details = SkillCatalogError.isInstance(error)
        ? error.problems.map((problem) => problem.message).join('; ')
        : (error as Error).message;
      problems.push(`Skill ${source.origin}: ${details}.`);
      continue;
    }
    const own = new Map(
      Object.entries(source.files).map(([path, content]) => {
        const file = skillFile(`${SKILL_ROOT}${source.path}/${path}`, content);
        return [file.uri, file] as const;
      }),
    );
    const published = entry.resources === 'dynamic' ? [] : entry.resources;
    const bytes = published.reduce((sum, resource) => sum + resource.size, 0);
    if (published.length > SKILL_LIMITS.files || bytes > SKILL_LIMITS.bytes) {
      problems.push(
        `Skill ${source.origin}: ${published.length} files, ${bytes} bytes; a skill may have ${SKILL_LIMITS.files} files and ${SKILL_LIMITS.bytes} bytes.`,
      );
      continue;
    }
    const unmatched = published.filter((resource) => !own.has(resource.uri)).map((resource) => resource.uri);
    if (unmatched.length > 0) {
      problems.push(`Skill ${source.origin}: file names must be plain URI path segments (${unmatched.join(', ')}).`);
      continue;
    }
    if (byUri.has(entry.uri)) {
      problems.push(`Skill ${source.origin}: ${entry.uri} is served twice; skill paths must be unique.`);
      continue;
    }
    byUri.set(entry.uri, entry);
    for (const [uri, file] of own) files.set(uri, file);
  }
  if (problems.length > 0) return undefined;
  const entries = [...byUri.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  return {
    entries,
    byUri,
    files,
    directories: directoryTree([...files.values()]),
    listing: entries.map((entry) => ({
      uri: entry.uri,
      name: entry.frontmatter.name,
      description: entry.frontmatter.description,
      mimeType: 'text/markdown',
      size: files.get(entry.uri)?.size,
    })),
  };
}

/** Every skill below `root`: a folder holding a SKILL.md is one skill, with all the files under it. */
async function readFolder(root: string, prefix: string | undefined): Promise<SkillSource[]> {
  const { nodeSkillFiles } = await import('@modelcontextprotocol/server/ext/skills/node');
  const storage = nodeSkillFiles(root);
  const found: SkillSource[] = [];
  const walk = async (dir: string): Promise<void> => {
    const children = await storage.list(dir);
    if (children.some((child) => child.kind === 'file' && child.name === SKILL_MD)) {
      const path = [prefix, dir].filter(Boolean).join('/');
      found.push({ origin: `${root}/${dir}`, path, files: await readSkill(storage, dir) });
      return;
    }
    for (const child of children) if (child.kind === 'directory') await walk(join(dir, child.name));
  };
  await walk('');
  if (found.length === 0) throw new Error(`no folder below it holds a ${SKILL_MD}`);
  return found;
}

async function readSkill(storage: ReturnType<typeof nodeSkillFiles>, dir: string): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  const walk = async (relative: string): Promise<void> => {
    for (const child of await storage.list(join(dir, relative))) {
      const path = join(relative, child.name);
      if (child.kind === 'unsupported') throw new Error(`${join(dir, path)} is a symlink or special file`);
      if (child.kind === 'directory') await walk(path);
      else files[path] = await storage.read(join(dir, path));
    }
  };
  await walk('');
  return files;
}

function join(a: string, b: string): string {
  return a === '' ? b : `${a}/${b}`;
}

function skillFile(uri: string, content: string | Uint8Array): SkillFile {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  const mimeType = mimeTypeOf(uri);
  let text: string | undefined;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    text = undefined;
  }
  // Text goes out as text only when it round-trips to the same bytes: the digest a host checks covers the bytes.
  return text !== undefined
    ? { uri, mimeType, size: bytes.length, text }
    : { uri, mimeType, size: bytes.length, blob: bytes.toString('base64') };
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  js: 'text/javascript',
  ts: 'text/typescript',
  html: 'text/html',
  csv: 'text/csv',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  pdf: 'application/pdf',
};

function mimeTypeOf(uri: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(uri)?.[1]?.toLowerCase();
  return (extension && MIME_TYPES[extension]) || 'application/octet-stream';
}

/** Every directory that holds a skill file (up to the first path segment), with its direct children. */
function directoryTree(files: readonly SkillFile[]): Map<string, DirectoryChild[]> {
  const directories = new Map<string, Map<string, DirectoryChild>>();
  const childrenOf = (dir: string) => {
    let children = directories.get(dir);
    if (!children) {
      children = new Map();
      directories.set(dir, children);
    }
    return children;
  };
  for (const file of files) {
    const segments = file.uri.slice(SKILL_ROOT.length).split('/');
    const name = segments.at(-1) ?? '';
    const parent = SKILL_ROOT + segments.slice(0, -1).join('/');
    childrenOf(parent).set(file.uri, { uri: file.uri, name, mimeType: file.mimeType, size: file.size });
    for (let depth = segments.length - 2; depth >= 1; depth--) {
      const dir = SKILL_ROOT + segments.slice(0, depth + 1).join('/');
      const above = SKILL_ROOT + segments.slice(0, depth).join('/');
      childrenOf(above).set(dir, { uri: dir, name: segments[depth] ?? '', mimeType: DIRECTORY_MIME_TYPE });
    }
  }
  return new Map(
    [...directories].map(([dir, children]) => [
      dir,
      [...children.values()].sort(
        (a, b) =>
          Number(b.mimeType === DIRECTORY_MIME_TYPE) - Number(a.mimeType === DIRECTORY_MIME_TYPE) ||
          (a.name < b.name ? -1 : 1),
      ),
    ]),
  );
}
