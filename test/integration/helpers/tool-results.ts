// Readers for CallToolResults as the SDK client returns them, and the shape checks every Kiln tool listing and
// failure envelope must pass.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { expect } from 'vitest';

export type JsonObject = Record<string, unknown>;

/** The text of every content block that has one, in order; other blocks show as `<type>`. */
export function contentTexts(result: CallToolResult): string[] {
  return result.content.map((block) => (block.type === 'text' ? block.text : `<${block.type}>`));
}

export function structured(result: CallToolResult): JsonObject {
  expect(result.structuredContent).toBeTypeOf('object');
  return result.structuredContent as JsonObject;
}

export interface WireEnvelope {
  readonly code: number;
  readonly message: string;
  readonly data: { reason?: string; recovery?: { hint: string }; requestId: string; [key: string]: unknown };
}

/** The failure envelope of an isError result, after checking content[] renders the same facts. */
export function failureEnvelope(result: CallToolResult): WireEnvelope {
  expect(result.isError).toBe(true);
  const { error } = structured(result) as { error: WireEnvelope };
  expect(error).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
  expect(error.data.requestId).toMatch(/\S/);
  const [text, ...rest] = contentTexts(result);
  expect(rest).toEqual([]);
  expect(text).toContain(`Error ${error.code}: ${error.message}`);
  expect(text).toContain(`**Request id:** ${error.data.requestId}`);
  if (error.data.reason) expect(text).toContain(`**Reason:** ${error.data.reason}`);
  if (error.data.recovery) expect(text).toContain(`**Recovery:** ${error.data.recovery.hint}`);
  return error;
}

/** The masked envelope of an unexpected failure: -32603, a request id to quote, nothing of the original error. */
export function expectMaskedFailure(result: CallToolResult, toolName: string, secret: string): WireEnvelope {
  const error = failureEnvelope(result);
  const { requestId } = error.data;
  expect(error).toEqual({
    code: -32603,
    message: `An unexpected error occurred in ${toolName}. It was logged with request id ${requestId}.`,
    data: {
      requestId,
      recovery: { hint: `Retry once; if it fails again, report request id ${requestId} to the server operator.` },
    },
  });
  expect(JSON.stringify(result)).not.toContain(secret);
  return error;
}

export function findTool(tools: readonly Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`tools/list has no ${name}; it lists ${tools.map((t) => t.name).join(', ')}`);
  return tool;
}

/**
 * The widened outputSchema (add-tool.md): root `type: object` with no `required`, an `error` property describing
 * the envelope, and an anyOf whose success branch carries the success fields' `required` and forbids `error`.
 */
export function expectWidenedOutputSchema(tool: Tool, successRequired: readonly string[]): void {
  const schema = tool.outputSchema as JsonObject;
  expect(schema.type).toBe('object');
  expect(schema).not.toHaveProperty('required');
  expect((schema.properties as JsonObject).error).toMatchObject({
    type: 'object',
    required: ['code', 'message'],
    properties: {
      code: { type: 'integer' },
      message: { type: 'string' },
      data: {
        type: 'object',
        properties: {
          reason: { type: 'string' },
          recovery: { type: 'object', required: ['hint'] },
          requestId: { type: 'string' },
        },
      },
    },
  });
  const success: JsonObject = { not: { required: ['error'] } };
  if (successRequired.length > 0) success.required = [...successRequired];
  expect(schema.anyOf).toEqual([success, { required: ['error'] }]);
}

export function expectStrictInputSchema(tool: Tool): void {
  const schema = tool.inputSchema as JsonObject;
  expect(schema.type).toBe('object');
  const branches = (schema.oneOf as JsonObject[] | undefined) ?? [schema];
  for (const branch of branches) expect(branch.additionalProperties).toBe(false);
}

const validator = new AjvJsonSchemaValidator();

/** Validates structuredContent against the tool's advertised outputSchema with the SDK's own validator. */
export function matchesOutputSchema(tool: Tool, value: unknown): boolean {
  return validator.getValidator(tool.outputSchema as JsonObject)(value).valid;
}
