// README example: modules, exports, a dynamic module and a request-scoped provider.
import { CONTEXT, type Context, createToken, type DynamicModule, Inject, Injectable, Module } from 'mcp-kiln';
import { CoverArtTool } from './cover-art.tool.js';
import { DeleteBookTool } from './delete-book.tool.js';
import { GetBookTool } from './get-book.tool.js';
import { LibraryService } from './library.service.js';

export interface CatalogueOptions {
  readonly baseUrl: string;
}
export const CATALOGUE_OPTIONS = createToken<CatalogueOptions>('CatalogueOptions');

@Injectable()
export class CatalogueClient {
  constructor(@Inject(CATALOGUE_OPTIONS) readonly options: CatalogueOptions) {}
}

@Module({})
export class CatalogueModule {
  static forRoot(options: CatalogueOptions): DynamicModule {
    return {
      module: CatalogueModule,
      providers: [{ provide: CATALOGUE_OPTIONS, useValue: options }, CatalogueClient],
      exports: [CatalogueClient],
    };
  }
}

/** Request-scoped: built once per request, so it may hold the request's Context. */
@Injectable({ scope: 'request' })
export class AuditTrail {
  constructor(@Inject(CONTEXT) private readonly ctx: Context) {}

  record(event: string): void {
    this.ctx.log.info(event, { tenant: this.ctx.tenantId });
  }
}

@Module({
  imports: [CatalogueModule.forRoot({ baseUrl: 'https://catalogue.example' })],
  providers: [LibraryService, AuditTrail],
  exports: [LibraryService],
  tools: [GetBookTool, DeleteBookTool, CoverArtTool],
})
export class LibraryModule {}
