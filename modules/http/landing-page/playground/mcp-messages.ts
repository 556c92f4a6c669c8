// The MCP messages the playground sends and reads (2026-07-28), as far as the page looks into them. Answers are JSON
// from the server: the page checks what decides its path (an answer or not, input_required or complete) and shows
// the rest as it came.
import type { JsonSchema } from './schema.js';
import type { JsonObject } from './values.js';

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: number;
  readonly method: string;
  readonly params: JsonObject;
}

export interface JsonRpcError {
  readonly code?: number;
  readonly message?: string;
  readonly data?: unknown;
}

/** A JSON-RPC answer to the page's request: a result or an error. */
export interface JsonRpcAnswer {
  readonly id?: string | number;
  readonly result?: McpResult;
  readonly error?: JsonRpcError;
}

/** A notification while a call runs: progress, a log record, or anything else the server sends. */
export interface ServerNotification {
  readonly method: string;
  readonly params?: NotificationParams;
}

export interface NotificationParams {
  readonly progress?: number;
  readonly total?: number;
  readonly message?: string;
  readonly level?: string;
  readonly logger?: string;
  readonly data?: unknown;
  readonly [name: string]: unknown;
}

export interface ContentBlock {
  readonly type: string;
  readonly text?: string;
  /** Base64, for images and audio. */
  readonly data?: string;
  readonly mimeType?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly resource?: ResourceContents;
}

export interface ResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
}

export interface PromptMessage {
  readonly role: string;
  readonly content: ContentBlock;
}

/** What the server asks for in an input_required result; the page answers form elicitations. */
export interface InputRequest {
  readonly method: string;
  readonly params?: {
    readonly mode?: string;
    readonly message?: string;
    readonly requestedSchema?: JsonSchema;
  };
}

/** The page's answer to one input request (an elicitation result). */
export interface InputResponse {
  readonly action: InputAction;
  readonly content?: JsonObject;
}

export type InputAction = 'accept' | 'decline' | 'cancel';

export interface CallToolResult {
  readonly isError?: boolean;
  readonly structuredContent?: unknown;
  readonly content?: readonly ContentBlock[];
}

export interface ReadResourceResult {
  readonly contents?: readonly ResourceContents[];
}

export interface GetPromptResult {
  readonly description?: string;
  readonly messages?: readonly PromptMessage[];
}

/** A result of tools/call, resources/read or prompts/get: complete, or input_required with what the server asks. */
export interface McpResult extends CallToolResult, ReadResourceResult, GetPromptResult {
  readonly resultType?: string;
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
  readonly requestState?: unknown;
}
