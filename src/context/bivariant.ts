// A function type checked bivariantly (declared through a method), so a handler's strictly typed `ctx.enrich` and
// `ctx.recoveryFor` stay assignable to the loose `Context` that services accept.
// biome-ignore lint/suspicious/noExplicitAny: the parameter list is supplied by the caller's function type.
export type Bivariant<F extends (...args: any[]) => unknown> = {
  method(...args: Parameters<F>): ReturnType<F>;
}['method'];
