// test://template/{id}/data: the resource template of resources-templates-read, a JSON document echoing its id.
import { Resource } from 'mcp-kiln';
import { z } from 'zod';

const Params = z.object({ id: z.string().min(1).describe('Any identifier; the document echoes it back') });

@Resource('test://template/{id}/data', {
  name: 'template',
  title: 'Resource Template',
  description: 'A resource template with parameter substitution: a JSON document for any id.',
  mimeType: 'application/json',
  params: Params,
})
export class TemplateDataResource {
  handle(params: z.output<typeof Params>) {
    return JSON.stringify({ id: params.id, templateTest: true, data: `Data for ID: ${params.id}` });
  }
}
