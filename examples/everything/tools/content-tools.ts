// Tools whose whole job is one content[] shape the conformance suite checks (tools-call-* scenarios): text, image,
// audio, an embedded resource, a mix of the three, and a tool error.
import { Errors, type HandlerContext, Tool } from 'mcp-kiln';
import { JsonRpcErrorCode } from 'mcp-kiln/errors';
import { z } from 'zod';
import { TEST_PNG_BASE64, TEST_WAV_BASE64 } from '../media.js';

const NoInput = z.object({});

@Tool('test_simple_text', {
  description: 'Conformance fixture: returns one text block, "This is a simple text response for testing."',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class SimpleTextTool {
  handle() {
    return 'This is a simple text response for testing.';
  }
}

@Tool('test_image_content', {
  description: 'Conformance fixture: returns one image block, a 1x1 PNG.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class ImageContentTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    ctx.content.image(TEST_PNG_BASE64, 'image/png');
    return [];
  }
}

@Tool('test_audio_content', {
  description: 'Conformance fixture: returns one audio block, a short WAV clip.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class AudioContentTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    ctx.content.audio(TEST_WAV_BASE64, 'audio/wav');
    return [];
  }
}

@Tool('test_embedded_resource', {
  description: 'Conformance fixture: returns one embedded text resource, test://embedded-resource.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class EmbeddedResourceTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext) {
    ctx.content({
      type: 'resource',
      resource: {
        uri: 'test://embedded-resource',
        mimeType: 'text/plain',
        text: 'This is an embedded resource content.',
      },
    });
    return [];
  }
}

@Tool('test_multiple_content_types', {
  description:
    'Conformance fixture: returns a text block, an image block and an embedded JSON resource, in that order.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
export class MultipleContentTypesTool {
  // Returned as blocks rather than through ctx.content: media collected there is prepended, and the suite's
  // reference order is text first.
  handle() {
    return [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: TEST_PNG_BASE64, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ];
  }
}

export const IntentionalFailure = [
  {
    reason: 'intentional_error',
    code: JsonRpcErrorCode.InternalError,
    when: 'Always: this tool exists to exercise the error path.',
    recovery: 'Nothing to fix; call any other test tool for a successful result.',
  },
] as const;

@Tool('test_error_handling', {
  description: 'Conformance fixture: always fails, returning an isError result that explains the failure.',
  annotations: { readOnlyHint: true },
  input: NoInput,
})
@Errors(IntentionalFailure)
export class ErrorHandlingTool {
  handle(_input: z.output<typeof NoInput>, ctx: HandlerContext<typeof IntentionalFailure>): never {
    throw ctx.fail('intentional_error', 'This tool intentionally returns an error for testing');
  }
}

export const ContentTools = [
  SimpleTextTool,
  ImageContentTool,
  AudioContentTool,
  EmbeddedResourceTool,
  MultipleContentTypesTool,
  ErrorHandlingTool,
];
