// The kiln command caches the code it compiles, Node's own way: module.enableCompileCache() (Node 22.8+) keeps
// compiled modules in a folder Node manages (NODE_COMPILE_CACHE names another), so a later `kiln inspect` or
// `kiln lint` starts faster. Imported first by main.ts, before anything it would cache loads. Node 20 has no such
// call, and then nothing is cached.
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
