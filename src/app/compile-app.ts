// Boot: configuration → module graph (the core module first) → DI checks → definition compile and lint → root
// container (singletons built, framework providers resolved) → lifecycle hooks. Every problem found in one pass is
// reported together; warnings go to the log.
import { SKILLS_EXTENSION_ID } from '@modelcontextprotocol/core/ext/skills';
import { EXTENSION_ID as APPS_EXTENSION_ID } from '@modelcontextprotocol/ext-apps/server';
import type { ServerCapabilities } from '@modelcontextprotocol/server';
import { Module } from '../../decorators/module.js';
import type { Constructor, ModuleRef } from '../../decorators/types.js';
import { type KilnConfig, loadConfig } from '../config/kiln-config.js';
import { cacheHintProblem } from '../definitions/cache-hint.js';
import { compilePrompt } from '../definitions/compile-prompt.js';
import { compileResource } from '../definitions/compile-resource.js';
import { compileSkills } from '../definitions/compile-skills.js';
import { checkResultLimit, compileTool } from '../definitions/compile-tool.js';
import { DEFAULT_INPUT_OPTIONS } from '../definitions/input/index.js';
import { lintDisabledReferences } from '../definitions/lint/disabled-references.js';
import type { LintFindings } from '../definitions/lint/tool-lint.js';
import { textToolDefinitions } from '../definitions/ui/compile-tool-ui.js';
import { compileUiResources } from '../definitions/ui/compile-ui-resources.js';
import { buildDependencyGraph, scopeOf } from '../di/dependency-graph.js';
import { isDynamicModule, type ModuleRecord, normalizeProvider, scanModules } from '../di/module-scanner.js';
import { RequestScopes } from '../di/request-scope.js';
import { createRootContainer } from '../di/root-container.js';
import { CONTEXT, KILN_CONFIG, LOGGER, NOTIFIER, STORAGE, TELEMETRY, USAGE } from '../di/tokens.js';
import { KilnBootError } from '../errors/boot-error.js';
import { type Logger, Redaction } from '../logging/index.js';
import type { ChangeNotifier } from '../notifications/change-notifier.js';
import type { CallPolicy, PolicyRuntime } from '../pipeline/call-policy.js';
import { createRequestStateSealing } from '../protocol/request-state-sealing.js';
import type { StorageProvider, StorageService, UsageLedger } from '../storage/index.js';
import { createTaskSupport } from '../tasks/task-support.js';
import { TASKS_EXTENSION_ID } from '../tasks/tasks-extension.js';
import { hostTelemetry } from '../telemetry/host-telemetry.js';
import { type ActiveTelemetry, activeTelemetry, type KilnTelemetry } from '../telemetry/kiln-telemetry.js';
import { ATTR } from '../telemetry/semantic-names.js';
import type { CreateAppOptions } from './app-options.js';
import type { AppRuntime } from './app-runtime.js';
import { callObservation, observationProblems } from './call-observation.js';
import { compileCallChains, provideOverriddenParts } from './compile-call-chains.js';
import { compileCallPolicies, policyProblems } from './compile-call-policies.js';
import { KilnCoreModule } from './core-module.js';
import { InFlightRequests } from './in-flight-requests.js';
import { LifecycleHooks } from './lifecycle-hooks.js';

export async function compileApp(root: ModuleRef, options: CreateAppOptions = {}): Promise<AppRuntime> {
  const loaded = loadConfig(options.env ?? process.env, { sessionMode: options.sessionMode?.default });
  const overrides = options.overrides ?? new Map();
  const modules = applyOverrides(scanModules(appRoot(root, loaded, options)), overrides);
  const findings: LintFindings = { errors: [], warnings: [] };
  // The app root scanned last; its second import is the user's root module (appRoot).
  const userRoot = modules.at(-1)?.imports[1] as ModuleRecord;
  const callChains = compileCallChains(modules, userRoot, options, findings.errors);
  provideOverriddenParts(callChains.parts, modules, overrides);
  const graph = buildDependencyGraph(modules, findings.errors, callChains.parts);
  const inputOptions = { ...DEFAULT_INPUT_OPTIONS, ...options.input };
  const appResultLimit = checkResultLimit(options.maxResultBytes, 'createApp', findings);

  const manifestTools = compileUnique(
    modules,
    'tools',
    (c) => compileTool(c, inputOptions, findings, { maxResultBytes: appResultLimit }),
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
  const skills = await compileSkills(
    modules.flatMap((module) => module.skills),
    findings.errors,
  );
  lintDisabledReferences(
    { tools: manifestTools, resources, prompts, instructions: options.instructions },
    findings.warnings,
  );
  const uiResources = await compileUiResources(
    modules.flatMap((module) => module.uiResources),
    manifestTools,
    new Set(resources.map((resource) => resource.uriTemplate)),
    findings,
  );
  for (const [method, hint] of Object.entries(options.cacheHints ?? {})) {
    const problem = hint && cacheHintProblem(hint);
    if (problem) findings.errors.push(`createApp cacheHints['${method}']: ${problem}.`);
  }
  const callPolicies = compileCallPolicies(
    modules,
    options,
    { tools: manifestTools, resources, prompts },
    findings.errors,
  );
  if (findings.errors.length > 0) throw new KilnBootError(findings.errors, findings.warnings);

  const container = await createRootContainer(graph);
  const requestScopes = RequestScopes.compile(container, graph.consumers, (token) => scopeOf(token, graph.providers));
  // Resolved, not assumed: a testing module may have replaced any of them.
  const config = container.resolve<KilnConfig>(KILN_CONFIG);
  const logger = container.resolve<Logger>(LOGGER);
  const storage = container.resolve<StorageService>(STORAGE);
  const notifier = container.resolve<ChangeNotifier>(NOTIFIER);
  // Kept only when an OpenTelemetry SDK records something, so a request path tests one `undefined`.
  const telemetry = activeTelemetry(container.resolve<KilnTelemetry>(TELEMETRY));
  checkSessionMode(config, options);
  const policies =
    callPolicies.size > 0 ? await policyRuntime(callPolicies, storage, options, logger, telemetry) : undefined;
  const observationProblemsFound = observationProblems(config, options, storage.policyStore?.());
  if (observationProblemsFound.length > 0) {
    await storage.close().catch((error: unknown) => logger.warning({ err: error }, 'Closing storage failed'));
    throw new KilnBootError(observationProblemsFound, []);
  }
  for (const warning of findings.warnings) logger.warning(warning);

  const tools = new Map(manifestTools.filter((t) => !t.disabled).map((t) => [t.name, t]));
  const servesTasks = [...tools.values()].some((tool) => tool.task !== undefined);
  const extensions = { skills: skills !== undefined, apps: uiResources !== undefined, tasks: servesTasks };
  const capabilities = capabilitiesFor(tools.size, resources.length, prompts.length, extensions);
  const toolListing = { tools: [...tools.values()].map((t) => t.definition) };
  const services = {
    logger,
    logFloor: config.logLevel,
    redaction: new Redaction(config.logRedactFields ?? []),
    stateFor: (tenantId: string | undefined) => storage.forTenant(tenantId),
  };
  const observers = await callObservation(
    config,
    options,
    container.resolve<UsageLedger>(USAGE),
    logger,
    services.redaction,
    telemetry,
  );
  const inFlight = new InFlightRequests();
  const track = <T>(work: Promise<T>) => inFlight.track(work);
  const tasks = servesTasks
    ? createTaskSupport({ requestScopes, services, logger, tools, notifier, track }, services.stateFor, config.tasks)
    : undefined;
  const requestStateSealing = createRequestStateSealing(config.requestState, logger);
  const serverOptions = {
    capabilities,
    ...(options.cacheHints ? { cacheHints: options.cacheHints } : {}),
    ...(options.instructions ? { instructions: options.instructions } : {}),
    // The SDK runs the hook on every round (2025 shim rounds included) before the handler; a rejection is -32602.
    ...(requestStateSealing ? { requestState: { verify: requestStateSealing.verify } } : {}),
  };
  const runtime: AppRuntime = {
    serverInfo: {
      name: options.name ?? kebabCase(isDynamicModule(root) ? root.module.name : root.name),
      version: options.version ?? '0.0.0',
      ...(options.title ? { title: options.title } : {}),
    },
    instructions: options.instructions,
    capabilities,
    serverOptions,
    // The Tasks extension is a 2026-07-28 one: a 2025 client is not told of what it cannot use.
    handshakeServerOptions: servesTasks
      ? {
          ...serverOptions,
          capabilities: capabilitiesFor(tools.size, resources.length, prompts.length, { ...extensions, tasks: false }),
        }
      : serverOptions,
    container,
    requestScopes,
    callChains: callChains.chains,
    ...(policies ? { policies } : {}),
    ...(observers.observe ? { observeCall: observers.observe } : {}),
    closeObservers: observers.close,
    ...(observers.auditRefusal ? { auditRefusal: observers.auditRefusal } : {}),
    providerScopes: new Map([
      [CONTEXT, 'request'],
      ...[...graph.providers].map(([token, entry]) => [token, entry.provider.scope] as const),
    ]),
    hooks: LifecycleHooks.collect(modules, graph.providers, container),
    services,
    logger,
    telemetry,
    hostTelemetry: hostTelemetry(telemetry),
    inFlight,
    probeStorage: () => storage.probe(),
    notifier,
    requestStateSealing,
    hideForbiddenTools: config.auth.hideForbiddenTools,
    skills,
    uiResources,
    tasks,
    tools,
    manifestTools,
    resources,
    prompts: new Map(prompts.map((p) => [p.name, p])),
    listings: {
      tools: toolListing,
      textTools: uiResources ? { tools: textToolDefinitions([...tools.values()]) } : toolListing,
      resourceTemplates: {
        resourceTemplates: [
          ...resources.flatMap((r) => (r.templateListing ? [r.templateListing] : [])),
          ...(skills ? [SKILL_FILES_TEMPLATE] : []),
        ],
      },
      prompts: { prompts: prompts.map((p) => p.listing) },
    },
  };
  await runtime.hooks.boot();
  logger.info(
    {
      tools: [...tools.keys()],
      disabledTools: manifestTools.filter((t) => t.disabled).map((t) => t.name),
      resources: resources.length,
      prompts: prompts.length,
      skills: skills?.entries.map((entry) => entry.uri) ?? [],
      uiResources: [...(uiResources?.byUri.keys() ?? [])],
    },
    `Kiln app ${runtime.serverInfo.name} compiled: ${tools.size} tools, ${resources.length} resources, ${prompts.length} prompts`,
  );
  return runtime;
}

/** The backend and clock the app's call policies count with; a backend that cannot count stops boot. */
async function policyRuntime(
  byDefinition: Map<Constructor, CallPolicy>,
  storage: StorageService,
  options: CreateAppOptions,
  logger: Logger,
  telemetry: ActiveTelemetry | undefined,
): Promise<PolicyRuntime> {
  const store = storage.policyStore?.();
  const problems = policyProblems(byDefinition, store);
  if (problems.length > 0) {
    await storage.close().catch((error: unknown) => logger.warning({ err: error }, 'Closing storage failed'));
    throw new KilnBootError(problems, []);
  }
  const lookups = telemetry?.metrics?.cacheLookups;
  return {
    byDefinition,
    store: store as StorageProvider,
    now: options.clock ?? Date.now,
    ...(lookups
      ? {
          onCacheLookup: (hit: boolean, method: string, name: string) =>
            lookups.add(1, {
              [ATTR.mcpMethod]: method,
              [ATTR.definitionName]: name,
              [ATTR.cacheResult]: hit ? 'hit' : 'miss',
            }),
        }
      : {}),
  };
}

/** The user's root module, with the core module imported first so its singletons are built first. */
function appRoot(root: ModuleRef, config: KilnConfig, options: CreateAppOptions): ModuleRef {
  return {
    module: KilnAppRoot,
    imports: [KilnCoreModule.forApp(config, options.storageProviders, options.logger, options.clock), root],
  };
}

@Module({})
class KilnAppRoot {}

function checkSessionMode(config: KilnConfig, options: CreateAppOptions): void {
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
}

function capabilitiesFor(
  tools: number,
  resources: number,
  prompts: number,
  extensions: { readonly skills: boolean; readonly apps: boolean; readonly tasks: boolean },
): ServerCapabilities {
  // Skill files and MCP Apps views are read through resources/read, so serving either declares resources too.
  const servesResources = resources > 0 || extensions.skills || extensions.apps;
  const declared = {
    ...(extensions.skills ? { [SKILLS_EXTENSION_ID]: { directoryRead: true } } : {}),
    ...(extensions.apps ? { [APPS_EXTENSION_ID]: {} } : {}),
    // No settings are defined for the Tasks extension: an empty object declares it (never capabilities.tasks).
    ...(extensions.tasks ? { [TASKS_EXTENSION_ID]: {} } : {}),
  };
  return {
    logging: {},
    ...(tools > 0 ? { tools: { listChanged: true } } : {}),
    ...(servesResources ? { resources: { listChanged: true, subscribe: true } } : {}),
    ...(prompts > 0 ? { prompts: { listChanged: true } } : {}),
    ...(prompts > 0 || resources > 0 ? { completions: {} } : {}),
    ...(Object.keys(declared).length > 0 ? { extensions: declared } : {}),
  };
}

/** Where a skill's files are read (resources/templates/list): any path below skill://. */
const SKILL_FILES_TEMPLATE = {
  uriTemplate: 'skill://{+path}',
  name: 'skills',
  description: 'Files of the skills this server serves (the Skills extension): list them with skills/list.',
};

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
