// Compile-time guarantees of @RequiresConsent: its callbacks are typed from the input type given once, the tool's
// handle() must accept that input, and a contentHash method name must name a hash method of the class.
import { type Context, RequiresConsent } from 'mcp-kiln';
import { describe, it } from 'vitest';

interface Input {
  readonly id: string;
}

describe('@RequiresConsent', () => {
  it('types every callback from one annotated parameter, or from the type argument', () => {
    @RequiresConsent({
      message: (input) => `Delete ${input.id}?`,
      target: (input: Input) => input.id,
      contentHash: 'hashOf',
    })
    class AnnotatedTool {
      handle(input: Input) {
        return input.id;
      }
      async hashOf(input: Input, _ctx: Context) {
        return input.id;
      }
    }
    @RequiresConsent<Input>({
      message: (input) => `Delete ${input.id}?`,
      target: (input) => input.id,
      contentHash: async (input, ctx) => `${ctx.tenantId}:${input.id}`,
      ttlSeconds: 60,
    })
    class TypeArgumentTool {
      handle(input: Input) {
        return input.id;
      }
    }
    void [AnnotatedTool, TypeArgumentTool];
  });

  it('rejects a callback reading a field the input does not have', () => {
    RequiresConsent<Input>({
      // @ts-expect-error Input has no path
      message: (input) => `Delete ${input.path}?`,
      target: (input) => input.id,
    });
  });

  it('rejects a handle() that cannot take the input the gate reads', () => {
    // @ts-expect-error handle takes a number, but the gate reads { id }
    @RequiresConsent({ message: 'Delete?', target: (input: Input) => input.id })
    class NumberInputTool {
      handle(input: number) {
        return input;
      }
    }
    void NumberInputTool;
  });

  it('rejects a contentHash naming no hash method of the class', () => {
    // @ts-expect-error the class has no hashof method
    @RequiresConsent({ message: 'Delete?', target: (input: Input) => input.id, contentHash: 'hashof' })
    class TypoTool {
      handle(input: Input) {
        return input.id;
      }
      hashOf() {
        return 'hash';
      }
    }
    // @ts-expect-error hashOf returns a number, not a string
    @RequiresConsent({ message: 'Delete?', target: (input: Input) => input.id, contentHash: 'hashOf' })
    class NumberHashTool {
      handle(input: Input) {
        return input.id;
      }
      hashOf() {
        return 42;
      }
    }
    void [TypoTool, NumberHashTool];
  });
});
