// The 2026-07-28 multi-round-trip fixtures (input-required-result-* scenarios): each answers a first call with an
// input_required result and completes once the retry carries the answers. Keys and messages are the suite's.
import { type HandlerContext, inputRequired, Tool } from 'mcp-kiln';
import { z } from 'zod';
import { sampledText } from '../input-answers.js';
import { RoundRecords } from '../round-records.service.js';

const NoInput = z.object({});

const Name = z.object({ name: z.string().describe('Your name') });
const Confirmation = z.object({ ok: z.boolean().describe('Whether to proceed') });
const Color = z.object({ color: z.string().describe('Your favorite color') });
const Value = z.object({ value: z.string().describe('Any value') });

const askName = (message: string) => inputRequired.elicit({ message, requestedSchema: Name });
const askConfirmation = () => inputRequired.elicit({ message: 'Please confirm', requestedSchema: Confirmation });
const sample = (text: string, maxTokens: number) =>
  inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens });

@Tool('test_input_required_result_elicitation', {
  description: 'Conformance fixture: asks for your name (elicitation, key user_name), then greets you.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class InputRequiredElicitationTool {
  // A missing, wrong-keyed or malformed answer is simply asked for again (SEP-2322: re-request, not an error).
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const answer = ctx.inputs.accepted('user_name', Name);
    if (answer) return `Hello, ${answer.name}!`;
    return ctx.requestInput({ inputRequests: { user_name: askName('What is your name?') } });
  }
}

@Tool('test_input_required_result_sampling', {
  description: "Conformance fixture: asks the client's model for the capital of France (key capital_question).",
  annotations: { readOnlyHint: true, openWorldHint: true },
  input: NoInput,
})
export class InputRequiredSamplingTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const answer = ctx.inputs.view('capital_question');
    if (answer.kind === 'sampling') return `Sampling result: ${sampledText(answer.result)}`;
    return ctx.requestInput({
      inputRequests: { capital_question: sample('What is the capital of France?', 100) },
    });
  }
}

@Tool('test_input_required_result_list_roots', {
  description: "Conformance fixture: asks for the client's roots (roots/list, key client_roots) and lists them.",
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class InputRequiredListRootsTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const answer = ctx.inputs.view('client_roots');
    if (answer.kind === 'roots') {
      return `Found ${answer.roots.length} root(s): ${answer.roots.map((root) => root.uri).join(', ')}`;
    }
    return ctx.requestInput({ inputRequests: { client_roots: inputRequired.listRoots() } });
  }
}

const RequestStateRecord = z.object({ kind: z.literal('request-state') });

@Tool('test_input_required_result_request_state', {
  description: 'Conformance fixture: asks for a confirmation with a requestState, and checks the state on the retry.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class InputRequiredRequestStateTool {
  constructor(private readonly records: RoundRecords) {}

  async handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const record = await this.records.redeem(ctx, RequestStateRecord);
    if (record && ctx.inputs.accepted('confirm', Confirmation)?.ok === true) return 'state-ok: requestState validated';
    return ctx.requestInput({
      inputRequests: { confirm: askConfirmation() },
      requestState: await this.records.mint(ctx, { kind: 'request-state' }),
    });
  }
}

const MultipleInputsRecord = z.object({ kind: z.literal('multiple-inputs') });

@Tool('test_input_required_result_multiple_inputs', {
  description:
    'Conformance fixture: asks for a name (elicitation), a greeting (sampling) and the roots at once, with a requestState.',
  annotations: { readOnlyHint: true, openWorldHint: true },
  input: NoInput,
})
export class InputRequiredMultipleInputsTool {
  constructor(private readonly records: RoundRecords) {}

  async handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const record = await this.records.redeem(ctx, MultipleInputsRecord);
    const name = ctx.inputs.accepted('user_name', Name);
    const greeting = ctx.inputs.view('greeting');
    const roots = ctx.inputs.view('client_roots');
    if (record && name && greeting.kind === 'sampling' && roots.kind === 'roots') {
      return `Name: ${name.name}; Greeting: ${sampledText(greeting.result)}; Roots: ${roots.roots.length}`;
    }
    // A retry does not carry earlier rounds' answers, so anything short of all three asks for all three again.
    return ctx.requestInput({
      inputRequests: {
        user_name: askName('What is your name?'),
        greeting: sample('Generate a greeting', 50),
        client_roots: inputRequired.listRoots(),
      },
      requestState: await this.records.mint(ctx, { kind: 'multiple-inputs' }),
    });
  }
}

const MultiRoundRecord = z.discriminatedUnion('round', [
  z.object({ kind: z.literal('multi-round'), round: z.literal(1) }),
  z.object({ kind: z.literal('multi-round'), round: z.literal(2), name: z.string() }),
]);

@Tool('test_input_required_result_multi_round', {
  description:
    'Conformance fixture: asks for your name, then your favorite color, in two rounds, each with a new requestState.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class InputRequiredMultiRoundTool {
  constructor(private readonly records: RoundRecords) {}

  async handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const record = await this.records.redeem(ctx, MultiRoundRecord);
    if (record?.round === 2) {
      const color = ctx.inputs.accepted('step2', Color);
      if (color) return `Multi-round complete for ${record.name} who likes ${color.color}`;
    }
    const name = record?.round === 1 ? ctx.inputs.accepted('step1', Name)?.name : undefined;
    const nameKnown = name ?? (record?.round === 2 ? record.name : undefined);
    if (nameKnown !== undefined) {
      return ctx.requestInput({
        inputRequests: {
          step2: inputRequired.elicit({ message: 'Step 2: What is your favorite color?', requestedSchema: Color }),
        },
        requestState: await this.records.mint(ctx, { kind: 'multi-round', round: 2, name: nameKnown }),
      });
    }
    return ctx.requestInput({
      inputRequests: { step1: askName('Step 1: What is your name?') },
      requestState: await this.records.mint(ctx, { kind: 'multi-round', round: 1 }),
    });
  }
}

const TamperRecord = z.object({ kind: z.literal('tamper-test') });

@Tool('test_input_required_result_tampered_state', {
  description:
    'Conformance fixture: asks for a confirmation with a requestState; a retry whose state was altered is rejected.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class InputRequiredTamperedStateTool {
  constructor(private readonly records: RoundRecords) {}

  // The JSON-RPC rejection of an altered state comes from Kiln's requestState sealing (MCP_REQUEST_STATE_KEY), which
  // verifies the state before this handler runs; without the key an altered id just finds no record and re-asks.
  async handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const record = await this.records.redeem(ctx, TamperRecord);
    if (record && ctx.inputs.accepted('confirm', Confirmation)) return 'integrity-ok: state verified';
    return ctx.requestInput({
      inputRequests: { confirm: askConfirmation() },
      requestState: await this.records.mint(ctx, { kind: 'tamper-test' }),
    });
  }
}

@Tool('test_input_required_result_capabilities', {
  description:
    'Conformance fixture: asks only for what the client declared it can answer: elicitation, sampling, both or neither.',
  annotations: { readOnlyHint: true, openWorldHint: true },
  input: NoInput,
})
export class InputRequiredCapabilitiesTool {
  // Optional context, not consent: a client that cannot answer is simply not asked (api-context § clientCapabilities).
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    const received = ['elicit_input', 'sample_input'].filter((key) => ctx.inputs.view(key).kind !== 'missing');
    if (received.length > 0) return `capabilities-ok: received ${received.join(',')}`;
    const declared = ctx.clientCapabilities ?? {};
    const inputRequests = {
      ...(declared.elicitation
        ? { elicit_input: inputRequired.elicit({ message: 'Elicitation input', requestedSchema: Value }) }
        : {}),
      ...(declared.sampling ? { sample_input: sample('Sample request', 50) } : {}),
    };
    if (Object.keys(inputRequests).length === 0) return 'No supported capabilities declared';
    return ctx.requestInput({ inputRequests });
  }
}

export const InputRequiredTools = [
  InputRequiredElicitationTool,
  InputRequiredSamplingTool,
  InputRequiredListRootsTool,
  InputRequiredRequestStateTool,
  InputRequiredMultipleInputsTool,
  InputRequiredMultiRoundTool,
  InputRequiredTamperedStateTool,
  InputRequiredCapabilitiesTool,
];
