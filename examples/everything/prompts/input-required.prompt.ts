// test_input_required_result_prompt: input_required on prompts/get (input-required-result-non-tool-request). The
// prompt asks what context to use, then builds its message from the answer.
import { type Context, inputRequired, Prompt } from 'mcp-kiln';
import { z } from 'zod';

const UserContext = z.object({ context: z.string().describe('Context the prompt should use') });

@Prompt('test_input_required_result_prompt', {
  description: 'Conformance fixture: asks the user what context to use (elicitation, key user_context), then uses it.',
})
export class InputRequiredPrompt {
  handle(_args: Record<string, never>, ctx: Context) {
    const answer = ctx.inputs.accepted('user_context', UserContext);
    if (answer) return `Use this context: ${answer.context}`;
    return ctx.requestInput({
      inputRequests: {
        user_context: inputRequired.elicit({
          message: 'What context should the prompt use?',
          requestedSchema: UserContext,
        }),
      },
    });
  }
}
