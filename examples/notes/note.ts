// The note record and its schema, shared by the service and the tools.
import { z } from 'zod';

export const NoteSchema = z.object({
  id: z.string().describe('Note id'),
  title: z.string().describe('Title'),
  body: z.string().describe('Body text'),
  tags: z.array(z.string().describe('A tag')).describe('Tags'),
  createdAt: z.string().describe('ISO 8601 creation time'),
});

export type Note = z.infer<typeof NoteSchema>;
