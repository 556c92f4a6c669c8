// Boot: configuration → module graph → DI checks → definition compile and lint → storage → root container.
// Every problem found in one pass is reported together; warnings go to the log.
import type { ServerCapabilities } from '@modelcontextprotocol/server';
import type { Constructor, InjectionToken, ModuleRef } from '../../decorators/types.js';
import { type KilnConfig, loadConfig } from '../config/kiln-config.js';
import { cacheHintProblem } from '../definitions/cache-hint.js';
import { compilePrompt } from '../definitions/compile-prompt.js';
import { compileResource } from '../definitions/compile-resource.js';
import { compileTool } from '../definitions/compile-tool.js';
import type { LintFindings } from '../definitions/tool-lint.js';
import { buildDependencyGraph } from '../di/dependency-graph.js';
import { isDynamicModule, type ModuleRecord, normalizeProvider, scanModules } from '../di/module-scanner.js';
import { createRootContainer } from '../di/root-container.js';
import { KILN_CONFIG, LOGGER, NOTIFIER, STORAGE } from '../di/tokens.js';
import { KilnBootError } from '../errors/index.js';
import { createLogger, type Logger } from '../logging/index.js';
import { DEFAULT_INPUT_OPTIONS } from '../pipeline/input/index.js';
import { ChangeNotifier } from '../server/change-notifier.js';
import { InFlightRequests } from '../server/in-flight-requests.js';
import type { KilnRuntime } from '../server/kiln-runtime.js';
import { createRequestStateSealing } from '../server/request-state-sealing.js';
import { createStorageProvider, StorageService } from '../storage/index.js';
import type { CreateAppOptions } from './app-options.js';

export interface CompiledApp {
  readonly runtime: KilnRuntime;
  readonly config: KilnConfig;
  readonly storage: StorageService;
}

export async function compileApp(root: ModuleRef, options: CreateAppOptions = {}): Promise<CompiledApp> {
  const config = loadConfig(options.env ?? process.env, { sessionMode: options.sessionMode?.default });
  if (
    options.sessionMode?.require === 'stateful' &&
    config.transportType === 'http' &&
    config.http.sessionMode === 'stateless'
  ) {
    throw new KilnBootError(
      'MCP_SESSION_MODE resolves to stateless, but this server requires 2025-era sessions (sessionMode.require: ' +
        "'stateful'): its handlers ask 2025 clients for input mid-call, which needs a live session. Set " +
        'MCP_SESSION_MODE=stateful or auto.',
    );
  }
  const overrides = options.overrides ?? new Map();
  const logger =
    (overrides.get(LOGGER) as { useValue?: Logger } | undefined)?.useValue ??
    createLogger({ level: config.logLevel, name: 'kiln' });

  const modules = applyOverrides(scanModules(root), overrides);
  const findings: LintFindings = { errors: [], warnings: [] };
  const graph = buildDependencyGraph(modules, findings.errors);
  const inputOptions = { ...DEFAULT_INPUT_OPTIONS, ...options.input };

  const manifestTools = compileUnique(
    modules,
    'tools',
    (c) => compileTool(c, inputOptions, findings),
    'tool',
    findings,
  );
  const resources = compileUnique(
    modules,
    'resources',
    (c) => compileResource(c, findings),
    'resource URI',
    findings,
    (r) => r.uriTemplate,
  );
  const prompts = compileUnique(modules, 'prompts', (c) => compilePrompt(c, findings), 'prompt', findings);
  for (const [method, hint] of Object.entries(options.cacheHints ?? {})) {
    const problem = hint && cacheHintProblem(hint);
    if (problem) findings.errors.push(`createApp cacheHints['${method}']: ${problem}.`);
  }
  if (findings.errors.length > 0) throw new KilnBootError(findings.errors);
  for (const warning of findings.warnings) logger.warning(warning);

  const storage =
    (overrides.get(STORAGE) as { useValue?: StorageService } | undefined)?.useValue ??
    new StorageService(createStorageProvider(config.storage, logger), logger);
  const notifier = new ChangeNotifier();
  const container = await createRootContainer(
    graph,
    new Map<InjectionToken, unknown>([
      [LOGGER, logger],
      [STORAGE, storage],
      [KILN_CONFIG, config],
      [NOTIFIER, notifier],
    ]),
  );

  const tools = new Map(manifestTools.filter((t) => !t.disabled).map((t) => [t.name, t]));
  const runtime: KilnRuntime = {
    serverInfo: {
      name: options.name ?? kebabCase(isDynamicModule(root) ? root.module.name : root.name),
      version: options.version ?? '0.0.0',
      ...(options.title ? { title: options.title } : {}),
    },
    instructions: options.instructions,
    capabilities: capabilitiesFor(tools.size, resources.length, prompts.length),
    cacheHints: options.cacheHints,
    container,
    services: { logger, logFloor: config.logLevel, stateFor: (tenantId) => storage.forTenant(tenantId) },
    logger,
    inFlight: new InFlightRequests(),
    notifier,
    requestStateSealing: createRequestStateSealing(config.requestState),
    tools,
    manifestTools,
    resources,
    prompts: new Map(prompts.map((p) => [p.name, p])),
    listings: {
      tools: { tools: [...tools.values()].map((t) => t.definition) },
      resourceTemplates: {
        resourceTemplates: resources.flatMap((r) => (r.templateListing ? [r.templateListing] : [])),
      },
      prompts: { prompts: prompts.map((p) => p.listing) },
    },
  };
  logger.info(
    {
      tools: [...tools.keys()],
      disabledTools: manifestTools.filter((t) => t.disabled).map((t) => t.name),
      resources: resources.length,
      prompts: prompts.length,
    },
    `Kiln app ${runtime.serverInfo.name} compiled: ${tools.size} tools, ${resources.length} resources, ${prompts.length} prompts`,
  );
  return { runtime, config, storage };
}

function capabilitiesFor(tools: number, resources: number, prompts: number): ServerCapabilities {
  return {
    logging: {},
    ...(tools > 0 ? { tools: { listChanged: true } } : {}),
    ...(resources > 0 ? { resources: { listChanged: true, subscribe: true } } : {}),
    ...(prompts > 0 ? { prompts: { listChanged: true } } : {}),
    ...(prompts > 0 || resources > 0 ? { completions: {} } : {}),
  };
}

/** Compiles one kind of definition from every module, rejecting two definitions with the same name. */
function compileUnique<T extends { name: string }>(
  modules: readonly ModuleRecord[],
  kind: 'tools' | 'resources' | 'prompts',
  compile: (definitionClass: Constructor) => T | undefined,
  label: string,
  findings: LintFindings,
  keyOf: (definition: T) => string = (d) => d.name,
): T[] {
  const compiled: T[] = [];
  const owners = new Map<string, string>();
  const seen = new Set<Constructor>();
  for (const module of modules) {
    for (const definitionClass of module[kind]) {
      if (seen.has(definitionClass)) continue;
      seen.add(definitionClass);
      const definition = compile(definitionClass);
      if (!definition) continue;
      const key = keyOf(definition);
      const owner = owners.get(key);
      if (owner) {
        findings.errors.push(
          `Two ${kind} share the ${label} '${key}': ${owner} and ${definitionClass.name}. Names must be unique.`,
        );
        continue;
      }
      owners.set(key, definitionClass.name);
      compiled.push(definition);
    }
  }
  return compiled;
}

function applyOverrides(modules: ModuleRecord[], overrides: CreateAppOptions['overrides']): ModuleRecord[] {
  if (!overrides || overrides.size === 0) return modules;
  for (const module of modules) {
    module.providers.forEach((provider, index) => {
      const replacement = overrides.get(provider.token);
      if (replacement)
        module.providers[index] = { ...normalizeProvider(replacement), token: provider.token } as typeof provider;
    });
  }
  return modules;
}

function kebabCase(name: string): string {
  return (
    name
      .replace(/Module$/, '')
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .toLowerCase() || 'kiln-server'
  );
}
