// README example: call policies on a read-only tool that stands in for an expensive upstream API — a rate limit per
// caller, a daily quota per tenant, and answers cached per tenant for five minutes.
import { Cache, type Context, Quota, RateLimit, Tool } from 'mcp-kiln';
import { z } from 'zod';

const Input = z.object({
  isbn: z.string().describe('ISBN-13 of the book'),
  size: z.enum(['small', 'large']).default('small').describe('Image size'),
});

@RateLimit({ limit: 30, windowMs: 60_000, by: 'subject' })
@Quota({ limit: 1000, period: 'day', by: 'tenant' })
@Cache({ ttlMs: 300_000 })
@Tool('library_cover_art', {
  description: 'The URL of a book cover image by ISBN-13, from the cover service; say which size you need.',
  annotations: { readOnlyHint: true },
  input: Input,
})
export class CoverArtTool {
  handle(input: z.output<typeof Input>, ctx: Context) {
    const left = ctx.usage.quotas[0]?.remaining;
    const url = `https://covers.example/${input.isbn}-${input.size}.jpg`;
    return left === undefined ? url : `${url}\n(${left} cover lookups left today)`;
  }
}
