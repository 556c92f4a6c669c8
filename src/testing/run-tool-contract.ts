// runToolContract: one tool class through the production tool pipeline (prepare arguments → handler → output
// parse → content[] → error envelope with the contract's recovery fill). It boots a throwaway app holding just that
// tool, so the boot lint and DI checks run too, and answers exactly what a client would receive.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { Module } from '../../decorators/module.js';
import type { Constructor, InjectionToken, Provider } from '../../decorators/types.js';
import { createApp } from '../bootstrap/create-app.js';
import { readToolMetadata } from '../definitions/compile-tool.js';
import { readConstructorDependencies } from '../di/constructor-dependencies.js';
import { FRAMEWORK_TOKENS, LOGGER, STORAGE } from '../di/tokens.js';
import { runDirect } from '../pipeline/operation-runner.js';
import { TOOL_OPERATION } from '../pipeline/tool-pipeline.js';
import { captureOf } from './mock-capture.js';
import { createMockContext, type MockContext } from './mock-context.js';

/** Instances by token, or a function answering a token (`undefined` to fall back to the token's own class). */
export type ContractProviders = ReadonlyMap<InjectionToken, unknown> | ((token: InjectionToken) => unknown);

export interface ToolContractOptions {
  /**
   * The request to run as: its tenant, auth, signal and storage are used, and its ctx.log and ctx.progress records
   * land in getLogs / getProgress. Enrichment and media appear in the returned result, not in this context.
   */
  readonly ctx?: MockContext;
  /**
   * What the tool's constructor dependencies resolve to. A class token with no entry is provided by its own class
   * (walking its dependencies the same way); any other unanswered token fails boot naming it.
   */
  readonly providers?: ContractProviders;
}

@Module({})
class ToolContractModule {}

export async function runToolContract(
  toolClass: Constructor,
  input: unknown,
  options: ToolContractOptions = {},
): Promise<CallToolResult> {
  const name = readToolMetadata(toolClass)?.name;
  if (name === undefined) throw new TypeError(`runToolContract: ${toolClass.name} has no @Tool() decorator.`);
  const capture = captureOf(options.ctx ?? createMockContext(), 'runToolContract');
  const app = await createApp(
    { module: ToolContractModule, tools: [toolClass], providers: providersFor(toolClass, options.providers) },
    {
      serve: false,
      // The context's logger is silent and enables every level, so the log floor must not hide ctx.log records.
      env: { MCP_LOG_LEVEL: 'debug' },
      overrides: new Map<InjectionToken, Provider>([
        [LOGGER, { provide: LOGGER, useValue: capture.logger }],
        [STORAGE, { provide: STORAGE, useValue: capture.storage }],
      ]),
    },
  );
  try {
    if (!app.runtime.tools.has(name)) {
      throw new TypeError(`runToolContract: ${toolClass.name} is @Disabled, so production never calls it.`);
    }
    return await runDirect(TOOL_OPERATION, app.runtime, name, input, capture.seed);
  } finally {
    // Not app.close(): that would also close the storage, which belongs to the context and outlives this call.
    await app.runtime.container.dispose();
  }
}

/** Module providers for the tool's dependency closure: supplied instances first, then classes providing themselves. */
function providersFor(toolClass: Constructor, supplied: ContractProviders | undefined): Provider[] {
  const lookup =
    typeof supplied === 'function'
      ? supplied
      : (token: InjectionToken) => (supplied?.has(token) ? supplied.get(token) : undefined);
  const providers = new Map<InjectionToken, Provider>();
  const visit = (ctor: Constructor) => {
    const result = readConstructorDependencies(ctor);
    // An unreadable constructor is reported by the app's own boot checks, with the wording production uses.
    if (!result.ok) return;
    for (const { token } of result.dependencies) {
      if (FRAMEWORK_TOKENS.has(token) || providers.has(token)) continue;
      const instance = lookup(token);
      if (instance !== undefined) {
        providers.set(token, { provide: token, useValue: instance });
      } else if (typeof token === 'function') {
        providers.set(token, token as Constructor);
        visit(token as Constructor);
      }
    }
  };
  visit(toolClass);
  return [...providers.values()];
}
