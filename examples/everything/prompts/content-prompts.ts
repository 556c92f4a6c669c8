// The prompts of the prompts-* scenarios: plain text, two required arguments (with completion for arg1), an
// embedded resource, and an image.
import { Prompt, type PromptMessage } from 'mcp-kiln';
import { z } from 'zod';
import { TEST_PNG_BASE64 } from '../media.js';

@Prompt('test_simple_prompt', {
  title: 'Simple Test Prompt',
  description: 'A simple prompt without arguments.',
})
export class SimplePrompt {
  handle() {
    return 'This is a simple prompt for testing.';
  }
}

const Arguments = z.object({
  arg1: z.string().describe('First test argument'),
  arg2: z.string().describe('Second test argument'),
});

/** What completion/complete offers for arg1 (completion-complete asks with the prefix "par"). */
export const ARG1_SUGGESTIONS = ['paris', 'park', 'party', 'value1', 'value2'] as const;

@Prompt('test_prompt_with_arguments', {
  title: 'Prompt With Arguments',
  description: 'A prompt with two required arguments, echoed back in its text.',
  args: Arguments,
})
export class PromptWithArguments {
  handle(args: z.output<typeof Arguments>) {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  complete(argument: string, value: string) {
    if (argument !== 'arg1') return [];
    return ARG1_SUGGESTIONS.filter((suggestion) => suggestion.startsWith(value));
  }
}

const EmbedArguments = z.object({ resourceUri: z.string().describe('URI of the resource to embed') });

@Prompt('test_prompt_with_embedded_resource', {
  title: 'Prompt With Embedded Resource',
  description: 'A prompt that embeds a text resource at the given URI, then asks to process it.',
  args: EmbedArguments,
})
export class PromptWithEmbeddedResource {
  handle(args: z.output<typeof EmbedArguments>): PromptMessage[] {
    return [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ];
  }
}

@Prompt('test_prompt_with_image', {
  title: 'Prompt With Image',
  description: 'A prompt that shows a PNG image, then asks to analyze it.',
})
export class PromptWithImage {
  handle(): PromptMessage[] {
    return [
      { role: 'user', content: { type: 'image', data: TEST_PNG_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ];
  }
}

export const ContentPrompts = [SimplePrompt, PromptWithArguments, PromptWithEmbeddedResource, PromptWithImage];
