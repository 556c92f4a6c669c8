// Skills (the io.modelcontextprotocol/skills extension, SEP-2640) a module serves: `@Module({ skills: [...] })` lists
// skills written inline with `skill(path, files)` and folders of skills with `skillsFromFolder(dir)`. These only
// record where the files are; the app compiler reads them once at boot, checks each skill (a SKILL.md with name and
// description frontmatter matching its folder) and publishes digests, so no file is read per request.
import { fileURLToPath } from 'node:url';

/** One skill's files, keyed by path under the skill's folder: `SKILL.md` (required), `references/FORMS.md`, … */
export type SkillFileContents = Readonly<Record<string, string | Uint8Array>>;

export interface InlineSkill {
  readonly kind: 'inline';
  /** The skill path: its name, optionally under organising segments (`acme/pdf-processing`). */
  readonly path: string;
  readonly files: SkillFileContents;
}

export interface SkillFolder {
  readonly kind: 'folder';
  /** A folder of skill folders; each folder holding a SKILL.md is one skill, with everything below it. */
  readonly root: string;
  /** Organising segments put before every skill path found there (`acme` serves `skill://acme/<skill>/…`). */
  readonly prefix?: string;
}

export type SkillDeclaration = InlineSkill | SkillFolder;

/** A skill written in code: `skill('pdf-processing', { 'SKILL.md': '---\nname: pdf-processing\n…', … })`. */
export function skill(path: string, files: SkillFileContents): InlineSkill {
  return { kind: 'inline', path, files };
}

/** Every skill under a folder on disk, read once at boot (symlinks and other special files are refused). */
export function skillsFromFolder(root: string | URL, options: { readonly prefix?: string } = {}): SkillFolder {
  const path = typeof root === 'string' ? root : fileURLToPath(root);
  return { kind: 'folder', root: path, ...(options.prefix ? { prefix: options.prefix } : {}) };
}
