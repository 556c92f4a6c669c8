// The 2025-11-25 fixtures that ask the client mid-call (tools-call-sampling, tools-call-elicitation,
// elicitation-sep1034-defaults, elicitation-sep1330-enums). Written once with ctx.requestInput: on a 2025 session
// the SDK's handshake-era shim turns the request into a real sampling/createMessage or elicitation/create round trip and
// re-enters the handler; a 2026-07-28 client gets the same request as an input_required result.
import { type HandlerContext, inputRequired, Tool } from 'mcp-kiln';
import { z } from 'zod';
import { sampledText } from '../input-answers.js';

const NoInput = z.object({});

const SamplingInput = z.object({ prompt: z.string().describe('The prompt to send to the client model') });

@Tool('test_sampling', {
  description: "Conformance fixture: asks the client's model to answer the prompt (sampling) and returns its reply.",
  annotations: { readOnlyHint: true, openWorldHint: true },
  input: SamplingInput,
})
export class SamplingTool {
  handle(input: z.output<typeof SamplingInput>, ctx: HandlerContext) {
    const answer = ctx.inputs.view('llm_response');
    if (answer.kind === 'sampling') return `LLM response: ${sampledText(answer.result)}`;
    return ctx.requestInput({
      inputRequests: {
        llm_response: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: input.prompt } }],
          maxTokens: 100,
        }),
      },
    });
  }
}

const ElicitationInput = z.object({ message: z.string().describe('The message to show the user') });

const UserInfo = z.object({
  username: z.string().describe("User's response"),
  email: z.string().describe("User's email address"),
});

@Tool('test_elicitation', {
  description: 'Conformance fixture: asks the user for a username and an email (elicitation) and echoes the answer.',
  annotations: { readOnlyHint: true },
  input: ElicitationInput,
})
export class ElicitationTool {
  handle(input: z.output<typeof ElicitationInput>, ctx: HandlerContext) {
    const answer = ctx.inputs.view('user_info');
    if (answer.kind === 'elicit') {
      return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    }
    return ctx.requestInput({
      inputRequests: { user_info: inputRequired.elicit({ message: input.message, requestedSchema: UserInfo }) },
    });
  }
}

@Tool('test_elicitation_sep1034_defaults', {
  description:
    'Conformance fixture: elicits a form whose string, integer, number, enum and boolean fields all carry defaults (SEP-1034).',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class ElicitationDefaultsTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const answer = ctx.inputs.view('profile');
    if (answer.kind === 'elicit') return completedText(answer);
    return ctx.requestInput({
      inputRequests: {
        profile: inputRequired.elicit({
          message: 'Please review and update the form fields with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'User name', default: 'John Doe' },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: { type: 'number', description: 'User score', default: 95.5 },
              status: {
                type: 'string',
                description: 'User status',
                enum: ['active', 'inactive', 'pending'],
                default: 'active',
              },
              verified: { type: 'boolean', description: 'Verification status', default: true },
            },
            required: [],
          },
        }),
      },
    });
  }
}

@Tool('test_elicitation_sep1330_enums', {
  description:
    'Conformance fixture: elicits a form with every enum shape: untitled, titled, legacy enumNames, and both multi-selects (SEP-1330).',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class ElicitationEnumsTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const answer = ctx.inputs.view('choices');
    if (answer.kind === 'elicit') return completedText(answer);
    return ctx.requestInput({
      inputRequests: {
        choices: inputRequired.elicit({
          message: 'Please select options from the enum fields',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: {
                type: 'string',
                description: 'Select one option',
                enum: ['option1', 'option2', 'option3'],
              },
              titledSingle: {
                type: 'string',
                description: 'Select one option with titles',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                  { const: 'value3', title: 'Third Option' },
                ],
              },
              legacyEnum: {
                type: 'string',
                description: 'Select one option (legacy)',
                enum: ['opt1', 'opt2', 'opt3'],
                enumNames: ['Option One', 'Option Two', 'Option Three'],
              },
              untitledMulti: {
                type: 'array',
                description: 'Select multiple options',
                minItems: 1,
                maxItems: 3,
                items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              },
              titledMulti: {
                type: 'array',
                description: 'Select multiple options with titles',
                minItems: 1,
                maxItems: 3,
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                    { const: 'value3', title: 'Third Choice' },
                  ],
                },
              },
            },
            required: [],
          },
        }),
      },
    });
  }
}

function completedText(answer: { action: string; content?: unknown }): string {
  return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
}

export const ClientInputTools = [SamplingTool, ElicitationTool, ElicitationDefaultsTool, ElicitationEnumsTool];
