// A request's cancellation, made on demand. Most calls are never cancelled and never read ctx.signal, and on Node 20
// building an AbortController (an EventTarget) costs more than the rest of a direct call's context: the host holds a
// CallCancellation, aborts it when the client goes away, and the signal exists only once something reads it (already
// aborted, with the host's reason, when the abort came first).

export class CallCancellation {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/** A request's signal as a seed carries it: the signal itself, or what makes it when first read. */
export type SignalSource = AbortSignal | { readonly signal: AbortSignal };

export function signalOf(source: SignalSource): AbortSignal {
  return source instanceof AbortSignal ? source : source.signal;
}

/** Whether the request's signal has aborted, without making one where nothing made it yet. */
export function isAborted(source: SignalSource): boolean {
  if (source instanceof AbortSignal) return source.aborted;
  return source instanceof CallCancellation ? source.aborted : source.signal.aborted;
}
