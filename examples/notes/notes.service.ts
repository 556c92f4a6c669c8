// Notes per tenant, kept in ctx.state under `notes/<id>`. A singleton: it takes the request's Context per call,
// so tenant scoping comes from the caller and nothing request-specific is held between calls.
import { randomUUID } from 'node:crypto';
import { type Context, Injectable } from 'mcp-kiln';
import { type Note, NoteSchema } from './note.js';

const PREFIX = 'notes/';

@Injectable()
export class NotesService {
  async create(ctx: Context, fields: Pick<Note, 'title' | 'body' | 'tags'>): Promise<Note> {
    const note: Note = { id: randomUUID(), ...fields, createdAt: new Date().toISOString() };
    await ctx.state.set(PREFIX + note.id, note);
    return note;
  }

  find(ctx: Context, id: string): Promise<Note | null> {
    return ctx.state.get(PREFIX + id, NoteSchema);
  }

  /** Removes a note; false when there was none. Atomic, so of concurrent deletes of one note exactly one is true. */
  async delete(ctx: Context, id: string): Promise<boolean> {
    return (await ctx.state.take(PREFIX + id)) !== null;
  }

  /** Every note of the caller's tenant, newest first. */
  async all(ctx: Context): Promise<Note[]> {
    const notes: Note[] = [];
    let cursor: string | undefined;
    do {
      const page = await ctx.state.list(PREFIX, { cursor, limit: 200 });
      for (const item of page.items) notes.push(NoteSchema.parse(item.value));
      cursor = page.cursor;
    } while (cursor);
    return notes.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async search(ctx: Context, query: string, tag?: string): Promise<Note[]> {
    const needle = query.toLowerCase();
    return (await this.all(ctx)).filter(
      (note) =>
        (note.title.toLowerCase().includes(needle) || note.body.toLowerCase().includes(needle)) &&
        (tag === undefined || note.tags.includes(tag)),
    );
  }
}
