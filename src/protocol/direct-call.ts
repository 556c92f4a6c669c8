// The three operations a client calls (tools/call, resources/read, prompts/get) as one function, for the protocol
// server's handlers and for a host's direct 2026-07-28 call (AppPort.runEnvelopeCall): the HTTP fast path runs a request
// it validated itself straight through the operation runner, with no protocol server, SDK dispatch or context.

import type {
  AuthInfo,
  CallToolResult,
  ClientCapabilities,
  GetPromptResult,
  InputRequiredResult,
  ReadResourceResult,
  Result,
  ServerOptions,
} from '@modelcontextprotocol/server';
import type { SignalSource } from '../context/call-cancellation.js';
import type { ContextSeed } from '../context/create-context.js';
import type { HttpRequestInfo } from '../context/http-request.js';
import { type OperationSeed, runOperation } from '../pipeline/operation-runner.js';
import { PROMPT_OPERATION } from '../pipeline/prompt-get.js';
import { RESOURCE_OPERATION } from '../pipeline/resource-read.js';
import { TOOL_OPERATION } from '../pipeline/tool-pipeline.js';
import { readUiResource } from './app-ui.js';
import { IDEMPOTENT_TOOL_OPERATION } from './idempotent-call.js';
import { isPlainObject } from './plain-object.js';
import { principalOf } from './principal.js';
import type { ProtocolRuntime } from './protocol-runtime.js';
import { type RequestFacts, type SeedOptions, seedFromFacts } from './request-seed.js';
import { readSkillFile } from './skills-server.js';

export type CallMethod = 'tools/call' | 'resources/read' | 'prompts/get';

type CacheHint = NonNullable<ServerOptions['cacheHints']>[keyof NonNullable<ServerOptions['cacheHints']>];

/** One call a host validated as the SDK's dispatch would (params, envelope), with nothing that could stream. */
export interface EnvelopeCall {
  readonly method: CallMethod;
  readonly id: string | number;
  /** The tool or prompt name, or the resource URI. */
  readonly key: string;
  readonly arguments?: Record<string, unknown>;
  /** The envelope's `io.modelcontextprotocol/clientCapabilities`. */
  readonly clientCapabilities: ClientCapabilities | undefined;
  readonly authInfo: AuthInfo | undefined;
  /** The request's `_meta` (a W3C trace context may ride there). */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** Aborted when the client goes away; a CallCancellation makes the signal only if something reads it. */
  readonly signal: SignalSource;
  /** The HTTP facts of the request (ctx.http), read on first use. */
  readonly http?: () => HttpRequestInfo | undefined;
}

export interface EnvelopeCallAnswer {
  /** The handler's answer as a protocol server's handler returns it to the SDK (a tool result is not projected). */
  readonly result: Result | InputRequiredResult;
  /** The app's configured cache hint for a cacheable method (createApp `cacheHints`), the encoder's fallback. */
  readonly cacheHint?: CacheHint;
}

/** What a direct call names: the operation, its target (tool or prompt name, resource URI) and its arguments. */
export type DirectCall = Pick<EnvelopeCall, 'method' | 'key' | 'arguments'>;

type Json = Record<string, unknown>;

/**
 * The call `params` make of `method` when they hold it in the shape the SDK's request schema takes as it is (a string
 * name, object arguments, string prompt arguments, a string URI, nothing else but `_meta`); undefined leaves the
 * request to the SDK's dispatch, which judges it. Retry fields (inputResponses, requestState) take that path too.
 */
export function directCallOf(method: string, params: Json): DirectCall | undefined {
  switch (method) {
    case 'tools/call':
    case 'prompts/get': {
      const { name, arguments: args } = params;
      if (typeof name !== 'string' || !onlyKeys(params, 'name', 'arguments')) return undefined;
      if (args !== undefined && !(isPlainObject(args) && (method === 'tools/call' || allStrings(args))))
        return undefined;
      return { method, key: name, arguments: args };
    }
    case 'resources/read': {
      const { uri } = params;
      return typeof uri === 'string' && onlyKeys(params, 'uri') ? { method, key: uri } : undefined;
    }
    default:
      return undefined;
  }
}

function onlyKeys(params: Json, first: string, second?: string): boolean {
  for (const key in params) if (key !== first && key !== second && key !== '_meta') return false;
  return true;
}

function allStrings(record: Json): boolean {
  for (const key in record) if (typeof record[key] !== 'string') return false;
  return true;
}

/** Runs one operation for a protocol handler or a direct call; tracked so shutdown lets it answer. */
export function runCall<M extends CallMethod>(
  runtime: ProtocolRuntime,
  method: M,
  key: string,
  args: Record<string, unknown> | undefined,
  seed: OperationSeed,
): Promise<CallResults[M] | InputRequiredResult> {
  return runtime.inFlight.track(operationOf(runtime, method, key, args, seed)) as Promise<
    CallResults[M] | InputRequiredResult
  >;
}

interface CallResults {
  'tools/call': CallToolResult;
  'resources/read': ReadResourceResult;
  'prompts/get': GetPromptResult;
}

function operationOf(
  runtime: ProtocolRuntime,
  method: CallMethod,
  key: string,
  args: Record<string, unknown> | undefined,
  seed: OperationSeed,
): Promise<Result | InputRequiredResult> {
  switch (method) {
    case 'tools/call': {
      // A tool declared with `task` goes through the Tasks extension's kind, which may answer with a task.
      const { tasks } = runtime;
      const tool = runtime.tools.get(key);
      const kind =
        tasks && tool?.task ? tasks.operation : tool?.idempotency ? IDEMPOTENT_TOOL_OPERATION : TOOL_OPERATION;
      return runOperation(kind, runtime, key, args, seed);
    }
    case 'resources/read': {
      const servedFromBoot = readUiResource(runtime.uiResources, key) ?? readSkillFile(runtime.skills, key);
      return servedFromBoot
        ? Promise.resolve(servedFromBoot)
        : runOperation(RESOURCE_OPERATION, runtime, key, undefined, seed);
    }
    case 'prompts/get':
      return runOperation(PROMPT_OPERATION, runtime, key, args as Record<string, string> | undefined, seed);
  }
}

/** What every call a host runs directly (no SDK dispatch) knows of its request: id, caller, `_meta`, signal. */
interface HostCall {
  readonly id: string | number;
  readonly authInfo: AuthInfo | undefined;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly signal: SignalSource;
  /** The HTTP facts of the request (ctx.http), read on first use. */
  readonly http?: () => HttpRequestInfo | undefined;
}

/** What the host's era adds: the request's channel, and the session's id on a 2025 session. */
type HostChannel = Pick<RequestFacts, 'sessionId' | 'envelopeCapabilities' | 'log' | 'progress' | 'closeStream'>;

/**
 * The facts of a call a host runs directly. Written out as one literal: spreading the call's facts and adding the
 * channel's took V8's slow path for objects (about a tenth of a direct call's CPU).
 */
export function hostCallFacts(call: HostCall, channel: HostChannel): RequestFacts {
  return {
    id: call.id,
    principal: principalOf(call.authInfo),
    sessionId: channel.sessionId,
    signal: call.signal,
    meta: call.meta,
    sealWith: { http: call.authInfo ? { authInfo: call.authInfo } : undefined },
    envelopeCapabilities: channel.envelopeCapabilities,
    log: channel.log,
    progress: channel.progress,
    closeStream: channel.closeStream,
    http: call.http,
  };
}

/** A host's direct call: the seed a dispatched request would get, minus what cannot happen without streaming. */
export async function runEnvelopeCall(runtime: ProtocolRuntime, call: EnvelopeCall): Promise<EnvelopeCallAnswer> {
  const seed = seedFromFacts(
    hostCallFacts(call, {
      sessionId: undefined,
      envelopeCapabilities: () => call.clientCapabilities,
      // A 2026-07-28 request without a log level asks for no log lines, and one without a progress token for no
      // progress: the host sends any request carrying either through the SDK's dispatch, which streams them.
      log: ignoreLogLine,
      progress: undefined,
      closeStream: undefined,
    }),
    {
      era: 'envelope',
      exposesSessionId: false,
      perRequestHandshake: false,
      notifier: runtime.notifier,
      sealing: runtime.requestStateSealing,
    } satisfies SeedOptions,
    '',
  ) satisfies ContextSeed;
  const result = await runCall(runtime, call.method, call.key, call.arguments, seed);
  const cacheHint = call.method === 'resources/read' ? runtime.serverOptions.cacheHints?.['resources/read'] : undefined;
  return cacheHint === undefined ? { result } : { result, cacheHint };
}

const ignoreLogLine = (): Promise<void> => Promise.resolve();
