// `kiln dev`'s watcher: one watch per directory under the root (node_modules and dot-directories left out), so a
// file an editor replaces on save (written aside, then renamed over the old one) is seen like one written in place;
// a watch on the file itself would stay on the replaced one. Directories created later are watched as they appear.
import { type FSWatcher, readdirSync, statSync, watch } from 'node:fs';
import { join, relative } from 'node:path';

const SKIPPED = (name: string) => name === 'node_modules' || name.startsWith('.');

export class SourceWatcher {
  readonly #watchers = new Map<string, FSWatcher>();

  constructor(
    private readonly root: string,
    private readonly onChange: (file: string) => void,
  ) {
    this.#watchTree(root);
  }

  close(): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }

  #watchTree(dir: string): void {
    if (this.#watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => {
        if (!name) return;
        const path = join(dir, name.toString());
        if (isDirectory(path)) {
          if (!SKIPPED(name.toString())) this.#watchTree(path);
          return;
        }
        this.onChange(relative(this.root, path));
      });
    } catch {
      return; // removed meanwhile
    }
    watcher.on('error', () => {
      watcher.close();
      this.#watchers.delete(dir);
    });
    this.#watchers.set(dir, watcher);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !SKIPPED(entry.name)) this.#watchTree(join(dir, entry.name));
    }
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
