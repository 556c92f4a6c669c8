// The `kiln` binary as CI runs it: exit codes, human and JSON output of lint and inspect, and the usage errors.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, REPO, runKiln } from './run-kiln.js';

const NOTES = 'dist/examples/notes/notes.module.js';
const scratch = mkdtempSync(join(tmpdir(), 'kiln-cli-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('kiln', () => {
  it('prints its help for --help and with no command (exit 2 then)', async () => {
    const help = await runKiln(['--help']);
    expect(help).toMatchObject({ exitCode: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: kiln <command>/);
    for (const command of ['lint <entry>', 'inspect <entry>', 'new <name>', 'bundle <entry>'])
      expect(help.stdout).toContain(command);
    expect((await runKiln([])).exitCode).toBe(2);
  });

  it.each(['lint', 'inspect', 'new', 'bundle'])('prints the help of kiln %s', async (command) => {
    const { exitCode, stdout } = await runKiln([command, '--help']);
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(new RegExp(`^Usage: kiln ${command} `));
  });

  it('refuses an unknown command and an unknown flag with exit 2', async () => {
    const unknown = await runKiln(['serve']);
    expect(unknown).toMatchObject({ exitCode: 2, stdout: '' });
    expect(unknown.stderr).toContain("unknown command 'serve'. Commands: lint, inspect, new, bundle, dev.");
    const flag = await runKiln(['lint', NOTES, '--fix']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toContain("Unknown option '--fix'");
    expect(flag.stderr).toContain('See kiln lint --help.');
  });
});

describe('kiln lint', () => {
  it('passes a clean module with exit 0', async () => {
    const { exitCode, stdout, stderr } = await runKiln(['lint', NOTES]);
    expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: '' });
    expect(stdout).toBe(`NotesModule (${NOTES}): no problems found\n`);
  });

  it('prints every error and warning of a module that does not boot, with exit 1', async () => {
    const { exitCode, stdout } = await runKiln(['lint', fixture('broken.module')]);
    expect(exitCode).toBe(1);
    expect(stdout.split('\n')).toEqual([
      'error    Tool silent_tool (SilentTool): description is empty; say when and how to use it. [description-empty]',
      "error    PlainClass is listed in a module's tools but has no @Tool() decorator.",
      expect.stringMatching(/^warning {2}Tool store_list_items \(CappedListTool\): takes a cap-like input/),
      '',
      `BrokenModule (${fixture('broken.module')}): 2 errors, 1 warning`,
      '',
    ]);
  });

  it('reports the same findings as JSON', async () => {
    const { exitCode, stdout } = await runKiln(['lint', fixture('broken.module'), '--json']);
    expect(exitCode).toBe(1);
    const report = JSON.parse(stdout) as Record<string, unknown>;
    expect(report).toEqual({
      entry: fixture('broken.module'),
      module: 'BrokenModule',
      ok: false,
      errors: [
        'Tool silent_tool (SilentTool): description is empty; say when and how to use it. [description-empty]',
        "PlainClass is listed in a module's tools but has no @Tool() decorator.",
      ],
      warnings: [expect.stringContaining("declares neither 'truncated' nor 'totalCount'")],
    });
  });

  it('exits 0 on warnings alone, and 1 with --strict', async () => {
    const lenient = await runKiln(['lint', fixture('warned.module')]);
    expect(lenient.exitCode).toBe(0);
    expect(lenient.stdout).toContain('WarnedModule');
    expect(lenient.stdout).toContain('0 errors, 1 warning');
    const strict = await runKiln(['lint', fixture('warned.module'), '--strict', '--json']);
    expect(strict.exitCode).toBe(1);
    expect(JSON.parse(strict.stdout)).toMatchObject({ module: 'WarnedModule', ok: false, errors: [] });
  });

  it('refuses an input JSON Schema cannot express and warns about text naming a disabled tool', async () => {
    const { exitCode, stdout } = await runKiln(['lint', fixture('events.module')]);
    expect(exitCode).toBe(1);
    expect(stdout.split('\n')).toEqual([
      "error    Tool events_list_events (ListEventsTool): input field 'since' is z.date(), which JSON Schema cannot " +
        'express: tools/list advertises it with no type and no JSON argument can satisfy it, so the tool could never ' +
        'be called; declare z.iso.datetime() (or z.iso.date()) and build the Date in the handler. [input-unrepresentable]',
      'warning  Tool events_search_events (SearchEventsTool): its description names events_export_events, which is ' +
        'disabled (Exports are turned off in this deployment.), so a client following it reaches a tool it cannot ' +
        'call; reword the text, or name the tool only under the configuration that enables it. [disabled-tool-reference]',
      '',
      `EventsModule (${fixture('events.module')}): 1 error, 1 warning`,
      '',
    ]);
    const json = JSON.parse((await runKiln(['lint', fixture('events.module'), '--json'])).stdout);
    expect(json).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^Tool events_list_events .* \[input-unrepresentable\]$/)],
      warnings: [expect.stringMatching(/^Tool events_search_events .* \[disabled-tool-reference\]$/)],
    });
  });

  it('reports a boot hook that throws as an error', async () => {
    const { exitCode, stdout } = await runKiln(['lint', fixture('failing-hook.module'), '--json']);
    expect(exitCode).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({
      errors: ['Boot failed: database unreachable at db.invalid:5432'],
      warnings: [],
    });
  });

  it('picks the root module with --module when the entry exports several', async () => {
    const ambiguous = await runKiln(['lint', fixture('two-modules')]);
    expect(ambiguous.exitCode).toBe(2);
    expect(ambiguous.stderr).toContain('exports several modules (EmptyModule, ListModule); name the root one');
    const named = await runKiln(['lint', fixture('two-modules'), '--module', 'ListModule', '--json']);
    expect(named.exitCode).toBe(0);
    expect(JSON.parse(named.stdout)).toMatchObject({ module: 'ListModule', ok: true, warnings: [expect.any(String)] });
    const notModule = await runKiln(['lint', fixture('two-modules'), '--module', 'notAModule']);
    expect(notModule).toMatchObject({ exitCode: 2 });
    expect(notModule.stderr).toContain('Export notAModule of');
    const missing = await runKiln(['lint', fixture('two-modules'), '--module', 'Nope']);
    expect(missing.stderr).toContain('has no export named Nope (it exports EmptyModule, ListModule, notAModule)');
  });

  it('explains an entry that is missing, exports no module, is TypeScript or fails to load (exit 2)', async () => {
    const missing = await runKiln(['lint', 'dist/nowhere.js']);
    expect(missing).toMatchObject({ exitCode: 2, stdout: '' });
    expect(missing.stderr).toMatch(/^kiln: Entry dist\/nowhere\.js not found/);

    const noModule = await runKiln(['lint', fixture('no-module')]);
    expect(noModule.exitCode).toBe(2);
    expect(noModule.stderr).toContain('exports no Kiln module (it exports NotAModule, helper)');

    const typescript = await runKiln(['lint', 'examples/notes/notes.module.ts']);
    expect(typescript.exitCode).toBe(2);
    expect(typescript.stderr).toContain('is TypeScript');
    expect(typescript.stderr).toContain('dist/examples/notes/notes.module.js');

    const throwing = join(scratch, 'throws.mjs');
    writeFileSync(throwing, "throw new Error('bad import');\n");
    const failed = await runKiln(['lint', throwing]);
    expect(failed.exitCode).toBe(2);
    expect(failed.stderr).toContain('failed to load:\nError: bad import');

    expect((await runKiln(['lint'])).stderr).toContain('kiln lint needs an entry file.');
  });
});

describe('kiln inspect', () => {
  it('prints the catalogue the landing page shows', async () => {
    const { exitCode, stdout, stderr } = await runKiln(['inspect', NOTES]);
    expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: '' });
    expect(stdout).toMatch(/^notes 0\.0\.0\n/);
    expect(stdout).toContain('Tools (4)');
    expect(stdout).toContain('  notes_create_note — Create note\n');
    expect(stdout).toMatch(/ {6}title +string +required +Title of the note \(min length 1, max length 200\)/);
    expect(stdout).toMatch(/ {6}tags +string\[\] +optional +Tags to file the note under \(default \[\]\)/);
    expect(stdout).toMatch(/Output:\n {6}id +string +Note id/);
    expect(stdout).toContain('Declared by this tool: no_match');
    expect(stdout).toContain('Resources (1)');
    expect(stdout).toContain('    notes://{id}  (template, text/markdown)');
    expect(stdout).toContain('Prompts (1)');
    expect(stdout).toMatch(/ {6}tag +string +required +Tag whose notes to summarise/);
  });

  it('prints app.catalog() as JSON, schemas included', async () => {
    const { exitCode, stdout } = await runKiln(['inspect', NOTES, '--json']);
    expect(exitCode).toBe(0);
    const catalog = JSON.parse(stdout);
    expect(catalog.serverName).toBe('notes');
    expect(catalog.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'notes_create_note',
      'notes_get_note',
      'notes_search_notes',
      'notes_delete_note',
    ]);
    expect(catalog.tools[0].inputSchema.properties.title).toMatchObject({ type: 'string', minLength: 1 });
    expect(catalog.tools[0].outputSchema.properties.id).toMatchObject({ type: 'string' });
    expect(catalog.resources).toEqual([expect.objectContaining({ uri: 'notes://{id}', isTemplate: true })]);
    expect(catalog.prompts[0].arguments[0]).toEqual({
      name: 'tag',
      description: 'Tag whose notes to summarise',
      required: true,
    });
  });

  it('boots an app that injects framework tokens with the runtime copy the app imported', async () => {
    // The readme library's AuditTrail injects CONTEXT, a token unique to one copy of the runtime: the command and the
    // app's `mcp-kiln` import must load the same build (both the ES module one), or no module provides it.
    const { exitCode, stdout, stderr } = await runKiln([
      'inspect',
      'dist/examples/readme/library.module.js',
      '--module',
      'LibraryModule',
    ]);
    expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: '' });
    expect(stdout).toMatch(/^library 0\.0\.0\n/);
    expect(stdout).toContain('Tools (3)');
  });

  it("names each tool's MCP Apps view and lists the view among the resources", async () => {
    const { exitCode, stdout } = await runKiln(['inspect', 'dist/examples/apps/apps.module.js']);
    expect(exitCode).toBe(0);
    expect(stdout).toContain('  tally_show_board — Show the tally board\n');
    expect(stdout).toContain('    View: ui://tally/board\n');
    expect(stdout).toContain('    View: ui://tally/board (only the view calls it)\n');
    expect(stdout).toContain('    ui://tally/board  (fixed URI, text/html;profile=mcp-app)');
  });

  it('prints boot errors instead of a catalogue, with exit 1', async () => {
    const { exitCode, stdout, stderr } = await runKiln(['inspect', fixture('broken.module')]);
    expect({ exitCode, stdout }).toEqual({ exitCode: 1, stdout: '' });
    expect(stderr).toContain('BrokenModule');
    expect(stderr).toContain('does not boot');
    expect(stderr).toContain('  - Tool silent_tool (SilentTool): description is empty');
  });
});

describe('kiln new (arguments)', () => {
  it('refuses a name npm would refuse, a non-empty target and a --kiln path that does not exist', async () => {
    const badName = await runKiln(['new', 'My Server', '--dir', scratch]);
    expect(badName.exitCode).toBe(2);
    expect(badName.stderr).toContain("Project name 'My Server' is not a valid npm package name");

    mkdirSync(join(scratch, 'taken'));
    writeFileSync(join(scratch, 'taken', 'keep.txt'), 'mine');
    const taken = await runKiln(['new', 'taken', '--dir', scratch]);
    expect(taken.exitCode).toBe(2);
    expect(taken.stderr).toContain('already exists and is not empty');

    const tarball = await runKiln(['new', 'fresh', '--dir', scratch, '--kiln', './missing-kiln.tgz']);
    expect(tarball.exitCode).toBe(2);
    expect(tarball.stderr).toContain('--kiln ./missing-kiln.tgz: no such file or directory.');
  });

  it('writes the project with mcp-kiln pinned to this version by default', async () => {
    const { exitCode, stdout } = await runKiln(['new', 'pinned', '--dir', scratch]);
    expect(exitCode).toBe(0);
    expect(stdout).toContain('Created');
    expect(stdout).toContain('  src/say-hello.tool.test.ts\n');
    expect(stdout).toContain('  .gitignore\n');
    const manifest = JSON.parse(readFileSync(join(scratch, 'pinned', 'package.json'), 'utf8'));
    const kiln = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    expect(manifest.dependencies['mcp-kiln']).toBe(`^${kiln.version}`);
    expect(manifest.dependencies.zod).toBe(kiln.dependencies.zod);
  });
});
