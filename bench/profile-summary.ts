// `node dist/bench/profile-summary.js <file.cpuprofile> [top] [inclusive-regexp]`: where a server's CPU time went,
// by area (Kiln, the SDK, Fastify, zod, Node's fetch internals, GC), the top self-time functions, and the inclusive
// time of the functions whose name or file matches the regexp. Frames in a bundle (Kiln's dist/pkg chunks, or a
// `kiln bundle` output with its dependencies compiled in) are placed at their original file through the bundle's source
// map, so each lands in its own area.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const AREAS: readonly [string, RegExp][] = [
  // Compiled files (dist/...) or, through a bundle's source map, the TypeScript sources.
  ['kiln src/', /\/(dist\/)?(src|decorators|examples)\//],
  ['kiln modules/http', /\/(dist\/)?modules\//],
  ['@modelcontextprotocol/*', /@modelcontextprotocol\//],
  ['fastify (+ deps)', /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|pino)/],
  ['zod', /node_modules\/zod\//],
  ['other node_modules', /node_modules\//],
  ['node fetch/web streams', /undici|webstreams|abort_controller|js_transferable|encoding/],
  ['node other', /^node:|^$/],
];

const [file, topArg, inclusiveArg] = process.argv.slice(2);
if (!file) throw new Error('Usage: profile-summary <file.cpuprofile> [top] [inclusive-regexp]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

const sourceMaps = new Map<string, SourceMap | undefined>();

/** Where a frame's code was written: its original file and line when its file has a source map beside it. */
function origin(frame: ProfileNode['callFrame']): { file: string; line: number } {
  const { url, lineNumber, columnNumber } = frame;
  if (!url.startsWith('file://')) return { file: url, line: lineNumber + 1 };
  if (!sourceMaps.has(url)) {
    const mapPath = `${fileURLToPath(url)}.map`;
    sourceMaps.set(url, existsSync(mapPath) ? new SourceMap(JSON.parse(readFileSync(mapPath, 'utf8'))) : undefined);
  }
  const entry = sourceMaps.get(url)?.findEntry(lineNumber, columnNumber) as
    | { originalSource?: string; originalLine?: number }
    | undefined;
  if (entry?.originalSource === undefined || entry.originalLine === undefined)
    return { file: url, line: lineNumber + 1 };
  return { file: new URL(entry.originalSource, url).href, line: entry.originalLine + 1 };
}

const descriptions = new Map<ProfileNode, { readonly label: string; readonly area: string }>();

/** A frame's label (its function, and the file and line it was written at) and area, worked out once per node. */
function describe(node: ProfileNode) {
  let description = descriptions.get(node);
  if (!description) {
    const { functionName, url } = node.callFrame;
    const { file, line } = origin(node.callFrame);
    const where = file
      .replace(/^.*node_modules\//, '')
      .replace(/^file:\/\/.*?\/((dist|src|modules|decorators)\/)/, '$1');
    const engine = url === '' && /^\((garbage collector|idle|program)\)$/.test(functionName);
    description = {
      label: `${functionName || '(anonymous)'} ${where}:${line}`,
      area: engine ? functionName : (AREAS.find(([, pattern]) => pattern.test(file))?.[0] ?? 'other'),
    };
    descriptions.set(node, description);
  }
  return description;
}

const self = new Map<string, number>();
const byArea = new Map<string, number>();
const inclusive = new Map<string, number>();
const inclusivePattern = inclusiveArg ? new RegExp(inclusiveArg) : undefined;
let total = 0;
profile.samples.forEach((id, i) => {
  const node = nodes.get(id)!;
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const { label, area } = describe(node);
  add(self, label, dt);
  add(byArea, area, dt);
  if (!inclusivePattern) return;
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
    const name = describe(nodes.get(at)!).label;
    if (inclusivePattern.test(name) && !seen.has(name)) seen.add(name);
  }
  for (const name of seen) add(inclusive, name, dt);
});

const percent = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const print = (title: string, entries: Map<string, number>, limit: number) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    process.stdout.write(`${percent(us)}  ${name}\n`);
  }
};
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s sampled\n`);
print('By area (self time):', byArea, AREAS.length + 4);
print('Top self time:', self, Number(topArg ?? 25));
if (inclusivePattern) print(`Inclusive time, matching ${inclusivePattern}:`, inclusive, Number(topArg ?? 25));

function add(map: Map<string, number>, key: string, dt: number) {
  map.set(key, (map.get(key) ?? 0) + dt);
}
