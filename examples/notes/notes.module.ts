// The notes feature: one service, four tools, a resource template and a prompt.
import { Module } from 'mcp-kiln';
import { NoteResource } from './note.resource.js';
import { NotesService } from './notes.service.js';
import { SummarizePrompt } from './summarize.prompt.js';
import { CreateNoteTool } from './tools/create-note.tool.js';
import { DeleteNoteTool } from './tools/delete-note.tool.js';
import { GetNoteTool } from './tools/get-note.tool.js';
import { SearchNotesTool } from './tools/search-notes.tool.js';

@Module({
  providers: [NotesService],
  exports: [NotesService],
  tools: [CreateNoteTool, GetNoteTool, SearchNotesTool, DeleteNoteTool],
  resources: [NoteResource],
  prompts: [SummarizePrompt],
})
export class NotesModule {}
